// One part of the Term index (docs/search-index.md, Parts): the walk of the
// trie of its sorted keys, which finds its large prefixes, and the
// content-defined cuts of its keys into search files. A head part is a large
// one-unit prefix alone, with its results.
import { FNV_BASIS, fnv1a, searchFileFor } from '../client/paths.js';
import { commonPrefixLength } from '../client/paths.js';
import type { Matcher } from './match.js';
import { chunkText, makePart, resultSetOf, resultSets, setBytes } from './output.js';
import { keyAt, type IndexPart, type LargePrefix, type Pairs, type ResultSet } from './types.js';

/** A head part: a large one-unit prefix alone, with its results. */
export function headPart(m: Matcher, c: string, results: Int32Array): IndexPart {
  const { list } = m;
  // Under a parent, a one-unit prefix is part of a parent's id: no query, so its file holds nothing.
  const large: LargePrefix[] = list.reachable?.(c) === false ? [] : [{ prefix: c, lo: 0, results }];
  const sets = resultSets(m, large);
  return makePart(list, c, [c], sets, function* () {
    yield { kind: 'search', start: c, text: chunkText(list.records, new Int32Array(0), large) };
  });
}

/**
 * The part `name` over pairs [lo, hi), whose keys all start with name: its
 * large prefixes, then its search files. A part of a list in parts (any
 * name but '') is a span of runs under a large prefix one unit shorter
 * than its name (spans in index.ts).
 */
export function indexPart(m: Matcher, pairs: Pairs, name: string, lo: number, hi: number): IndexPart {
  const { large, largeDepth } = largePrefixes(m, pairs, name, lo, hi);
  // Before the cuts: they count the bytes of the result set (l.set) each large prefix brings into its file.
  const sets = resultSets(m, large);
  const files = cut(m, pairs, name, lo, hi, large, largeDepth);
  const { list } = m;
  return makePart(list, name, files.starts, sets, function* () {
    for (const { start, from, to, located } of searchFilesOf(files, large)) {
      const members = m.distinct(pairs, from, to, -1, files.skip, lo);
      yield { kind: 'search', start, text: chunkText(list.records, members, located) };
    }
  });
}

/** A part's keys cut into search files: their first keys (starts), the pair each begins at (bounds, then hi), and the pairs no file holds (skip[i - lo]). */
export interface Cut {
  starts: string[];
  bounds: number[];
  skip: Uint8Array;
}

/** Each search file of a cut: its first key, its pairs [from, to), and the large prefixes whose answers it holds. */
export function searchFilesOf(
  { starts, bounds }: Cut,
  large: readonly LargePrefix[],
): { start: string; from: number; to: number; located: LargePrefix[] }[] {
  const files = starts.map((start, f) => ({
    start,
    from: bounds[f]!,
    to: bounds[f + 1]!,
    located: [] as LargePrefix[],
  }));
  for (const l of large) files[searchFileFor(l.prefix, starts)]!.located.push(l);
  return files;
}

/**
 * The large prefixes below name of pairs [lo, hi), sorted, each with its
 * ranked results, and largeDepth[i - lo]: the length of key i's longest
 * large prefix (-1 when none is). `visit` sees each large prefix's matches
 * while their tiers are the matcher's (the words rule's pools and skips).
 */
