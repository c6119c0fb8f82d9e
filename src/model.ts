// The validated sources, sorted in list order (SPEC §2): what every later
// stage renders from. Nothing here touches the disk.
import { compareLabels, compareStrings, fold } from './client/fold.js';

export interface Labelled {
  id: number;
  text: string;
  /** fold(text), computed once. */
  key: string;
}

/** An entry of a paged list; counts[i] belongs to systems[i]. */
export interface Entry extends Labelled {
  counts: number[];
  /** division only, in list order */
  children?: Labelled[];
}

export interface CountyRow {
  FIPS: number;
  county: string;
  latitudeCenter: number;
  LongitudeCenter: number;
}

export interface StateNode extends Labelled {
  counties: CountyRow[];
}

export interface CountryNode extends Labelled {
  states: StateNode[];
}

export interface Model {
  systems: { id: string; text: string }[];
  author: Entry[];
  division: Entry[];
  descriptor: Entry[];
  countries: CountryNode[];
}

export function labelled<T extends { id: number; text: string }>(row: T): T & { key: string } {
  return { ...row, key: fold(row.text) };
}

export function sortLabels<T extends Labelled>(items: T[]): T[] {
  return items.sort(compareLabels);
}

export function sortCounties(rows: CountyRow[]): CountyRow[] {
  const keyed = rows.map((row) => ({ row, key: fold(row.county) }));
  keyed.sort(
    (a, b) => compareStrings(a.key, b.key) || compareStrings(a.row.county, b.row.county) || a.row.FIPS - b.row.FIPS,
  );
  return keyed.map((k) => k.row);
}
