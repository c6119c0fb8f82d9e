// The world's languages as a reflist project: iso-639-3 (SIL's ISO 639-3
// table, 7,867 codes) converted to language.csv, and a reflist.config.json of
// one of the variants below, over the same CSV (as scripts/examples/cities.ts).
//
//   npx tsx scripts/examples/languages.ts --out DIR [--config NAME]   (NAME: picker, the default, or plain)
//
// - language.csv  id, name, code: the ISO 639-3 code (`deu`), the reference
//                 name (`German`) and the ISO 639-1 code where there is one
//                 (`de`, else empty), by id
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { iso6393 } from 'iso-639-3';
import { csvLine } from '../sources/csv.js';

/** Writes language.csv into `dir`; returns its rows. */
export function writeLanguageSources(dir: string): { 'language.csv': number } {
  const languages = iso6393.slice().sort((a, b) => (a.iso6393 < b.iso6393 ? -1 : 1));
  mkdirSync(dir, { recursive: true });
  const lines = [csvLine(['id', 'name', 'code'])];
  for (const l of languages) lines.push(csvLine([l.iso6393, l.name, l.iso6391 ?? '']));
  writeFileSync(join(dir, 'language.csv'), lines.join(''));
  return { 'language.csv': languages.length };
}

// The ISO 639-3 code is the id a form keeps, and a field too, so that Term searches it.
const language = {
  id: { column: 'id', type: 'string', chars: 'a-z' },
  label: 'name',
  fields: { iso3: { column: 'id', type: 'string' }, code: 'string' },
};

/**
 * The configs over that CSV, by name. `picker`: the worked example of
 * docs/examples.md, a language found by its name or either code, a code or
 * name typed in full first. `plain`: the same list searched by name and both
 * codes without `exact`, for the figures of `npm run bench -- cities`.
 */
export const LANGUAGE_CONFIGS: Record<string, object> = {
  picker: { lists: { language: { ...language, search: { columns: ['code', 'iso3'], exact: true } } } },
  plain: { lists: { language: { ...language, search: { columns: ['code', 'iso3'] } } } },
};

/** Writes the config `variant` into `dir`. */
export function writeLanguageConfig(dir: string, variant: string): void {
  const config = LANGUAGE_CONFIGS[variant];
  if (!config)
    throw new Error(`no language config "${variant}": expected one of ${Object.keys(LANGUAGE_CONFIGS).join(', ')}`);
  writeFileSync(join(dir, 'reflist.config.json'), `${JSON.stringify(config, null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, config: { type: 'string', default: 'picker' } } });
  if (!values.out) throw new Error('--out DIR: the folder to write the source and the config into');
  const dir = resolve(values.out);
  const rows = writeLanguageSources(dir);
  writeLanguageConfig(dir, values.config);
  console.log(`wrote ${dir}: language.csv ${rows['language.csv']} rows, reflist.config.json (${values.config})`);
}
