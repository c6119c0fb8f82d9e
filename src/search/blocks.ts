// Beyond a pool (docs/search-index.md, The words rule and Common words): a
// large prefix of the words rule whose matches' records take more than a pool
// holds is answered from the list's record blocks, by its skip file (how many
// of its matches, tier by tier, each block holds), and a common word's matches
// with each first letter of their other words from its pair pools, pair heads
// and wide pool.
import { createHash } from 'node:crypto';
import { fnv1a } from '../client/paths.js';
import { EXACT, NONE, rankTexts, START, WORD, type FoldedTexts } from '../client/rank.js';
import type { Matcher } from './match.js';
import type { Records } from '../sources/record.js';
import type { LargePrefix, SearchFile } from './types.js';

const json = JSON.stringify;

/** A file's name: 16 hex digits of its text's SHA-1, so an edit renames only the files it changes. */
export const nameOfText = (text: string): string => createHash('sha1').update(text).digest('hex').slice(0, 16);

/** Some entries' records, in list order. */
export const recordsText = (records: Records, members: ArrayLike<number>): string =>
  `"records":[${Array.from(members, (e) => records.at(e)).join(',')}]`;

/**
 * The list's record blocks: their names, and each entry's block; and its large
 * prefixes beyond a pool, as the parts find them. A block's text is made
 * again when it is written (`blockFiles`): held from the cut to the end of
 * the index, the texts were all the records once more.
 */
export interface Blocks {
  names: string[];
  /** Where each block starts among the records, and where the last ends. */
  bounds: number[];
  blockOf: Int32Array;
  skipped: LargePrefix[];
}

const blockText = (records: Records, from: number, to: number) =>
  `{"records":[${Array.from({ length: to - from }, (_, i) => records.at(from + i)).join(',')}]}`;

/**
 * Records in list order, cut into blocks: after an entry whose record hashes
 * to 0 modulo 8 once a block holds half of `bytes`, or at `bytes`. The cuts
 * depend on the records around them only, so an edit renames a block or two.
 */
export function recordBlocks(records: Records, bytes: number): Blocks {
  const names: string[] = [];
  const bounds = [0];
  const blockOf = new Int32Array(records.length);
  let size = 0;
  const close = (to: number) => {
    names.push(nameOfText(blockText(records, bounds.at(-1)!, to)));
    bounds.push(to);
    size = 0;
  };
  for (let i = 0; i < records.length; i++) {
    blockOf[i] = names.length;
    size += records.bytes(i) + 1;
    if (size >= bytes || (size >= bytes / 2 && fnv1a(records.at(i)) % 8 === 0)) close(i + 1);
  }
  if (bounds.at(-1)! < records.length) close(records.length);
  return { names, bounds, blockOf, skipped: [] };
}

/** The record blocks' files, each text made as it is written. */
export function* blockFiles(records: Records, blocks: Blocks): Generator<SearchFile> {
  for (const [b, name] of blocks.names.entries())
    yield { kind: 'block', name, text: blockText(records, blocks.bounds[b]!, blocks.bounds[b + 1]!) };
}

/**
 * Pair pools (docs/search-index.md, Common words): for a word that matches
 * more than a pool holds, the matches it shares with each first letter of
 * their other words, `letters` being each entry's first letters (a skipped
 * prefix is a word when it is one of the sorted `keys`). A Term of
 * that word and a word of that letter reads its pair pool, not the blocks.
 * The rarest such words first, while the pairs' records take at most
 * `budget` bytes, each pair at most a pool's.
 *
 * Then wide pools, for the words that have a letter left without a pair
 * pool and whose matches fit two pools (`wideBytes`): all of them, the
 * rarest words first, while the wide pools take at most `budget` too.
 *
 * Then pair heads, for the letters left without a pool (more than a pool
 * holds, or no budget left): the answer's page 1 and total for the Term
 * that is the word, a space and the letter, ranked as the client ranks
 * (`texts`: each entry's folded texts), so that keystroke reads one file,
 * not every block the two have matches in. The words that start the most
 * texts first (a Term's first word is a text's first word, as a rule), of
 * those that start a quarter of their matches at least, while the heads'
 * records take at most a fifth of `budget`.
 */
