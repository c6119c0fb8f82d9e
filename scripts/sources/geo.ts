// Real geography: country.csv, state.csv and county.csv.
//
// - Countries: `i18n-iso-countries` (ISO 3166-1). id = numeric code, text =
//   the package's English name, or a common short name from COMMON below
//   (always one of the names the package itself lists). XK (Kosovo, 983) is
//   left out: 983 is a user-assigned code, not part of ISO 3166-1.
// - US states: `us-atlas` states (Census cartographic boundaries, 2017):
//   id = state FIPS (6 California, 11 District of Columbia, 72 Puerto Rico,
//   plus 60, 66, 69, 78).
// - Other countries' first-level subdivisions: `country-region-data`. See
//   subdivisionId() for the stable id rule.
// - US counties: `us-atlas` counties, with the Census NAME ("Los Angeles",
//   without "County"). See countyRows() for the centre.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import { geoCentroid } from 'd3-geo';
import type { Topology, GeometryCollection } from 'topojson-specification';
import type { Feature, Geometry } from 'geojson';
import { fnv1a32 } from './prng.js';

const require = createRequire(import.meta.url);
const readJson = (spec: string): unknown => JSON.parse(readFileSync(require.resolve(spec), 'utf8'));

export const US = 840;

// alpha-2 → the common English name, where the package's first name is the
// formal one ("United States of America") or an inverted one ("Moldova, Republic of").
const COMMON: Record<string, string> = {
  US: 'United States',
  GB: 'United Kingdom',
  CN: 'China',
  RU: 'Russia',
  IR: 'Iran',
  TW: 'Taiwan',
  TZ: 'Tanzania',
  PS: 'Palestine',
  MK: 'North Macedonia',
  GM: 'Gambia',
  CZ: 'Czechia',
  NL: 'Netherlands',
  PN: 'Pitcairn Islands',
  CI: "Côte d'Ivoire",
};
// Names the package does not list at all but that read better in a drop-down.
const RENAMED: Record<string, string> = {
  VG: 'British Virgin Islands',
  VI: 'U.S. Virgin Islands',
  VA: 'Vatican City',
  LA: 'Laos',
  SY: 'Syria',
  BN: 'Brunei',
  FK: 'Falkland Islands',
  MF: 'Saint Martin',
  SX: 'Sint Maarten',
  FM: 'Micronesia',
  MD: 'Moldova',
  RE: 'Réunion',
};

export interface Country {
  id: number;
  alpha2: string;
  text: string;
}
export interface State {
  id: number;
  country_id: number;
  text: string;
}
export interface County {
  state_id: number;
  fips: number;
  county: string;
  lat: number;
  lon: number;
}

