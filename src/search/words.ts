// The words rule's index (docs/search-index.md, The words rule): a part's
// files when each word of a text is a key. A large prefix's search file holds
// its page 1 and says where the rest of its matches are, for a Term of more
// words (filtered by the client) and for its later pages:
//
// - pooled, when its matches' records take at most poolBytes: they are the
//   records of the search files its keys run over (the small keys) and of one
//   pool file (the keys that are themselves large prefixes). Pool files hold
//   those keys' records in key order, cut only between keys whose common
//   prefix is not pooled, so a pooled prefix's large keys are in one file, and
//   every record is in one pool file once per word, never once per prefix.
// - else its skip file (blocks.ts): how many of its matches, tier by tier, each record
//   block holds. Blocks hold the list's records in list order (under a parent,
//   parent by parent), so a later page of a prefix matching thousands reads
//   the block or two its items are in, and a Term made only of such words
//   reads the blocks every word of it has matches in.
//
// And the typo vocabulary: the list's words of four letters or more (no
// digit first) in buckets by their first letter, where a Term word with a
// typo finds the words it may mean (client/typos.ts).
import { createHash } from 'node:crypto';
import { FNV_BASIS, fnv1a, searchFileFor, vocabBucket } from '../client/paths.js';
import type { Records } from '../sources/record.js';
import type { Matcher } from './match.js';
import { nameOfText, pairFiles, recordsText, skipsOf, skipText, type Blocks, type Skips } from './blocks.js';
import { cut, largePrefixes, searchFilesOf, type Cut } from './parts.js';
import { makePart, NO_RESULTS, pagesOf, resultSetOf } from './output.js';
import { keyAt, type IndexPart, type LargePrefix, type Pairs, type ResultSet, type SearchFile } from './types.js';

const json = JSON.stringify;

/** A word set's text: `[total, page 1]`, shared by the large prefixes with those results. */
const wordSetText = (set: ResultSet): string => `${set.head}]`;

/** Its bytes, and those of a prefix's pool or skip file's name beside it (16 hex digits). */
const wordSetBytes = (set: ResultSet): number => Buffer.byteLength(set.head) + 32;

/**
 * The search file text of some records and the large prefixes located there:
 * their word sets, each prefix's pool file (`pools`, null where none) or skip
 * file (`skips`), and for a pooled prefix, the first keys of the other search
 * files its keys run over (`also`). A pool or skip is the prefix's own: two
 * prefixes with the same matches have other keys, and other tiers.
 */
function wordChunkText(
  records: Records,
  members: Int32Array,
  located: LargePrefix[],
  also: ReadonlyMap<LargePrefix, string[]>,
): string {
  let text = `{${recordsText(records, members)}`;
  if (located.length > 0) {
    const sets: string[] = [];
    const index = new Map<ResultSet, number>();
    const names = located.map((l) => {
      const set = resultSetOf(l);
      let at = index.get(set);
      if (at === undefined) index.set(set, (at = sets.push(wordSetText(set)) - 1));
      return `${json(l.prefix)}:${at}`;
    });
    text += `,"large":{${names.join(',')}},"sets":[${sets.join(',')}]`;
    const map = (ls: LargePrefix[], value: (l: LargePrefix) => unknown) =>
      `{${ls.map((l) => `${json(l.prefix)}:${json(value(l))}`).join(',')}}`;
    const pooled = located.filter((l) => l.skip === undefined);
    const skipped = located.filter((l) => l.skip !== undefined);
    const more = located.filter((l) => also.has(l));
    const paired = located.filter((l) => l.pairNames);
    const headed = located.filter((l) => l.pairHeadNames);
    const wide = located.filter((l) => l.wideName);
    if (pooled.length > 0) text += `,"pools":${map(pooled, (l) => l.pool ?? null)}`;
    if (skipped.length > 0) text += `,"skips":${map(skipped, (l) => l.skip)}`;
    if (more.length > 0) text += `,"also":${map(more, (l) => also.get(l))}`;
    if (paired.length > 0) text += `,"pairs":${map(paired, (l) => l.pairNames)}`;
    if (headed.length > 0) text += `,"pairHeads":${map(headed, (l) => l.pairHeadNames)}`;
    if (wide.length > 0) text += `,"wides":${map(wide, (l) => l.wideName)}`;
  }
  return text + '}';
}

