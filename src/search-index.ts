// Stage 4b, the Term index of one paged list, pure: docs/search-index.md
// lays it out; what a Term matches is docs/contract.md §2.
//
// Keys are the word-start suffixes of every folded label, sorted. A prefix
// whose matches fit in one file ("small") is answered by filtering the records
// of the search file holding its key range; files are cut only between keys
// whose common prefix is large, so a small prefix never straddles two files.
// Every large prefix gets its full result pages: page 1 inline in the search
// file the client looks in, pages 2… in page files.
//
// The keys are split into partitions that are indexed independently: by their
// first two code units when their first one is a large prefix (whose own
// results then sit alone in a "head" part), by their first unit otherwise.
// An edit touches the few partitions its keys fall in, so a rebuild indexes
// those again and keeps every other part's files (updateSearchIndex).
import { FNV_BASIS, fnv1a, searchFileFor } from './client/paths.js';
import type { Entry } from './model.js';
import { collectPairs, commonPrefixLength, runEnd, suffixesOf } from './search-keys.js';
import { Matcher } from './search-match.js';
import { chunkText, makePart, pageFiles, resultSets } from './search-output.js';
import type { IndexLayout, IndexPart, LargePrefix, Pairs, PartMeta, SearchIndex, SearchIndexOptions } from './search-types.js';

export type { IndexLayout, IndexPart, PartMeta, SearchFile, SearchIndex, SearchIndexOptions } from './search-types.js';

/** The part a key belongs to. */
export function partOf(key: string, layout: IndexLayout, heads: ReadonlySet<string>): string {
  if (!layout.rootLarge) return '';
  return heads.has(key[0]!) ? key.slice(0, 2) : key[0]!;
}

/** A list's parts, indexed one after another over its pairs. */
class Indexer {
  /** The pairs being indexed (collectPairs). */
  pairs: Pairs = { keys: [], owners: new Int32Array(0), whole: new Uint8Array(0) };

  constructor(readonly m: Matcher) {}

  /** A head part: a large one-unit prefix alone, with its results. */
  head(c: string, results: Int32Array): IndexPart {
    const l: LargePrefix = { prefix: c, lo: 0, results };
    const sets = resultSets(this.m, [l]);
    const { list } = this.m;
    return makePart(list.pageSize, c, [c], sets, function* () {
      yield { kind: 'search', start: c, text: chunkText(list.records, new Int32Array(0), [l]) };
      yield* pageFiles(list, sets);
    });
  }

