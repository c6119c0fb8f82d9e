// Stage 2, validate: raw tables → typed rows → the model, checking every rule
// of SPEC §5 and collecting every error with its file and line.
import { ReflistError, suggest } from './errors.js';
import { fold } from './client/fold.js';
import { labelled, sortCounties, sortLabels, type CountryNode, type Entry, type Model } from './model.js';
import type { RawTable } from './read.js';

type Kind = 'id' | 'text' | 'lat' | 'lon' | 'system';

export const SCHEMAS = {
  author: { id: 'id', text: 'text' },
  country: { id: 'id', text: 'text' },
  state: { id: 'id', country_id: 'id', text: 'text' },
  county: { country_id: 'id', state_id: 'id', FIPS: 'id', county: 'text', latitudeCenter: 'lat', LongitudeCenter: 'lon' },
  division: { id: 'id', text: 'text' },
  category: { id: 'id', division_id: 'id', text: 'text' },
  descriptor: { id: 'id', text: 'text' },
  system: { id: 'system', text: 'text' },
  author_count: { system: 'system', id: 'id', count: 'id' },
  division_count: { system: 'system', id: 'id', count: 'id' },
} as const satisfies Record<string, Record<string, Kind>>;

export type SourceName = keyof typeof SCHEMAS;
export const SOURCES = Object.keys(SCHEMAS) as SourceName[];
type Row<S extends SourceName> = {
  [C in keyof (typeof SCHEMAS)[S]]: (typeof SCHEMAS)[S][C] extends 'text' | 'system' ? string : number;
} & { line: number };

const MAX_ID = Number.MAX_SAFE_INTEGER;

/** Shared by every entry without counts: most have none, and an array each costs more than its entry. */
const NO_COUNTS: number[] = Object.freeze([]) as unknown as number[];

function parseValue(kind: Kind, value: string): string | number | { error: string } {
  switch (kind) {
    case 'text':
      return value.trim() === '' ? { error: 'empty text' } : value;
    case 'system':
      return /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : { error: 'expected 1 to 64 of A-Z a-z 0-9 _ -' };
    case 'id': {
      if (!/^\d+$/.test(value)) return { error: 'expected a non-negative integer' };
      const n = Number(value);
      return n <= MAX_ID ? n : { error: `too large (at most ${MAX_ID})` };
    }
    case 'lat':
    case 'lon': {
      const n = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim()) ? Number(value) : NaN;
      const limit = kind === 'lat' ? 90 : 180;
      if (Number.isNaN(n)) return { error: 'expected a decimal number' };
      return Math.abs(n) <= limit ? n : { error: `outside ±${limit}` };
    }
  }
}

/** Typed rows of one source; every bad value is reported. */
function typeRows<S extends SourceName>(name: S, table: RawTable | undefined, errors: ReflistError[]): Row<S>[] {
  if (!table) return [];
  const file = table.file;
  const schema = SCHEMAS[name] as Record<string, Kind>;
  const columns = Object.keys(schema);
  const positions = new Map<string, number>();
  table.header.forEach((h, i) => {
    const column = columns.find((c) => c.toLowerCase() === h.toLowerCase());
    const fail = (message: string) => errors.push(new ReflistError('UNKNOWN_COLUMN', message, { file, line: 1 }));
    if (column === undefined) {
      const hint = suggest(h, columns);
      fail(`unknown column "${h}"${hint ? ` (did you mean "${hint}"?)` : ''}; expected ${columns.join(', ')}`);
    } else if (positions.has(column)) fail(`column "${column}" appears twice`);
    else positions.set(column, i);
  });
  const missing = columns.filter((c) => !positions.has(c));
  if (missing.length > 0) {
    const message = `missing column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `"${c}"`).join(', ')}`;
    errors.push(new ReflistError('MISSING_COLUMN', message, { file, line: 1 }));
    return [];
  }
  const rows: Row<S>[] = [];
  for (const [i, values] of table.rows.entries()) {
    const line = table.lines[i]!;
    if (values.length !== table.header.length) {
      const message = `expected ${table.header.length} fields, got ${values.length}`;
      errors.push(new ReflistError('CSV_MALFORMED', message, { file, line }));
      continue;
    }
    const row: Record<string, unknown> = { line };
    let good = true;
    for (const column of columns) {
      const raw = values[positions.get(column)!]!;
      const value = parseValue(schema[column]!, raw);
      if (typeof value === 'object') {
        const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
        errors.push(new ReflistError('INVALID_VALUE', `${column}: ${value.error}, got "${shown}"`, { file, line }));
        // A row with a bad key is dropped; one with a bad label or position keeps
        // its key, so rows that refer to it do not report it as unknown too.
        if (schema[column] === 'id' || schema[column] === 'system') good = false;
        row[column] = raw;
      } else row[column] = value;
    }
    if (good) rows.push(row as Row<S>);
  }
  return rows;
}

