// The keys of the Term index: every word start of every folded search text
// (the label unless declared, children's labels, the searched columns'
// values) for the phrase rule, every word of them for the words rule, paired
// with its entry and where it starts in it (rank.ts's KeyAt), and sorted
// (docs/search-index.md, Keys and files). A prefix's matches are then one run
// of pairs.
import {
  AT_COLUMN,
  AT_COLUMN_WORD,
  AT_TEXT,
  AT_TEXT_FIRST,
  AT_TEXT_WORD,
  keyTier,
  type KeyAt,
} from '../client/rank.js';
import { childrenOf, keyAt, keyOf, type IndexEntry, type Pairs, type Searched } from './types.js';
import { commonPrefixLength } from '../client/paths.js';

/** A list that searches its labels alone by the phrase rule, as the lookup service's do. */
export const LABELS: Searched = { exact: false };

/** A label's word-start suffixes: itself, and what follows each space. */
export function* suffixesOf(label: string): Generator<string> {
  if (label === '') return;
  yield label;
  for (let i = label.indexOf(' '); i >= 0; i = label.indexOf(' ', i + 1)) yield label.slice(i + 1);
}

/** Whether a key at `a` in its entry ranks at least as well as one at `b`, whether or not a query is the whole key. */
const dominates = (a: KeyAt, b: KeyAt, exact: boolean) =>
  keyTier(a, false, exact) <= keyTier(b, false, exact) && keyTier(a, true, exact) <= keyTier(b, true, exact);

/**
 * The sorted (key, entry) pairs of entries (in list order) whose key `keep`
 * accepts (given the text and where the key starts in it). Entries come in
 * list order, so each key's entries are gathered as they come, already
 * sorted; only the distinct keys go through the engine's own string sort.
 * `searched` says what else than the folded labels an entry's keys come from.
 */
export function collectPairs(
  entries: readonly IndexEntry[],
  keep?: (text: string, start: number) => boolean,
  searched: Searched = LABELS,
): Pairs {
  const { scopes, exact } = searched;
  // Each distinct key has a slot; its pairs are chained in the order they
  // come (list order), each as entry * 8 + where the key starts (KeyAt): no array for every key.
  // The slots are kept by the keys' first two code units, a Map of each: a
  // Map holds at most 2^24 keys, and ten million labels have more word starts.
  const groups = new Map<number, Map<string, number>>();
  const slotsOf = (key: string): Map<string, number> => {
    const g = groupOf(key);
    let slots = groups.get(g);
    if (!slots) groups.set(g, (slots = new Map()));
    return slots;
  };
  const head: number[] = [];
  const tail: number[] = [];
  // As many as the texts have words, the most pairs they make: arrays grown by doubling held up to
  // twice that, and both copies while they grew (a million species: 4.6 million pairs, 8.4 million slots).
  // The same walk as the collecting below (textsOf): a text left out here would overrun the arrays.
  let most = 0;
  for (const [e, entry] of entries.entries()) textsOf(entry, e, searched, (text) => void (most += wordsIn(text)));
  const next = new Int32Array(most);
  const value = new Int32Array(most);
  let pairs = 0;
  const add = (key: string, e: number, at: KeyAt) => {
    const slots = slotsOf(key);
    const slot = slots.get(key);
    if (slot !== undefined && value[tail[slot]!]! >>> 3 === e) {
      // One key twice in an entry's texts: the better one counts, or both when each is better for some query.
      const was = (value[tail[slot]!]! & 7) as KeyAt;
      if (dominates(was, at, exact)) return;
      if (dominates(at, was, exact)) return void (value[tail[slot]!] = e * 8 + at);
    }
    value[pairs] = e * 8 + at;
    next[pairs] = -1;
    if (slot === undefined) {
      slots.set(key, head.length);
      head.push(pairs);
      tail.push(pairs);
    } else {
      next[tail[slot]!] = pairs;
      tail[slot] = pairs;
    }
    pairs++;
  };
  const addText = (text: string, e: number, whole: KeyAt, word: KeyAt, scope: string) => {
    if (text === '') return;
    if (searched.words) {
      // The words rule: each word is a key; the first is the whole text only when it is the one word.
      const first = text.indexOf(' ');
      if (first < 0) return add(scope + text, e, whole);
      add(scope + text.slice(0, first), e, whole === AT_TEXT ? AT_TEXT_FIRST : word);
      for (let i = first; i >= 0; ) {
        const j = text.indexOf(' ', i + 1);
        add(scope + text.slice(i + 1, j < 0 ? undefined : j), e, word);
        i = j;
      }
      return;
    }
    if (!keep || keep(text, 0)) add(scope + text, e, whole);
    for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) {
      if (!keep || keep(text, i + 1)) add(scope + text.slice(i + 1), e, word);
    }
  };
  for (const [e, entry] of entries.entries()) {
    const scope = scopes?.[e] ?? '';
    textsOf(entry, e, searched, (text, whole, word) => addText(text, e, whole, word, scope));
  }
  const distinct: string[] = [];
  const keyIndex = new Int32Array(pairs);
  const owners = new Int32Array(pairs);
  const at = new Uint8Array(pairs);
  let i = 0;
  for (const g of [...groups.keys()].sort((a, b) => a - b)) {
    const slots = groups.get(g)!;
    for (const key of [...slots.keys()].sort()) {
      const k = distinct.push(key) - 1;
      for (let p = head[slots.get(key)!]!; p >= 0; p = next[p]!) {
        keyIndex[i] = k;
        owners[i] = value[p]! >>> 3;
        at[i++] = value[p]! & 7;
      }
    }
    groups.delete(g);
  }
  return { distinct, keyIndex, owners, at };
}

/**
 * Each text entry e is searched by (docs/search-index.md, Keys and files):
 * its search text (its key unless declared), its children's keys and its
 * searched columns' values, with where a key is when it is the whole text and
 * when a later word.
 */
export function textsOf(
  entry: IndexEntry,
  e: number,
  searched: Searched,
  visit: (text: string, whole: KeyAt, word: KeyAt) => void,
): void {
  visit(searched.texts?.[e] ?? keyOf(entry), AT_TEXT, AT_TEXT_WORD);
  for (const child of childrenOf(entry) ?? []) visit(child.key, AT_TEXT, AT_TEXT_WORD);
  for (const text of searched.columns?.[e] ?? []) visit(text, AT_COLUMN, AT_COLUMN_WORD);
}

/** A text's words: its spaces and one, none for no text. A text makes a key for each at most. */
function wordsIn(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) n++;
  return n;
}

/**
 * A number for the first two UTF-16 code units of `key` from `start` that
 * sorts as they do: a key of one unit before every longer key that starts
 * with it. Sorting the groups by it, then each group's keys, sorts the keys.
 */
export function groupOf(key: string, start = 0): number {
  const length = key.length - start;
  if (length <= 0) return -1;
  const first = key.charCodeAt(start) * 0x10001;
  return length === 1 ? first : first + key.charCodeAt(start + 1) + 1;
}

/** The end of the run of pairs from lo whose keys share the first `depth` units with pair lo. */
export function runEnd(pairs: Pairs, lo: number, hi: number, depth: number): number {
  const p = keyAt(pairs, lo);
  let i = lo + 1;
  for (; i < hi; i++) {
    const key = keyAt(pairs, i);
    if (key.length < depth || commonPrefixLength(p, key) < depth) break;
  }
  return i;
}
