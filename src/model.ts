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

/**
 * Sorts in list order, in place. The distinct keys go through the engine's
 * own string sort, far faster than a comparator at a million items; only
 * items that share a key are compared further.
 */
export function sortLabels<T extends Labelled>(items: T[]): T[] {
  if (items.length < 1000) return items.sort(compareLabels);
  const groups = new Map<string, T | T[]>();
  for (const item of items) {
    const group = groups.get(item.key);
    if (group === undefined) groups.set(item.key, item);
    else if (Array.isArray(group)) group.push(item);
    else groups.set(item.key, [group, item]);
  }
  let i = 0;
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!;
    if (Array.isArray(group)) for (const item of group.sort(compareLabels)) items[i++] = item;
    else items[i++] = group;
  }
  return items;
}

/**
 * fold() of many labels, word by word with a cache: labels share their
 * words (given names, family names), and fold() of a label is the fold() of
 * its space-separated words, the empty ones left out (a space is one of the
 * separators fold turns into one space, and no step of fold looks across it).
 */
export function createFolder(): (label: string) => string {
  const words = new Map<string, string>();
  const word = (w: string) => {
    let folded = words.get(w);
    if (folded === undefined) words.set(w, (folded = fold(w)));
    return folded;
  };
  return (label) => {
    if (label.indexOf(' ') < 0) return word(label);
    let key = '';
    for (const w of label.split(' ')) {
      const folded = word(w);
      if (folded !== '') key = key === '' ? folded : `${key} ${folded}`;
    }
    return key;
  };
}

/** A list's items folded and sorted in list order. */
export function sortEntries(items: ListItem[]): Entry[] {
  const folder = createFolder();
  return sortLabels(items.map((item) => (((item as Entry).key = folder(item.text)), item as Entry)));
}

export function sortCounties(rows: CountyRow[]): CountyRow[] {
  const keyed = rows.map((row) => ({ row, key: fold(row.county) }));
  keyed.sort(
    (a, b) => compareStrings(a.key, b.key) || compareStrings(a.row.county, b.row.county) || a.row.FIPS - b.row.FIPS,
  );
  return keyed.map((k) => k.row);
}