export function countryRows(): Country[] {
  const rows: Country[] = [];
  for (const alpha2 of Object.keys(countries.getAlpha2Codes())) {
    if (alpha2 === 'XK') continue;
    const numeric = countries.alpha2ToNumeric(alpha2);
    const all = countries.getName(alpha2, 'en', { select: 'all' }) ?? [];
    const common = COMMON[alpha2];
    if (common !== undefined && !all.includes(common))
      throw new Error(`${alpha2}: "${common}" is not a name the package lists`);
    const text = RENAMED[alpha2] ?? common ?? all[0];
    if (!numeric || !text) throw new Error(`country ${alpha2}: no numeric code or name`);
    rows.push({ id: Number.parseInt(numeric, 10), alpha2, text });
  }
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * Stable subdivision id within a country (non-US):
 * - the region's code, with a leading "CC-" removed and upper-cased, when it
 *   is 1–3 letters/digits (the ISO 3166-2 suffix for nearly every country):
 *   id = parseInt(code, 36) — "CA" → 442, "08" → 8, "BDS" → 14932 (< 46656);
 * - regions the package gives no code: id = 100000 + FNV-1a-32(NFC name) mod 900000000.
 * Neither depends on list order, so ids survive regeneration and additions;
 * a collision within a country fails the script instead of renumbering.
 */
export function subdivisionId(code: string | undefined, name: string, alpha2: string): number {
  const suffix = (code ?? '').replace(new RegExp(`^${alpha2}-`), '').toUpperCase();
  if (/^[A-Z0-9]{1,3}$/.test(suffix)) return Number.parseInt(suffix, 36);
  if (suffix !== '') throw new Error(`${alpha2}: unexpected region code "${code}"`);
  return 100000 + (fnv1a32(name.normalize('NFC')) % 900000000);
}

interface CrdCountry {
  countryShortCode: string;
  regions: { name: string; shortCode?: string }[];
}

type UsTopology = Topology<{
  states: GeometryCollection<{ name: string }>;
  counties: GeometryCollection<{ name: string }>;
}>;

let topology: UsTopology | undefined;
function usAtlas(): UsTopology {
  topology ??= readJson('us-atlas/counties-10m.json') as UsTopology;
  return topology;
}

function features(object: 'states' | 'counties'): Feature<Geometry, { name: string }>[] {
  const t = usAtlas();
  return feature(t, t.objects[object]).features;
}

const US_STATE_TEXT: Record<number, string> = { 69: 'Northern Mariana Islands' }; // atlas: "Commonwealth of the …"

export function stateRows(countryList: readonly Country[]): State[] {
  const rows: State[] = [];
  for (const f of features('states')) {
    const id = Number.parseInt(String(f.id), 10);
    rows.push({ id, country_id: US, text: US_STATE_TEXT[id] ?? f.properties.name });
  }
  const byAlpha2 = new Map(countryList.map((c) => [c.alpha2, c.id]));
  for (const c of readJson('country-region-data/data.json') as CrdCountry[]) {
    const countryId = byAlpha2.get(c.countryShortCode);
    if (countryId === undefined || countryId === US) continue; // XK; the US comes from the atlas
    for (const r of c.regions) {
      const text = r.name.trim();
      if (text === '') throw new Error(`${c.countryShortCode}: region without a name`);
      rows.push({ id: subdivisionId(r.shortCode, text, c.countryShortCode), country_id: countryId, text });
    }
  }
  const seen = new Map<string, string>();
  for (const r of rows) {
    const key = `${r.country_id}/${r.id}`;
    const before = seen.get(key);
    if (before !== undefined) throw new Error(`state id collision ${key}: "${before}" and "${r.text}"`);
    seen.set(key, r.text);
  }
  return rows.sort((a, b) => a.country_id - b.country_id || a.id - b.id);
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * Centre = spherical area-weighted centroid (d3-geo geoCentroid) of the whole
 * county, islands included. For Los Angeles County the Channel Islands (Santa
 * Catalina, San Clemente: ~3% of the area) pull it ~4 km south of the mainland
 * centroid (34.3578, -118.2174) to 34.3203, -118.2251, still inland in the San
 * Gabriel Mountains north of the city; the atlas has no internal points, so
 * the true centroid is kept. Independent cities that share their name with a
 * county of the same state (Baltimore, St. Louis, Richmond VA, …; county
 * codes ≥ 500) get " (city)" appended so the two can be told apart.
 */
export function countyRows(): County[] {
  const fs = features('counties');
  const names = new Map<string, number>();
  for (const f of fs) {
    const key = `${String(f.id).slice(0, 2)}|${f.properties.name}`;
    names.set(key, (names.get(key) ?? 0) + 1);
  }
  const rows = fs.map((f): County => {
    const id = String(f.id);
    const fips = Number.parseInt(id, 10);
    const dup = (names.get(`${id.slice(0, 2)}|${f.properties.name}`) ?? 0) > 1;
    const [lon, lat] = geoCentroid(f);
    return {
      state_id: Math.floor(fips / 1000),
      fips,
      county: dup && fips % 1000 >= 500 ? `${f.properties.name} (city)` : f.properties.name,
      lat: round4(lat),
      lon: round4(lon),
    };
  });
  return rows.sort((a, b) => a.fips - b.fips);
}
