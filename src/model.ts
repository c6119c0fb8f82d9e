// The validated sources, sorted in list order (docs/contract.md §2): what every later
// stage renders from. Nothing here touches the disk.
import { compareLabels, compareStrings, fold } from './client/fold.js';

export interface Labelled {
  id: number;
  text: string;
  /** fold(text), computed once. */
  key: string;
}

/** An item of a paged list as the sources give it; counts[i] belongs to systems[i]. */
export interface ListItem {
  id: number;
  text: string;
  counts: number[];
  /** division only, in list order */
  children?: Labelled[];
}

/** An item with its folded label, in a list sorted by sortEntries. */
export interface Entry extends ListItem, Labelled {}

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

export function labelled<T extends { id: number; text: string }>(row: T): T & { key: string } {
  return { ...row, key: fold(row.text) };
}

/** Sorts in list order, in place (docs/contract.md §2). */
export function sortLabels<T extends Labelled>(items: T[]): T[] {
  return items.sort(compareLabels);
}

/** A list's items folded and sorted in list order. */
export function sortEntries(items: ListItem[]): Entry[] {
  return sortLabels(items.map((item) => (((item as Entry).key = fold(item.text)), item as Entry)));
}

export function sortCounties(rows: CountyRow[]): CountyRow[] {
  const keyed = rows.map((row) => ({ row, key: fold(row.county) }));
  keyed.sort(
    (a, b) => compareStrings(a.key, b.key) || compareStrings(a.row.county, b.row.county) || a.row.FIPS - b.row.FIPS,
  );
  return keyed.map((k) => k.row);
}