  /**
   * The part `name` over pairs [lo, hi), whose keys all start with name:
   * its large prefixes (a walk of the trie below name), then its search
   * files, cut at content-defined boundaries.
   */
  indexPart(name: string, lo: number, hi: number): IndexPart {
    const { keys } = this.pairs;
    // Walk the trie of the sorted keys; every large node is recorded with its ranked results.
    const large: LargePrefix[] = [];
    // The depth of each key's longest large prefix: parents are walked
    // before their children, which overwrite it.
    const largeDepth = new Int32Array(hi - lo);
    const stack: [number, number, number][] = hi > lo ? [[lo, hi, name.length]] : [];
    while (stack.length > 0) {
      const [a, b, depth] = stack.pop()!;
      const matches = this.m.largeMatches(this.pairs, a, b);
      if (!matches) continue;
      if (depth > 0) {
        large.push({ prefix: keys[a]!.slice(0, depth), lo: a, results: this.m.rankLast(matches) });
        largeDepth.fill(depth, a - lo, b - lo);
      }
      // Children by the next code unit; keys that end here belong to no child.
      let i = a;
      while (i < b && keys[i]!.length === depth) i++;
      const children: [number, number, number][] = [];
      while (i < b) {
        const c = keys[i]!.charCodeAt(depth);
        let j = i + 1;
        while (j < b && keys[j]!.charCodeAt(depth) === c) j++;
        children.push([i, j, depth + 1]);
        i = j;
      }
      stack.push(...children.reverse());
    }
    large.sort((x, y) => (x.prefix < y.prefix ? -1 : 1));
    const sets = resultSets(this.m, large);

    // Cut the sorted keys into search files, counting the records and the
    // result sets each will hold. Cuts are content-defined (past a minimum
    // size, at a boundary key whose hash ends in five zero bits; at the
    // maximum size, at the next allowed boundary), so an edit moves only the
    // cuts near it and a rebuild rewrites a few search files.
    const largeAt = new Map<number, LargePrefix[]>();
    for (const l of large) largeAt.set(l.lo, [...(largeAt.get(l.lo) ?? []), l]);
    // A key that is itself a large prefix can never match a small query (every
    // prefix of it is large too), so search files leave it out. That also keeps
    // starts unique: files are never cut between two equal keys.
    const skip = new Uint8Array(hi - lo);
    for (let i = lo; i < hi; i++) if (keys[i]!.length <= largeDepth[i - lo]!) skip[i - lo] = 1;
    const starts: string[] = [name];
    const bounds: number[] = [lo];
    let bytes = 0;
    let previous = -1;
    let generation = this.m.newGeneration();
    const { fileBytes } = this.m.list;
    const { stamp } = this.m;
    const { owners } = this.pairs;
    for (let i = lo; i < hi; i++) {
      const skipped = skip[i - lo] === 1;
      if (!skipped && previous >= 0 && bytes >= fileBytes / 3) {
        const lcp = commonPrefixLength(keys[previous]!, keys[i]!, Math.min(keys[previous]!.length, keys[i]!.length));
        const end = Math.min(lcp + 1, keys[i]!.length);
        // The keys' common prefix is large (a prefix of key i at most as deep as its longest large one).
        if (lcp > 0 && lcp <= largeDepth[i - lo]! && (bytes >= fileBytes || (fnv1a(keys[i]!, FNV_BASIS, end) & 31) === 0)) {
          starts.push(keys[i]!.slice(0, end));
          bounds.push(i);
          bytes = 0;
          generation = this.m.newGeneration();
        }
      }
      for (const l of largeAt.get(i) ?? []) {
        if (l.set!.stamp !== generation) (l.set!.stamp = generation), (bytes += Buffer.byteLength(l.set!.text));
      }
      if (skipped) continue;
      previous = i;
      const e = owners[i]!;
      if (stamp[e] !== generation) (stamp[e] = generation), (bytes += this.m.recordBytes(e));
    }
    bounds.push(hi);

    const placed: LargePrefix[][] = starts.map(() => []);
    for (const l of large) placed[searchFileFor(l.prefix, starts)]!.push(l);
    const { m, pairs } = this;
    const { list } = m;
    return makePart(list.pageSize, name, starts, sets, function* () {
      for (const [f, start] of starts.entries()) {
        yield { kind: 'search', start, text: chunkText(list.records, m.distinct(pairs, bounds[f]!, bounds[f + 1]!, skip, lo), placed[f]!) };
      }
      yield* pageFiles(list, sets);
    });
  }
}

/** A list's Matcher, the sizes' defaults filled in. */
function matcherFor(entries: Entry[], records: string[], encode: (e: Entry) => string, options: SearchIndexOptions): Matcher {
  const { pageSize, leafBytes = 6000, fileBytes = 5000, pagesBytes = 14000 } = options;
  return new Matcher({ entries, records, encode, pageSize, leafBytes, fileBytes, pagesBytes, filtered: entries.some((e) => e.children) });
}

/**
 * The index of a list's entries (in list order), given their encoded records
 * and the encoder, which also encodes a division with only some children.
 */