export function planPairs(
  m: Matcher,
  skipped: readonly LargePrefix[],
  /** Every key once, sorted. */
  keys: readonly string[],
  letters: readonly string[],
  budget: number,
  texts: ((e: number) => FoldedTexts) | undefined,
): void {
  const { poolBytes, wideBytes, pageSize, searched } = m.list;
  // Found by halving the sorted keys: a Set of them weighed tens of MB.
  const isKey = (prefix: string) => {
    let [lo, hi] = [0, keys.length];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return keys[lo] === prefix;
  };
  const chosen = skipped.filter((l) => isKey(l.prefix)).sort((a, b) => a.results.length - b.results.length);
  const byLetter = (l: LargePrefix) => {
    const members = new Map<string, number[]>();
    for (const e of l.results) {
      for (const x of letters[e]!) {
        const those = members.get(x);
        if (those) those.push(e);
        else members.set(x, [e]);
      }
    }
    return members;
  };
  let used = 0;
  for (const l of chosen) {
    const pairs = new Map<string, Int32Array>();
    let bytes = 0;
    for (const [x, members] of byLetter(l)) {
      let size = 0;
      for (const e of members) if ((size += m.recordBytes(e)) > poolBytes) break;
      if (size > poolBytes) continue;
      pairs.set(x, Int32Array.from(members).sort());
      bytes += size;
    }
    if (used + bytes > budget) break;
    used += bytes;
    if (pairs.size > 0) l.pairs = pairs;
  }
  // Wide pools: a word whose matches fit two pools, where the pairs leave one of its letters
  // without a pool, has all its matches in one file. A Term of it and a word of that letter
  // reads that file where it read every block the two have matches in, which a common word's
  // matches are spread over (viola tr at two million species: 1,660 blocks, 26.6 MB).
  used = 0;
  for (const l of chosen) {
    let bytes = 0;
    for (const e of l.results) if ((bytes += m.recordBytes(e)) > wideBytes) break;
    if (bytes > wideBytes || (l.pairs && l.pairs.size === lettersOf(l, letters))) continue;
    if (used + bytes > budget) break;
    used += bytes;
    l.wide = Int32Array.from(l.results).sort();
  }
  if (!texts) return;
  // The word as typed: its key without the parent chain of a list under a parent.
  const wordOf = (l: LargePrefix) => l.prefix.slice((searched.scopes?.[l.results[0]!] ?? '').length);
  // A Term starts with what a person thinks of first, a text's first word (a genus, not a year or an
  // author): the words that start the most texts first, and only those that start a quarter of the
  // texts they match at least (viola 3,068 of 7,460 at 2M species; not the s of 's-Hertogenbosch,
  // which matches every city of an s word).
  const starting = chosen
    .map((l): [LargePrefix, number] => {
      const [word, next] = [wordOf(l), `${wordOf(l)} `];
      let n = 0;
      for (const e of l.results) {
        const { text } = texts(e);
        if (text === word || text.startsWith(next)) n++;
      }
      return [l, n];
    })
    .filter(([l, n]) => n * 4 >= l.results.length)
    .sort((a, b) => b[1] - a[1]);
  used = 0;
  for (const [l] of starting) {
    const heads = new Map<string, { total: number; page: Int32Array }>();
    const word = wordOf(l);
    let bytes = 0;
    for (const [x, members] of byLetter(l)) {
      if (l.pairs?.has(x)) continue;
      const head = answerOf(Int32Array.from(members).sort(), `${word} ${x}`, texts, searched.exact, pageSize);
      if (head.total === 0) continue;
      heads.set(x, head);
      for (const e of head.page) bytes += m.recordBytes(e);
    }
    if (used + bytes > budget / 5) break;
    used += bytes;
    if (heads.size > 0) l.pairHeads = heads;
  }
}