/** Keeps the first row of each key; later ones are duplicate-key errors. */
function unique<T extends { line: number }, K extends string | number>(
  rows: T[],
  file: string,
  key: (row: T) => K,
  describe: (row: T) => string,
  errors: ReflistError[],
): Map<K, T> {
  const seen = new Map<K, T>();
  for (const row of rows) {
    const k = key(row);
    const first = seen.get(k);
    if (first) {
      const message = `duplicate ${describe(row)} (first on line ${first.line})`;
      errors.push(new ReflistError('DUPLICATE_KEY', message, { file, line: row.line }));
    } else seen.set(k, row);
  }
  return seen;
}

export function validate(tables: Partial<Record<SourceName, RawTable>>): { model: Model; errors: ReflistError[] } {
  const errors: ReflistError[] = [];
  const file = (name: SourceName) => tables[name]?.file ?? `${name}.csv`;
  const rows = <S extends SourceName>(name: S) => typeRows(name, tables[name], errors);
  const byId = <S extends 'author' | 'country' | 'division' | 'category' | 'descriptor'>(name: S) =>
    unique(rows(name), file(name), (r) => r.id, (r) => `id ${r.id}`, errors);
  const missing = (name: SourceName, line: number, what: string) =>
    errors.push(new ReflistError('UNKNOWN_REFERENCE', `unknown ${what}`, { file: file(name), line }));

  const systems = unique(rows('system'), file('system'), (r) => r.id, (r) => `system id "${r.id}"`, errors);
  const folded = unique([...systems.values()], file('system'), (r) => r.id.toLowerCase(),
    (r) => `system id "${r.id}" (it differs only by case from another, which collides on case-insensitive hosts)`,
    errors);
  const systemIds = [...folded.values()].map((s) => s.id).sort();
  const systemIndex = new Map(systemIds.map((id, i) => [id, i]));

  const countries = byId('country');
  const states = unique(rows('state'), file('state'), (r) => `${r.country_id}/${r.id}`,
    (r) => `state ${r.id} of country ${r.country_id}`, errors);
  for (const s of states.values()) if (!countries.has(s.country_id)) missing('state', s.line, `country_id ${s.country_id}`);
  const counties = unique(rows('county'), file('county'), (r) => `${r.country_id}/${r.state_id}/${r.FIPS}`,
    (r) => `county FIPS ${r.FIPS} in state ${r.state_id} of country ${r.country_id}`, errors);
  for (const c of counties.values()) {
    if (!states.has(`${c.country_id}/${c.state_id}`)) {
      missing('county', c.line, `state_id ${c.state_id} in country_id ${c.country_id}`);
    }
  }

  const entries = (name: 'author' | 'division' | 'descriptor') => {
    const list = new Map<number, Entry>();
    for (const [k, r] of byId(name)) list.set(k, { id: r.id, text: r.text, key: fold(r.text), counts: NO_COUNTS });
    return list;
  };
  const author = entries('author');
  const division = entries('division');
  const descriptor = entries('descriptor');
  for (const c of byId('category').values()) {
    const parent = division.get(c.division_id);
    if (!parent) missing('category', c.line, `division_id ${c.division_id}`);
    else (parent.children ??= []).push(labelled({ id: c.id, text: c.text }));
  }
  for (const [name, list] of [['author_count', author], ['division_count', division]] as const) {
    const counted = unique(rows(name), file(name), (r) => `${r.system}/${r.id}`,
      (r) => `count of system "${r.system}" for id ${r.id}`, errors);
    for (const r of counted.values()) {
      const s = systemIndex.get(r.system);
      const entry = list.get(r.id);
      if (s === undefined) missing(name, r.line, `system "${r.system}"`);
      if (!entry) missing(name, r.line, `${name.replace('_count', '')} id ${r.id}`);
      if (s !== undefined && entry) {
        if (entry.counts === NO_COUNTS) entry.counts = systemIds.map(() => 0);
        entry.counts[s] = r.count;
      }
    }
  }

  const countryNodes = new Map<number, CountryNode>(
    [...countries].map(([k, c]) => [k, { ...labelled({ id: c.id, text: c.text }), states: [] }]),
  );
  const stateNodes = new Map(
    [...states.values()].map((s) => [`${s.country_id}/${s.id}`, { ...labelled({ id: s.id, text: s.text }), counties: [] as Model['countries'][number]['states'][number]['counties'] }]),
  );
  for (const [k, s] of stateNodes) countryNodes.get(Number(k.split('/')[0]))?.states.push(s);
  for (const c of counties.values()) {
    const { FIPS, county, latitudeCenter, LongitudeCenter } = c;
    stateNodes.get(`${c.country_id}/${c.state_id}`)?.counties.push({ FIPS, county, latitudeCenter, LongitudeCenter });
  }

  const finish = (list: Map<number, Entry>, withChildren = false) => {
    const sorted = sortLabels([...list.values()]);
    if (withChildren) for (const e of sorted) e.children = sortLabels(e.children ?? []);
    return sorted;
  };
  const model: Model = {
    systems: systemIds.map((id) => ({ id, text: folded.get(id.toLowerCase())!.text })),
    author: finish(author),
    division: finish(division, true),
    descriptor: finish(descriptor),
    countries: sortLabels(
      [...countryNodes.values()].map((c) => ({
        ...c,
        states: sortLabels(c.states.map((s) => ({ ...s, counties: sortCounties(s.counties) }))),
      })),
    ),
  };
  return { model, errors };
}