export function buildSearchIndex(
  entries: Entry[],
  records: string[],
  encode: (e: Entry) => string,
  options: SearchIndexOptions,
): SearchIndex {
  const m = matcherFor(entries, records, encode, options);
  const ix = new Indexer(m);
  ix.pairs = collectPairs(entries);
  const { keys } = ix.pairs;
  const n = keys.length;
  const rootLarge = m.largeMatches(ix.pairs, 0, n) !== undefined;
  const layout: IndexLayout = { rootLarge, heads: [] };
  const fresh: IndexPart[] = [];
  if (!rootLarge) {
    if (n === 0) fresh.push({ meta: { name: '', starts: [''], pages: [] }, *files() { yield { kind: 'search', start: '', text: '{"records":[]}' }; } });
    else fresh.push(ix.indexPart('', 0, n));
  }
  for (let lo = 0; rootLarge && lo < n; ) {
    const hi = runEnd(ix.pairs, lo, n, 1);
    const c = keys[lo]![0]!;
    const matches = m.largeMatches(ix.pairs, lo, hi);
    if (!matches) fresh.push(ix.indexPart(c, lo, hi));
    else {
      layout.heads.push(c);
      fresh.push(ix.head(c, m.rankLast(matches)));
      // Keys that are c itself belong to the head, and are large: no search file holds them.
      let i = lo;
      while (i < hi && keys[i]!.length === 1) i++;
      while (i < hi) {
        const j = runEnd(ix.pairs, i, hi, 2);
        fresh.push(ix.indexPart(keys[i]!.slice(0, 2), i, j));
        i = j;
      }
    }
    lo = hi;
  }
  return { layout, metas: fresh.map((p) => p.meta), fresh };
}

/**
 * The index after an edit, indexing again only the parts that `touched`
 * (the folded labels of every changed entry, before and after) fall in, or
 * undefined when the edit changes the layout (a one-unit prefix turns large
 * or small) and the whole index must be built. Lists without children only.
 */
export function updateSearchIndex(
  entries: Entry[],
  records: string[],
  encode: (e: Entry) => string,
  options: SearchIndexOptions,
  previous: { layout: IndexLayout; metas: PartMeta[] },
  touched: string[],
): SearchIndex | undefined {
  const { layout } = previous;
  if (!layout.rootLarge || entries.some((e) => e.children)) return undefined;
  const m = matcherFor(entries, records, encode, options);
  const ix = new Indexer(m);
  if (!m.rootIsLarge()) return undefined;
  const heads = new Set(layout.heads);
  const names = new Set<string>();
  const units = new Set<string>();
  for (const key of touched) {
    for (const suffix of suffixesOf(key)) names.add(partOf(suffix, layout, heads)), units.add(suffix[0]!);
  }
  const fresh: IndexPart[] = [];
  for (const [c, { small, results }] of m.scanHeads([...units].sort())) {
    if (small === heads.has(c)) return undefined;
    if (!small) fresh.push(ix.head(c, results));
  }
  // Only the suffixes of the touched parts: the part is read off the suffix's first two units, without slicing it.
  const wanted = new Set([...names].map((name) => name.charCodeAt(0) * 65536 + (name.length > 1 ? name.charCodeAt(1) + 1 : 0)));
  const firsts = new Set([...names].map((name) => name.charCodeAt(0)));
  const headUnits = new Set(layout.heads.map((c) => c.charCodeAt(0)));
  ix.pairs = collectPairs(entries, (label, start) => {
    const c = label.charCodeAt(start);
    if (!firsts.has(c)) return false;
    const second = headUnits.has(c) && start + 1 < label.length ? label.charCodeAt(start + 1) + 1 : 0;
    return wanted.has(c * 65536 + second);
  });
  const { keys } = ix.pairs;
  for (let lo = 0; lo < keys.length; ) {
    const name = partOf(keys[lo]!, layout, heads);
    let hi = lo + 1;
    while (hi < keys.length && partOf(keys[hi]!, layout, heads) === name) hi++;
    if (!heads.has(name)) fresh.push(ix.indexPart(name, lo, hi));
    lo = hi;
  }
  const kept = previous.metas.filter((m) => !names.has(m.name) && !(units.has(m.name) && heads.has(m.name)));
  const metas = [...kept, ...fresh.map((p) => p.meta)].sort((a, b) => (a.name < b.name ? -1 : 1));
  return { layout, metas, fresh };
}
