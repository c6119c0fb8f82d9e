// The keys of the Term index: every word start of every folded label (and of
// the texts a list also searches), paired with its entry and sorted
// (docs/search-index.md, Keys and files). A prefix's matches are then one run
// of pairs.
import type { Entry } from '../sources/model.js';
import type { Pairs } from './types.js';

/** A label's word-start suffixes: itself, and what follows each space. */
export function* suffixesOf(label: string): Generator<string> {
  if (label === '') return;
  yield label;
  for (let i = label.indexOf(' '); i >= 0; i = label.indexOf(' ', i + 1)) yield label.slice(i + 1);
}

/** The length of the common prefix of a and b's first n units. */
export const commonPrefixLength = (a: string, b: string, n: number): number => {
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
};

/** How well a key matches its entry, the higher the better: tiers 1, 2 and 3 of docs/lists.md, Term search. */
export const WHOLE = 3;
export const WORD = 2;
export const ALSO = 1;

/**
 * The sorted (key, entry) pairs of entries (in list order) whose key `keep`
 * accepts (given the text and where the key starts in it). Entries come in
 * list order, so each key's entries are grouped as they come, already
 * sorted; only the distinct keys go through the engine's own string sort.
 * `also[e]` are entry e's folded texts that rank after its labels.
 */
export function collectPairs(entries: Entry[], keep?: (text: string, start: number) => boolean, also?: string[][]): Pairs {
  // Each distinct key has a slot; its pairs are chained in the order they
  // come (list order), each as entry * 4 + rank: no array for every key.
  const slots = new Map<string, number>();
  const head: number[] = [];
  const tail: number[] = [];
  let next = new Int32Array(1 << 16);
  let value = new Int32Array(1 << 16);
  let pairs = 0;
  const add = (key: string, e: number, rank: number) => {
    const slot = slots.get(key);
    if (slot !== undefined && value[tail[slot]!]! >>> 2 === e) {
      // One key twice in an entry's texts: the better rank counts.
      if ((value[tail[slot]!]! & 3) < rank) value[tail[slot]!] = e * 4 + rank;
      return;
    }
    if (pairs === next.length) {
      const [n, v] = [new Int32Array(pairs * 2), new Int32Array(pairs * 2)];
      n.set(next), v.set(value), ([next, value] = [n, v]);
    }
    value[pairs] = e * 4 + rank;
    next[pairs] = -1;
    if (slot === undefined) slots.set(key, head.length), head.push(pairs), tail.push(pairs);
    else (next[tail[slot]!] = pairs), (tail[slot] = pairs);
    pairs++;
  };
  const addText = (text: string, e: number, first: number, rest: number) => {
    if (text === '') return;
    if (!keep || keep(text, 0)) add(text, e, first);
    for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) {
      if (!keep || keep(text, i + 1)) add(text.slice(i + 1), e, rest);
    }
  };
  for (const [e, entry] of entries.entries()) {
    addText(entry.key, e, WHOLE, WORD);
    for (const child of entry.children ?? []) addText(child.key, e, WHOLE, WORD);
    for (const text of also?.[e] ?? []) addText(text, e, ALSO, ALSO);
  }
  const sorted = [...slots.keys()].sort();
  const keys = new Array<string>(pairs);
  const owners = new Int32Array(pairs);
  const rank = new Uint8Array(pairs);
  let i = 0;
  for (const key of sorted) {
    for (let p = head[slots.get(key)!]!; p >= 0; p = next[p]!) {
      keys[i] = key;
      owners[i] = value[p]! >>> 2;
      rank[i++] = value[p]! & 3;
    }
  }
  return { keys, owners, rank };
}

/** The end of the run of pairs from lo whose keys share the first `depth` units with pair lo. */
export function runEnd({ keys }: Pairs, lo: number, hi: number, depth: number): number {
  const p = keys[lo]!;
  let i = lo + 1;
  while (i < hi && keys[i]!.length >= depth && commonPrefixLength(p, keys[i]!, depth) === depth) i++;
  return i;
}
