// Term semantics (docs/lists.md, Term search) over stored records: which
// records match a folded query, in which tier (rank.ts, which the builder
// ranks its large prefixes with too), and what each answers as an item.
import { fold } from './fold.js';
import { byTier, itemTier, NONE, textTier, type Tier } from './rank.js';
import type { ApiList, EntryRecord } from './types.js';

/**
 * The text a list's Term matches in tiers 1 and 2: the label, or the
 * declared search text made from the item's fields (`field(i)`: the field at
 * index i of the list's fields), each written as the item has it (an
 * optional field's null as nothing).
 */
export function textOf(list: Pick<ApiList, 'text'>, label: string, field: (i: number) => unknown): string {
  return list.text
    ? list.text.map((part) => (typeof part === 'number' ? String(field(part) ?? '') : part)).join('')
    : label;
}

/**
 * The tier of a record for folded query q (NONE: no match): its text's, its
 * children's labels' (a parent is kept for its own match or any child's) and
 * the searched fields' (tier 3, or 0 when exact).
 */
export function rankRecord(record: EntryRecord, q: string, list: ApiList): Tier {
  const fields = record[4];
  const field = (i: number) => fields![i];
  return itemTier(
    {
      text: textOf(list, record[1], field),
      ...(record[3] ? { children: record[3].map((child) => child[1]) } : {}),
      ...(list.search ? { columns: list.search.map(field) } : {}),
    },
    q,
    list.exact === true,
  );
}

/** Records that match q, best tier first, list order kept within a tier. */
export function rankRecords(records: readonly EntryRecord[], q: string, list: ApiList): EntryRecord[] {
  return byTier(
    records,
    records.map((record) => rankRecord(record, q, list)),
  );
}

/**
 * The item a record answers, its keys in the list's order. `q` filters the
 * children (all of them when the parent itself matches, or when there is no
 * query) by the phrase rule, unless `kept` says which the answer keeps;
 * `group` is the index into manifest.systems whose count the item carries.
 */
export function toItem(
  record: EntryRecord,
  q: string,
  group: number | undefined,
  list: ApiList,
  kept?: readonly number[],
): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const [key, value] of list.keys)
    item[key] = value === 'id' ? record[0] : value === 'label' ? record[1] : record[4]![value];
  if (group !== undefined) item['count'] = (record[2] ?? [])[group] ?? 0;
  if (list.children) {
    const matches = (text: string) => textTier(fold(text), q, false) !== NONE;
    const keepAll = q === '' || matches(record[1]);
    const { key, keys } = list.children;
    item[key] = (record[3] ?? [])
      .filter(([, text], i) => (kept ? kept.includes(i) : keepAll || matches(text)))
      .map((child) => Object.fromEntries(keys.map(([k, value]) => [k, value === 'id' ? child[0] : child[1]])));
  }
  return item;
}