/** Word sets for a part's large prefixes: page 1 and the total, shared by prefixes with the same results. */
function wordSets(m: Matcher, large: LargePrefix[]): ResultSet[] {
  const { list } = m;
  const setOf = new Map<string, ResultSet>();
  for (const l of large) {
    const digest = createHash('sha1')
      .update(new Uint8Array(l.results.buffer, l.results.byteOffset, l.results.byteLength))
      .digest('hex');
    let set = setOf.get(digest);
    if (!set) {
      const page1 = pagesOf(list, { ...l, results: l.results.subarray(0, list.pageSize) })[0] ?? '[]';
      set = {
        name: '',
        per: 0,
        source: l,
        pages: undefined,
        head: `[${l.results.length},${page1}`,
        files: 0,
        names: [],
        stamp: -1,
      };
      setOf.set(digest, set);
    }
    l.set = set;
  }
  return [...setOf.values()];
}

/**
 * The words rule's head part: a large one-unit prefix alone. Its keys are in
 * many parts, so its pool, when it has one, holds all its matches.
 */
export function wordHeadPart(m: Matcher, c: string, results: Int32Array, tiers: Uint8Array, blocks: Blocks): IndexPart {
  const { list } = m;
  const large: LargePrefix[] = list.reachable?.(c) === false ? [] : [{ prefix: c, lo: 0, results }];
  wordSets(m, large);
  const [l] = large;
  let bytes = 0;
  for (const e of results) if ((bytes += m.recordBytes(e)) > list.poolBytes) break;
  if (l && bytes > list.poolBytes) blocks.skipped.push(l);
  return makePart(list, c, [c], [], function* () {
    if (l && bytes <= list.poolBytes) {
      const text = `{${recordsText(list.records, Int32Array.from(results).sort())}}`;
      l.pool = nameOfText(text);
      yield { kind: 'pool', name: l.pool, text };
    } else if (l) {
      const text = skipText(skipsOf(results, tiers, blocks.blockOf), blocks);
      l.skip = nameOfText(text);
      yield { kind: 'skip', name: l.skip, text };
      yield* pairFiles(m, l);
    }
    yield { kind: 'search', start: c, text: wordChunkText(list.records, new Int32Array(0), large, new Map()) };
  });
}

/**
 * The part `name` over pairs [lo, hi) of the words rule: its large prefixes,
 * pooled or skipped, its search files, pool files and skip files.
 */
export function wordPart(m: Matcher, pairs: Pairs, name: string, lo: number, hi: number, blocks: Blocks): IndexPart {
  const { list } = m;
  const key = (i: number) => keyAt(pairs, i);
  // vcDepth[i - lo]: the length of key i's longest prefix that is not pooled (or no query).
  const vcDepth = new Int32Array(hi - lo).fill(name.length - 1);
  const skipsFor = new Map<LargePrefix, Skips>();
  const { large, largeDepth } = largePrefixes(m, pairs, name, lo, hi, (l, a, b, depth, matches) => {
    let bytes = 0;
    for (const e of matches) if ((bytes += m.recordBytes(e)) > list.poolBytes) break;
    if (l && bytes <= list.poolBytes) return;
    vcDepth.fill(depth, a - lo, b - lo);
    if (l) {
      skipsFor.set(l, skipsOf(l.results, m.tiersOf(l.results), blocks.blockOf));
      blocks.skipped.push(l);
    }
  });
  wordSets(m, large);
  // A large prefix's page 1, total and skips are made: only a skipped word's matches are read again (planPairs).
  for (const l of large) if (!skipsFor.has(l) || key(l.lo) !== l.prefix) l.results = NO_RESULTS;
  const files = cut(m, pairs, name, lo, hi, large, largeDepth, wordSetBytes, vcDepth);
  const pooled = large.filter((l) => !skipsFor.has(l));
  const also = alsoFiles(key, pooled, files, lo, hi);
  return makePart(list, name, files.starts, [], function* () {
    const poolOf = yield* poolFiles(m, pairs, lo, hi, files.skip, vcDepth);
    // Each large prefix's skip file, or the pool file of its first pooled large key (all of them are in it).
    for (const l of large) {
      const skips = skipsFor.get(l);
      if (skips) {
        const text = skipText(skips, blocks);
        l.skip = nameOfText(text);
        yield { kind: 'skip', name: l.skip, text };
        yield* pairFiles(m, l);
        continue;
      }
      l.pool = null;
      for (let i = l.lo; i < hi && key(i).startsWith(l.prefix); i++) {
        const pool = poolOf(i);
        if (pool !== undefined) {
          l.pool = pool;
          break;
        }
      }
    }
    for (const { start, from, to, located } of searchFilesOf(files, large)) {
      const members = m.distinct(pairs, from, to, -1, files.skip, lo);
      yield { kind: 'search', start, text: wordChunkText(list.records, members, located, also) };
    }
  });
}

