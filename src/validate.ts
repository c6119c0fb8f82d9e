// Stage 2, validate: raw tables → typed rows → the model, checking every rule
// of docs/contract.md §5 and collecting every error with its file and line.
import { ReflistError, suggest } from './errors.js';
import type { PagedList } from './client/types.js';
import { labelled, sortCounties, sortLabels, type CountryNode, type ListItem } from './model.js';
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
export function typeRows<S extends SourceName>(name: S, table: RawTable | undefined, errors: ReflistError[]): Row<S>[] {
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

/** The sources each part of the tree is made from: a part whose sources are unchanged is kept as it is. */
export const SECTION_SOURCES = {
  locations: ['country', 'state', 'county'],
  author: ['author', 'author_count', 'system'],
  division: ['division', 'category', 'division_count', 'system'],
  descriptor: ['descriptor'],
} as const satisfies Record<string, readonly SourceName[]>;

export type Tables = Partial<Record<SourceName, RawTable>>;

/** Checks one section's sources, pushing every error found. */
export class Checker {
  constructor(
    readonly tables: Tables,
    readonly errors: ReflistError[] = [],
  ) {}

  file(name: SourceName): string {
    return this.tables[name]?.file ?? `${name}.csv`;
  }

  rows<S extends SourceName>(name: S): Row<S>[] {
    return typeRows(name, this.tables[name], this.errors);
  }

  unique<S extends SourceName, K extends string | number>(name: S, key: (row: Row<S>) => K, describe: (row: Row<S>) => string): Map<K, Row<S>> {
    return unique(this.rows(name), this.file(name), key, describe, this.errors);
  }

  byId<S extends 'author' | 'country' | 'division' | 'category' | 'descriptor'>(name: S): Map<number, Row<S>> {
    return this.unique(name, (r) => r.id as number, (r) => `id ${r.id}`);
  }

  missing(name: SourceName, line: number, what: string): void {
    this.errors.push(new ReflistError('UNKNOWN_REFERENCE', `unknown ${what}`, { file: this.file(name), line }));
  }
}

export interface Systems {
  /** Sorted ids: counts[i] belongs to ids[i]. */
  ids: string[];
  list: { id: string; text: string }[];
}

export function validateSystems(check: Checker): Systems {
  const systems = check.unique('system', (r) => r.id, (r) => `system id "${r.id}"`);
  const folded = unique([...systems.values()], check.file('system'), (r) => r.id.toLowerCase(),
    (r) => `system id "${r.id}" (it differs only by case from another, which collides on case-insensitive hosts)`,
    check.errors);
  const ids = [...folded.values()].map((s) => s.id).sort();
  return { ids, list: ids.map((id) => ({ id, text: folded.get(id.toLowerCase())!.text })) };
}

export function validateLocations(check: Checker): CountryNode[] {
  const countries = check.byId('country');
  const states = check.unique('state', (r) => `${r.country_id}/${r.id}`, (r) => `state ${r.id} of country ${r.country_id}`);
  for (const s of states.values()) if (!countries.has(s.country_id)) check.missing('state', s.line, `country_id ${s.country_id}`);
  const counties = check.unique('county', (r) => `${r.country_id}/${r.state_id}/${r.FIPS}`,
    (r) => `county FIPS ${r.FIPS} in state ${r.state_id} of country ${r.country_id}`);
  for (const c of counties.values()) {
    if (!states.has(`${c.country_id}/${c.state_id}`)) {
      check.missing('county', c.line, `state_id ${c.state_id} in country_id ${c.country_id}`);
    }
  }
  const countryNodes = new Map<number, CountryNode>(
    [...countries].map(([k, c]) => [k, { ...labelled({ id: c.id, text: c.text }), states: [] }]),
  );
  const stateNodes = new Map(
    [...states.values()].map((s) => [`${s.country_id}/${s.id}`, { ...labelled({ id: s.id, text: s.text }), counties: [] as CountryNode['states'][number]['counties'] }]),
  );
  for (const [k, s] of stateNodes) countryNodes.get(Number(k.split('/')[0]))?.states.push(s);
  for (const c of counties.values()) {
    const { FIPS, county, latitudeCenter, LongitudeCenter } = c;
    stateNodes.get(`${c.country_id}/${c.state_id}`)?.counties.push({ FIPS, county, latitudeCenter, LongitudeCenter });
  }
  return sortLabels(
    [...countryNodes.values()].map((c) => ({
      ...c,
      states: sortLabels(c.states.map((s) => ({ ...s, counties: sortCounties(s.counties) }))),
    })),
  );
}

/** A paged list's items in source order, unsorted (sortEntries orders them), with their counts. */
export function validateList(list: PagedList, check: Checker, systems: Systems): ListItem[] {
  const items = new Map<number, ListItem>();
  for (const [k, r] of check.byId(list)) items.set(k, { id: r.id, text: r.text, counts: NO_COUNTS });
  if (list === 'division') {
    for (const c of check.byId('category').values()) {
      const parent = items.get(c.division_id);
      if (!parent) check.missing('category', c.line, `division_id ${c.division_id}`);
      else (parent.children ??= []).push(labelled({ id: c.id, text: c.text }));
    }
    for (const item of items.values()) item.children = sortLabels(item.children ?? []);
  }
  if (list !== 'descriptor') {
    const name = `${list}_count` as const;
    const systemIndex = new Map(systems.ids.map((id, i) => [id, i]));
    const counted = check.unique(name, (r) => `${r.system}/${r.id}`, (r) => `count of system "${r.system}" for id ${r.id}`);
    for (const r of counted.values()) {
      const s = systemIndex.get(r.system);
      const item = items.get(r.id);
      if (s === undefined) check.missing(name, r.line, `system "${r.system}"`);
      if (!item) check.missing(name, r.line, `${list} id ${r.id}`);
      if (s !== undefined && item) {
        if (item.counts === NO_COUNTS) item.counts = systems.ids.map(() => 0);
        item.counts[s] = r.count;
      }
    }
  }
  return [...items.values()];
}
