// A typo forgiven (docs/lists.md, Term search: typos): when no item matches a
// Term's words as typed, the answer of a list of the words rule is the items
// that match with the fewest typos. Shared by the client, the hosts (through
// it) and the highlighting; the builder stores nothing typo-specific but the
// words its index already has.
import { wordsOf, type FoldedTexts } from './rank.js';

/**
 * How many typos a folded Term word may have: none below 5 letters, 1 from 5,
 * 2 from 9 (Meilisearch's defaults), counted in code points; none in a word
 * with a digit, which is a code or a number, not something mistyped.
 */
export function typoAllowance(word: string): number {
  if (/\p{N}/u.test(word)) return 0;
  const n = [...word].length;
  return n >= 9 ? 2 : n >= 5 ? 1 : 0;
}

/**
 * The typos that make folded Term word `t` start item word `w`: the fewest
 * letters inserted, deleted or substituted, or pairs of adjacent letters
 * swapped, that turn `t` into a prefix of `w` (optimal string alignment),
 * the first letter never being one of them; 0 when `w` starts with `t`.
 * Infinity when more than `max` are needed.
 */
export function typoCost(t: string, w: string, max: number): number {
  if (w.startsWith(t)) return 0;
  if (max === 0) return Infinity;
  const a = [...t];
  const b = [...w];
  if (a[0] !== b[0]) return Infinity;
  const n = a.length;
  // b's prefixes longer than t by more than max need more than max insertions.
  const m = Math.min(b.length, n + max);
  // Rows of the distance between a[1..i] and b[1..j]: two rows back for a swap.
  let back = new Array<number>(m).fill(Infinity);
  let prev = Array.from({ length: m }, (_, j) => j);
  for (let i = 1; i < n; i++) {
    const row = new Array<number>(m);
    row[0] = i;
    let low = row[0];
    for (let j = 1; j < m; j++) {
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i] === b[j] ? 0 : 1));
      if (i > 1 && j > 1 && a[i] === b[j - 1] && a[i - 1] === b[j]) d = Math.min(d, back[j - 2]! + 1);
      row[j] = d;
      if (d < low) low = d;
    }
    if (low > max) return Infinity;
    [back, prev] = [prev, row];
  }
  const best = Math.min(...prev);
  return best <= max ? best : Infinity;
}

/** The typos of a unit of words (an item's text and columns, or a child's label) for each Term word: their sum, or Infinity when one finds no word. */
export function unitTypos(words: readonly string[], allowances: readonly number[], pool: readonly string[]): number {
  let sum = 0;
  for (const [k, t] of words.entries()) {
    let best = Infinity;
    for (const p of pool) {
      const c = typoCost(t, p, Math.min(allowances[k]!, best - 1));
      if (c < best) best = c;
      if (best === 0) break;
    }
    if (best === Infinity) return Infinity;
    sum += best;
  }
  return sum;
}

/**
 * An item's typos for a folded Term: the fewest over its own texts (its text
 * and searched columns together) and each child's label alone; and those of
 * its own texts and of each child (which children a typo answer keeps).
 */
export function itemTypos(f: FoldedTexts, q: string): { typos: number; own: number; children: number[] } {
  const words = wordsOf(q);
  const allowances = words.map(typoAllowance);
  const own = unitTypos(words, allowances, [...wordsOf(f.text), ...f.columns.flatMap(wordsOf)]);
  const children = f.children.map((child) => unitTypos(words, allowances, wordsOf(child)));
  return { typos: Math.min(own, ...children), own, children };
}

/** Whether a Term may have typos at all: a word of it has an allowance. */
export const mayHaveTypos = (q: string): boolean => wordsOf(q).some((w) => typoAllowance(w) > 0);
