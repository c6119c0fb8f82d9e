// Term semantics (docs/contract.md §2) over stored records: which records match a folded
// query, in which tier, and what each answers as an item. The builder ranks
// its large prefixes with the same functions, so both sides agree by construction.
import { fold, tierOf } from './fold.js';
import type { ApiList, EntryRecord } from './types.js';

/**
 * The tier of a record for folded query q (0: no match). A list's children
 * count: a parent is kept for its own match or any child's match. A match
 * on nothing but the fields the list also searches (`also`) is tier 3.
 */
export function rankRecord(record: EntryRecord, q: string, also?: readonly number[]): Tier {
  let best: Tier = tierOf(fold(record[1]), q);
  const children = record[3];
  if (best === 1) return best;
  for (const [, text] of children ?? []) {
    const t = tierOf(fold(text), q);
    if (t !== 0 && (best === 0 || t < best)) best = t;
    if (best === 1) break;
  }
  return best === 0 && also && alsoMatches(also.map((i) => record[4]![i]), q) ? 3 : best;
}

export type Tier = 0 | 1 | 2 | 3;

/** Whether q starts at a word start of one of the texts a list also searches (tier 3, docs/lists.md). */
export function alsoMatches(texts: readonly unknown[], q: string): boolean {
  return texts.some((text) => tierOf(fold(String(text)), q) !== 0);
}

/** Items in the order of their tiers (0 left out), list order kept within a tier. */
export function byTier<T>(items: readonly T[], tiers: readonly Tier[]): T[] {
  return [1, 2, 3].flatMap((t) => items.filter((_, i) => tiers[i] === t));
}

/** Records that match q, best tier first, list order kept within a tier. */
export function rankRecords(records: readonly EntryRecord[], q: string, also?: readonly number[]): EntryRecord[] {
  return byTier(records, records.map((record) => rankRecord(record, q, also)));
}

/**
 * The item a record answers, its keys in the list's order. `q` filters the
 * children (all of them when the parent itself matches, or when there is no
 * query); `group` is the index into manifest.systems whose count the item carries.
 */
export function toItem(record: EntryRecord, q: string, group: number | undefined, list: ApiList): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const [key, value] of list.keys) item[key] = value === 'id' ? record[0] : value === 'label' ? record[1] : record[4]![value];
  if (group !== undefined) item['count'] = (record[2] ?? [])[group] ?? 0;
  if (list.children) {
    const keepAll = q === '' || tierOf(fold(record[1]), q) !== 0;
    const { key, keys } = list.children;
    item[key] = (record[3] ?? [])
      .filter(([, text]) => keepAll || tierOf(fold(text), q) !== 0)
      .map((child) => Object.fromEntries(keys.map(([k, value]) => [k, value === 'id' ? child[0] : child[1]])));
  }
  return item;
}
