// What of a label a Term matched (docs/lists.md, Highlighting): the ranges a
// widget marks. By the search's own rule: the label's words, folded, that a
// word of the folded Term starts, and where a Term word starts none of them,
// those it starts with its typos forgiven. Pure; the adapters escape the text
// between and around the ranges themselves.
import { fold } from './fold.js';
import { typoAllowance, typoCost } from './typos.js';

/** A range of a label, in UTF-16 code units: [start, end). */
export type Range = [start: number, end: number];

interface LabelWord {
  /** Where it is in the label. */
  start: number;
  end: number;
  /** Its words folded (one, but for a character that folds to several, such as ½). */
  folded: string[];
}

/** The label's words: runs of characters that fold to letters or digits, with the marks after them. */
function labelWords(label: string): LabelWord[] {
  const out: LabelWord[] = [];
  let start = -1;
  const close = (end: number) => {
    if (start < 0) return;
    const folded = fold(label.slice(start, end));
    if (folded !== '') out.push({ start, end, folded: folded.split(' ') });
    start = -1;
  };
  for (let i = 0; i < label.length; ) {
    const c = String.fromCodePoint(label.codePointAt(i)!);
    if (/\p{M}/u.test(c)) {
      // A mark belongs to the letter before it.
    } else if (fold(c) === '') close(i);
    else if (start < 0) start = i;
    i += c.length;
  }
  close(label.length);
  return out;
}

/** The shortest stretch of a word, from its start, whose fold is `n` code points or more, with the marks after it. */
function prefixEnd(label: string, word: LabelWord, n: number): number {
  let end = word.start;
  while (end < word.end && [...fold(label.slice(word.start, end))].length < n)
    end += String.fromCodePoint(label.codePointAt(end)!).length;
  while (end < word.end && /\p{M}/u.test(String.fromCodePoint(label.codePointAt(end)!))) end++;
  return end;
}

/** How many code points of folded word `w` Term word `t` matches: all of t's when w starts with it, else the prefix of w its typos align it with. */
function matched(t: string, w: string, typos: boolean): number {
  if (w.startsWith(t)) return [...t].length;
  if (!typos) return 0;
  const allowance = typoAllowance(t);
  const cost = typoCost(t, w, allowance);
  if (cost === Infinity) return 0;
  // The prefix of w it is nearest: the shortest that some prefix of it is within the cost found.
  const cps = [...w];
  for (let n = 1; n < cps.length; n++) if (typoCost(t, cps.slice(0, n).join(''), cost) <= cost) return n;
  return cps.length;
}

/**
 * The ranges of `label` that folded Term `term` matched, in order and merged:
 * the start of each label word a Term word starts, as much of it as the word
 * matched. With `typos`, a Term word that starts no word of the label marks
 * the words it starts with its typos forgiven.
 */
export function highlight(label: string, term: string, options: { typos?: boolean } = {}): Range[] {
  const q = fold(term);
  if (q === '') return [];
  const words = [...new Set(q.split(' '))];
  const lw = labelWords(label);
  const hits: number[] = lw.map(() => 0);
  for (const t of words) {
    let found = false;
    for (const [i, w] of lw.entries()) {
      if (w.folded.some((f) => f.startsWith(t))) {
        found = true;
        hits[i] = Math.max(hits[i]!, w.folded.length > 1 ? Infinity : [...t].length);
      }
    }
    if (found || options.typos === false) continue;
    for (const [i, w] of lw.entries()) {
      const n = Math.max(...w.folded.map((f) => matched(t, f, true)));
      if (n > 0) hits[i] = Math.max(hits[i]!, w.folded.length > 1 ? Infinity : n);
    }
  }
  const ranges: Range[] = [];
  for (const [i, n] of hits.entries()) {
    if (n === 0) continue;
    const w = lw[i]!;
    const end = n === Infinity ? w.end : prefixEnd(label, w, n);
    const last = ranges[ranges.length - 1];
    if (last && last[1] === w.start) last[1] = end;
    else ranges.push([w.start, end]);
  }
  return ranges;
}
