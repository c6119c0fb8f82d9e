// Term semantics (docs/contract.md §2) over stored records: which records match a folded
// query, in which tier, and what each answers as an item. The builder ranks
// its large prefixes with the same functions, so both sides agree by construction.
import { fold, tierOf } from './fold.js';
import type { EntryRecord } from './types.js';

export interface Ranked {
  record: EntryRecord;
  tier: 1 | 2;
}

/**
 * The tier of a record for folded query q (0: no match). For a division the
 * children count: a parent is kept for its own match or any child's match.
 */
export function rankRecord(record: EntryRecord, q: string): 0 | 1 | 2 {
  let best = tierOf(fold(record[1]), q);
  const children = record[3];
  if (best === 1 || !children) return best;
  for (const [, text] of children) {
    const t = tierOf(fold(text), q);
    if (t !== 0 && (best === 0 || t < best)) best = t;
    if (best === 1) break;
  }
  return best;
}

/** Records that match q, best tier first, list order kept within a tier. */
export function rankRecords(records: readonly EntryRecord[], q: string): EntryRecord[] {
  const first: EntryRecord[] = [];
  const second: EntryRecord[] = [];
  for (const record of records) {
    const tier = rankRecord(record, q);
    if (tier === 1) first.push(record);
    else if (tier === 2) second.push(record);
  }
  return first.concat(second);
}

/**
 * The item a record answers. `q` filters a division's children (all of them
 * when the parent itself matches, or when there is no query); `system` is the
 * index into manifest.systems whose count the item carries.
 */
export function toItem(record: EntryRecord, q: string, system: number | undefined): Record<string, unknown> {
  const item: Record<string, unknown> = { id: record[0], text: record[1] };
  if (system !== undefined) item['count'] = (record[2] ?? [])[system] ?? 0;
  if (record.length === 4) {
    const keepAll = q === '' || tierOf(fold(record[1]), q) !== 0;
    item['children'] = record[3]
      .filter(([, text]) => keepAll || tierOf(fold(text), q) !== 0)
      .map(([id, text]) => ({ id, text }));
  }
  return item;
}
