// Term's tiers (docs/lists.md, Term search): which tier a folded query puts an
// item in, from its texts. The one definition of ranking: the client ranks
// records and whole lists' items with it (search.ts, answer.ts), and the
// builder ranks the keys of its index with it (src/search/keys.ts, match.ts),
// so a large prefix's stored answer is what the client would rank.
import { fold } from './fold.js';

/** The item's text, a searched column's value or a child's label is q itself (lists declared with `"exact": true`). */
export const EXACT = 0;
/** The item's text (or a child's label) starts with q. */
export const START = 1;
/** q starts a later word of the item's text (or of a child's label). */
export const WORD = 2;
/** q starts a word of a searched column's value. */
export const COLUMN = 3;
/** No match. */
export const NONE = 4;
/** Best first: an answer lists tier 0, then 1, 2 and 3, each in list order. */
export type Tier = typeof EXACT | typeof START | typeof WORD | typeof COLUMN | typeof NONE;

/**
 * Where a key of the index starts in its item: at the start of its text (or
 * of a child's label), at a later word of one, at the start of a searched
 * column's value, or at a later word of one. A query matches an item by the
 * keys it starts, and the best of those keys' tiers is the item's.
 */
export const AT_TEXT = 0;
export const AT_TEXT_WORD = 1;
export const AT_COLUMN = 2;
export const AT_COLUMN_WORD = 3;
export type KeyAt = typeof AT_TEXT | typeof AT_TEXT_WORD | typeof AT_COLUMN | typeof AT_COLUMN_WORD;

/** The tier a query gives the key it starts; `equal` when the query is the whole key. Only a whole text or value can be exact. */
export function keyTier(at: KeyAt, equal: boolean, exact: boolean): Tier {
  if (exact && equal && (at === AT_TEXT || at === AT_COLUMN)) return EXACT;
  return at === AT_TEXT ? START : at === AT_TEXT_WORD ? WORD : COLUMN;
}

/**
 * The best tier of a folded text (a column's value when `column`) for a
 * folded, non-empty query: that of the best key it starts, the whole text
 * before any later word.
 */
export function textTier(text: string, q: string, exact: boolean, column = false): Tier {
  if (text.startsWith(q)) return keyTier(column ? AT_COLUMN : AT_TEXT, text.length === q.length, exact);
  return text.includes(' ' + q) ? keyTier(column ? AT_COLUMN_WORD : AT_TEXT_WORD, false, exact) : NONE;
}

/** What a Term searches in an item, as the item has them: its text, its children's labels, its searched columns' values. */
export interface ItemTexts {
  text: string;
  children?: readonly string[];
  columns?: readonly unknown[];
}

/**
 * An item's tier for a folded, non-empty query: the best that its text, a
 * child's label or a searched column gives. Each is folded only while a
 * better tier is still possible.
 */
export function itemTier(item: ItemTexts, q: string, exact: boolean): Tier {
  const top = exact ? EXACT : START;
  let best = textTier(fold(item.text), q, exact);
  for (const child of item.children ?? []) {
    if (best === top) return best;
    best = Math.min(best, textTier(fold(child), q, exact)) as Tier;
  }
  for (const value of item.columns ?? []) {
    if (best === top) return best;
    best = Math.min(best, textTier(fold(String(value)), q, exact, true)) as Tier;
  }
  return best;
}

/** Items in the order of their tiers (NONE left out), list order kept within a tier. */
export function byTier<T>(items: readonly T[], tiers: readonly Tier[]): T[] {
  return [EXACT, START, WORD, COLUMN].flatMap((t) => items.filter((_, i) => tiers[i] === t));
}