export function largePrefixes(
  m: Matcher,
  pairs: Pairs,
  name: string,
  lo: number,
  hi: number,
  visit?: (l: LargePrefix | undefined, a: number, b: number, depth: number, matches: Int32Array) => void,
): { large: LargePrefix[]; largeDepth: Int32Array } {
  const key = (i: number) => keyAt(pairs, i);
  // The prefix the part is under, large and answered by another part; none for a list in one part.
  const known = name.length - 1;
  // Walk the trie of the sorted keys; every large node is recorded with its ranked results.
  const large: LargePrefix[] = [];
  // Parents are walked before their children, which overwrite largeDepth.
  const largeDepth = new Int32Array(hi - lo).fill(-1);
  const stack: [number, number, number][] = hi > lo ? [[lo, hi, Math.max(known, 0)]] : [];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [a, b, depth] = top;
    if (depth !== known) {
      const matches = m.largeMatches(pairs, a, b, depth);
      if (!matches) continue;
      const prefix = key(a).slice(0, depth);
      // A prefix that no query can be is large for the cuts, but no results are stored for it.
      const l = m.list.reachable?.(prefix) !== false ? { prefix, lo: a, results: m.rankLast(matches) } : undefined;
      if (l) large.push(l);
      visit?.(l, a, b, depth, matches);
    }
    largeDepth.fill(depth, a - lo, b - lo);
    // Children by the next code unit; keys that end here belong to no child.
    let i = a;
    while (i < b && key(i).length === depth) i++;
    const children: [number, number, number][] = [];
    while (i < b) {
      const c = key(i).charCodeAt(depth);
      let j = i + 1;
      while (j < b && key(j).charCodeAt(depth) === c) j++;
      children.push([i, j, depth + 1]);
      i = j;
    }
    stack.push(...children.reverse());
  }
  large.sort((x, y) => (x.prefix < y.prefix ? -1 : 1));
  return { large, largeDepth };
}

/**
 * Cuts pairs [lo, hi) into search files, counting the records and the result
 * sets each will hold: their first keys (starts), the pair each begins at
 * (bounds, then hi), and the pairs no file holds (skip[i - lo]). Cuts are
 * content-defined (past a minimum size, at a boundary key whose hash ends in
 * five zero bits; at the maximum size, at the next allowed boundary), so an
 * edit moves only the cuts near it and a rebuild rewrites a few search files.
 */
export function cut(
  m: Matcher,
  pairs: Pairs,
  name: string,
  lo: number,
  hi: number,
  large: LargePrefix[],
  largeDepth: Int32Array,
  bytesOfSet: (set: ResultSet) => number = setBytes,
  vcDepth?: Int32Array,
): Cut {
  const { owners } = pairs;
  const key = (i: number) => keyAt(pairs, i);
  const largeAt = new Map<number, LargePrefix[]>();
  for (const l of large) largeAt.set(l.lo, [...(largeAt.get(l.lo) ?? []), l]);
  // A key that is itself a large prefix can never match a small query (every
  // prefix of it is large too), so search files leave it out. That also keeps
  // starts unique: files are never cut between two equal keys.
  const skip = new Uint8Array(hi - lo);
  for (let i = lo; i < hi; i++) if (key(i).length <= largeDepth[i - lo]!) skip[i - lo] = 1;
  const starts: string[] = [name];
  const bounds: number[] = [lo];
  let bytes = 0;
  let previous = -1;
  // A file being cut is a pass of m's: its stamps count each entry's record once.
  let generation = m.newGeneration();
  const { fileBytes } = m.list;
  const { stamp } = m;
  for (let i = lo; i < hi; i++) {
    const skipped = skip[i - lo] === 1;
    if (!skipped && previous >= 0 && bytes >= fileBytes / 3) {
      const lcp = commonPrefixLength(key(previous), key(i));
      const end = Math.min(lcp + 1, key(i).length);
      // The keys' common prefix is large (a prefix of key i at most as deep as its longest large one). The
      // words rule cuts a pooled prefix's keys apart only in a file three times as large: its matches are read together.
      const pooled = vcDepth !== undefined && lcp > vcDepth[i - lo]!;
      const due = pooled ? bytes >= 3 * fileBytes : bytes >= fileBytes || (fnv1a(key(i), FNV_BASIS, end) & 31) === 0;
      if (lcp <= largeDepth[i - lo]! && due) {
        starts.push(key(i).slice(0, end));
        bounds.push(i);
        bytes = 0;
        generation = m.newGeneration();
      }
    }
    for (const l of largeAt.get(i) ?? []) {
      const set = resultSetOf(l);
      if (set.stamp !== generation) {
        set.stamp = generation;
        bytes += bytesOfSet(set);
      }
    }
    if (skipped) continue;
    previous = i;
    const e = owners[i]!;
    if (stamp[e] !== generation) {
      stamp[e] = generation;
      bytes += m.recordBytes(e);
    }
  }
  bounds.push(hi);
  return { starts, bounds, skip };
}
