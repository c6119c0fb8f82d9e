// Term's tiers (docs/lists.md, Term search): which tier a folded query puts an
// item in, from its texts. The one definition of ranking: the client ranks
// records and whole lists' items with it (search.ts, answer.ts), and the
// builder ranks the keys of its index with it (src/search/keys.ts, match.ts),
// so a large prefix's stored answer is what the client would rank.
//
// Two rules. The phrase rule (the lookup service's, and a list's that asks for
// it) matches the Term as one phrase at a word start. The words rule (every
// other list's) matches an item when every word of the Term starts a word of
// it, in any order, ranking the phrase first; when no item matches so, the
// answer is the items that match with the fewest typos (typos.ts).
import { fold } from './fold.js';

/** The item's text, a searched column's value or a child's label is q itself (lists declared with `"exact": true`). */
export const EXACT = 0;
/** The item's text (or a child's label) starts with q. */
export const START = 1;
/** q starts a later word of the item's text (or of a child's label). */
export const WORD = 2;
/** Words rule: every word of q starts a word of the item's text (or of one child's label), not as the phrase. */
export const SCATTERED = 3;
/** q starts a word of a searched column's value. */
export const COLUMN = 4;
/** Words rule: every word of q starts a word of the item's text or of a searched column, only with a column's help. */
export const MIXED = 5;
/** No match. */
export const NONE = 6;
/** Best first: an answer lists tier 0, then 1 to 5, each in list order. The phrase rule has no tier 3 or 5. */
export type Tier =
  | typeof EXACT
  | typeof START
  | typeof WORD
  | typeof SCATTERED
  | typeof COLUMN
  | typeof MIXED
  | typeof NONE;
const TIERS = [EXACT, START, WORD, SCATTERED, COLUMN, MIXED] as const;

/**
 * Where a key of the index starts in its item: at the start of its text (or
 * of a child's label), at a later word of one, at the start of a searched
 * column's value, or at a later word of one. A query matches an item by the
 * keys it starts, and the best of those keys' tiers is the item's. Keys of the
 * phrase rule run to the text's end, so one at the text's start can be the
 * whole text; a key of the words rule is one word, so the first word of a
 * text of more words is AT_TEXT_FIRST, which is never exact (and the first
 * word of a column's value of more words is AT_COLUMN_WORD).
 */
export const AT_TEXT = 0;
export const AT_TEXT_WORD = 1;
export const AT_COLUMN = 2;
export const AT_COLUMN_WORD = 3;
export const AT_TEXT_FIRST = 4;
export type KeyAt =
  | typeof AT_TEXT
  | typeof AT_TEXT_WORD
  | typeof AT_COLUMN
  | typeof AT_COLUMN_WORD
  | typeof AT_TEXT_FIRST;

/** The tier a query gives the key it starts; `equal` when the query is the whole key. Only a whole text or value can be exact. */
export function keyTier(at: KeyAt, equal: boolean, exact: boolean): Tier {
  if (exact && equal && (at === AT_TEXT || at === AT_COLUMN)) return EXACT;
  return at === AT_TEXT || at === AT_TEXT_FIRST ? START : at === AT_TEXT_WORD ? WORD : COLUMN;
}

/**
 * The best phrase tier of a folded text (a column's value when `column`) for
 * a folded, non-empty query: that of the best key it starts, the whole text
 * before any later word.
 */
export function textTier(text: string, q: string, exact: boolean, column = false): Tier {
  if (text.startsWith(q)) return keyTier(column ? AT_COLUMN : AT_TEXT, text.length === q.length, exact);
  return text.includes(' ' + q) ? keyTier(column ? AT_COLUMN_WORD : AT_TEXT_WORD, false, exact) : NONE;
}

/** The words of a folded text. */
export const wordsOf = (folded: string): string[] => (folded === '' ? [] : folded.split(' '));

/** Whether every word of `words` starts a word of `pool` (folded words). */
export function startsWords(words: readonly string[], pool: readonly string[]): boolean {
  return words.every((w) => pool.some((p) => p.startsWith(w)));
}

/** What a Term searches in an item, as the item has them: its text, its children's labels, its searched columns' values. */
export interface ItemTexts {
  text: string;
  children?: readonly string[];
  columns?: readonly unknown[];
}

/** An item's texts folded once: a client ranks many against one query, and a typo answer asks them again. */
export interface FoldedTexts {
  text: string;
  children: readonly string[];
  columns: readonly string[];
}

export function foldTexts(item: ItemTexts): FoldedTexts {
  return {
    text: fold(item.text),
    children: (item.children ?? []).map(fold),
    columns: (item.columns ?? []).map((v) => fold(String(v ?? ''))),
  };
}

/** The tier of one text of the words rule (the item's own, or a child's label) alone: phrase tiers, then scattered. */
function wordsTextTier(text: string, q: string, words: readonly string[], exact: boolean): Tier {
  const t = textTier(text, q, exact);
  return t !== NONE ? t : startsWords(words, wordsOf(text)) ? SCATTERED : NONE;
}

/**
 * An item's tier for a folded, non-empty query, and which of its children
 * the query keeps (all of them when the item's own texts match, else those
 * that match; undefined for an item without children). `words`: the words
 * rule, else the phrase rule.
 */
export function rankTexts(
  f: FoldedTexts,
  q: string,
  exact: boolean,
  words: boolean,
): { tier: Tier; children: readonly number[] | undefined } {
  const ws = words ? wordsOf(q) : undefined;
  let own: Tier = ws ? wordsTextTier(f.text, q, ws, exact) : textTier(f.text, q, exact);
  for (const value of f.columns) {
    if (own === EXACT || (own === START && !exact)) break;
    const c = textTier(value, q, exact, true);
    if (c < own) own = c;
  }
  if (
    ws &&
    own === NONE &&
    f.columns.length > 0 &&
    startsWords(ws, [...wordsOf(f.text), ...f.columns.flatMap(wordsOf)])
  )
    own = MIXED;
  if (f.children.length === 0) return { tier: own, children: undefined };
  const tiers = f.children.map((child) => (ws ? wordsTextTier(child, q, ws, exact) : textTier(child, q, exact)));
  const kept = tiers.flatMap((t, i) => (own !== NONE || t !== NONE ? [i] : []));
  let tier = own;
  for (const t of tiers) if (t < tier) tier = t;
  return { tier, children: own !== NONE ? tiers.map((_, i) => i) : kept };
}

/** An item's tier for a folded, non-empty query: that of rankTexts. */
export function itemTier(item: ItemTexts, q: string, exact: boolean, words = false): Tier {
  return rankTexts(foldTexts(item), q, exact, words).tier;
}

/** Items in the order of their tiers (NONE left out), list order kept within a tier. */
export function byTier<T>(items: readonly T[], tiers: readonly Tier[]): T[] {
  return TIERS.flatMap((t) => items.filter((_, i) => tiers[i] === t));
}