/**
 * A pooled prefix's small keys may run over search files beside its own: for
 * each that does, the first keys of those files, which the client reads too
 * (`also`). `files` is the part's cut: each file's first key and first pair,
 * and the keys no search file holds.
 */
function alsoFiles(
  key: (i: number) => string,
  pooled: readonly LargePrefix[],
  files: Cut,
  lo: number,
  hi: number,
): Map<LargePrefix, string[]> {
  const { starts, bounds, skip } = files;
  const also = new Map<LargePrefix, string[]>();
  let f = 0;
  const fileOf = (i: number) => {
    while (f > 0 && bounds[f]! > i) f--;
    while (f + 1 < starts.length && bounds[f + 1]! <= i) f++;
    return f;
  };
  for (const l of pooled) {
    const own = searchFileFor(l.prefix, starts);
    const others = new Set<number>();
    for (let i = l.lo; i < hi && key(i).startsWith(l.prefix); i++)
      if (skip[i - lo] !== 1 && fileOf(i) !== own) others.add(fileOf(i));
    if (others.size > 0)
      also.set(
        l,
        [...others].sort((a, b) => a - b).map((k) => starts[k]!),
      );
  }
  return also;
}

/**
 * A part's pool files: the records of the keys no search file holds (each a
 * large prefix) that are pooled, in key order, a file cut only between two
 * keys whose common prefix is not pooled (`vcDepth`), so a pooled prefix's
 * large keys are all in one file. Returns the name of the pool file that
 * holds pair i, if any.
 */
function* poolFiles(
  m: Matcher,
  pairs: Pairs,
  lo: number,
  hi: number,
  skip: Uint8Array,
  vcDepth: Int32Array,
): Generator<SearchFile, (i: number) => string | undefined> {
  const { list } = m;
  const { keyIndex, owners } = pairs;
  const key = (i: number) => keyAt(pairs, i);
  const poolAt = new Int32Array(hi - lo).fill(-1);
  const poolNames: string[] = [];
  let members: number[] = [];
  let size = 0;
  let generation = m.newGeneration();
  let last = -1;
  const close = function* (): Generator<SearchFile> {
    if (members.length === 0) return;
    const text = `{${recordsText(
      list.records,
      members.sort((x, y) => x - y),
    )}}`;
    const name = nameOfText(text);
    poolNames.push(name);
    yield { kind: 'pool', name, text };
    members = [];
    size = 0;
    generation = m.newGeneration();
  };
  for (let i = lo; i < hi; i++) {
    if (skip[i - lo] !== 1 || key(i).length <= vcDepth[i - lo]!) continue;
    if (last >= 0 && keyIndex[last] !== keyIndex[i]) {
      let lcp = 0;
      const [x, y] = [key(last), key(i)];
      while (lcp < x.length && x.charCodeAt(lcp) === y.charCodeAt(lcp)) lcp++;
      const allowed = lcp <= vcDepth[i - lo]!;
      if (allowed && (size >= list.poolFileBytes || (size >= list.poolFileBytes / 3 && fnv1a(y, FNV_BASIS) % 32 === 0)))
        yield* close();
    }
    const e = owners[i]!;
    if (m.stamp[e] !== generation) {
      m.stamp[e] = generation;
      members.push(e);
      size += m.recordBytes(e);
    }
    poolAt[i - lo] = poolNames.length;
    last = i;
  }
  yield* close();
  return (i) => {
    const at = poolAt[i - lo]!;
    return at >= 0 ? poolNames[at] : undefined;
  };
}

/**
 * The typo vocabulary of sorted keys (after a parent chain, for a list under
 * a parent): every word of four code points or more whose first is no digit,
 * in buckets by FNV-1a of that first code point, each sorted; as many buckets
 * (a power of two) as hold about `bytes` each.
 */
export function vocabularyFiles(keys: readonly string[], bytes: number): { buckets: number; files: SearchFile[] } {
  const words = new Set<string>();
  let size = 0;
  for (const key of keys) {
    const word = key.slice(key.lastIndexOf('/') + 1);
    if (words.has(word) || /^\p{N}/u.test(word) || [...word].length < 4) continue;
    words.add(word);
    size += Buffer.byteLength(word) + 3;
  }
  const buckets = 2 ** Math.ceil(Math.log2(Math.max(1, Math.ceil(size / bytes))));
  const byBucket: string[][] = Array.from({ length: buckets }, () => []);
  for (const word of words) byBucket[vocabBucket(word, buckets)]!.push(word);
  const files = byBucket.map(
    (ws, bucket): SearchFile => ({ kind: 'vocab', bucket, buckets, text: `{"words":${json(ws.sort())}}` }),
  );
  return { buckets, files };
}