/** How many first letters the other words of a prefix's matches have (`letters`: each entry's). */
function lettersOf(l: LargePrefix, letters: readonly string[]): number {
  const all = new Set<string>();
  for (const e of l.results) for (const x of letters[e]!) all.add(x);
  return all.size;
}

/** Page 1 and the total of the answer to folded Term q among some entries (in list order): by tier, each in list order, as the client ranks. */
function answerOf(
  entries: Int32Array,
  q: string,
  texts: (e: number) => FoldedTexts,
  exact: boolean,
  pageSize: number,
): { total: number; page: Int32Array } {
  const byTier: number[][] = Array.from({ length: NONE }, () => []);
  for (const e of entries) {
    const { tier } = rankTexts(texts(e), q, exact, true);
    if (tier !== NONE) byTier[tier]!.push(e);
  }
  const all = byTier.flat();
  return { total: all.length, page: Int32Array.from(all.slice(0, pageSize)) };
}

/** Each pair pool and pair head of a large prefix, rendered, and their names by letter kept on the prefix. */
export function* pairFiles(m: Matcher, l: LargePrefix): Generator<SearchFile> {
  const byLetter = <T>(map: Map<string, T>) => [...map].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  if (l.pairs) {
    l.pairNames = {};
    for (const [x, members] of byLetter(l.pairs)) {
      const text = `{${recordsText(m.list.records, members)}}`;
      l.pairNames[x] = nameOfText(text);
      yield { kind: 'pool', name: l.pairNames[x], text };
    }
  }
  if (l.pairHeads) {
    l.pairHeadNames = {};
    for (const [x, { total, page }] of byLetter(l.pairHeads)) {
      const text = `{"total":${total},${recordsText(m.list.records, page)}}`;
      l.pairHeadNames[x] = nameOfText(text);
      yield { kind: 'pool', name: l.pairHeadNames[x], text };
    }
  }
  if (l.wide) {
    const text = `{${recordsText(m.list.records, l.wide)}}`;
    l.wideName = nameOfText(text);
    yield { kind: 'pool', name: l.wideName, text };
  }
}

/**
 * Skip counts by block: the blocks with matches, in list order, and for the
 * k-th, counts[4k … 4k + 3], its matches in tiers 0, 1, 2 and 4 (the tiers
 * of one word). Typed arrays: a common word's matches are in most blocks,
 * and a list of millions has thousands of blocks and of such words.
 */
export interface Skips {
  blocks: Int32Array;
  counts: Int32Array;
}

export function skipsOf(matches: Int32Array, tiers: Uint8Array, blockOf: Int32Array): Skips {
  // Each match as its block and tier's column, sorted: then a block's matches are a run.
  const cells = new Int32Array(matches.length);
  for (let k = 0; k < matches.length; k++) {
    const t = tiers[k]!;
    cells[k] = blockOf[matches[k]!]! * 4 + (t === EXACT ? 0 : t === START ? 1 : t === WORD ? 2 : 3);
  }
  cells.sort();
  let n = 0;
  for (let k = 0; k < cells.length; k++) if (k === 0 || cells[k]! >> 2 !== cells[k - 1]! >> 2) n++;
  const skips: Skips = { blocks: new Int32Array(n), counts: new Int32Array(4 * n) };
  for (let k = 0, j = -1; k < cells.length; k++) {
    if (k === 0 || cells[k]! >> 2 !== cells[k - 1]! >> 2) skips.blocks[++j] = cells[k]! >> 2;
    skips.counts[4 * j + (cells[k]! & 3)]!++;
  }
  return skips;
}

/** A skip file's text: each block with matches, in list order, as [name, tier 0, 1, 2, 4]. */
export function skipText(skips: Skips, blocks: Blocks): string {
  const rows = Array.from(skips.blocks, (b, k) => json([blocks.names[b], ...skips.counts.subarray(4 * k, 4 * k + 4)]));
  return `{"blocks":[${rows.join(',')}]}`;
}
