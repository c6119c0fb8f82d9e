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
import { createHash } from 'node:crypto';
import { tierOf } from './client/fold.js';
import { FNV_BASIS, fnv1a, nameOf, searchFileFor } from './client/paths.js';
import type { Entry } from './model.js';
import { collectPairs, commonPrefixLength, runEnd, suffixesOf } from './search-keys.js';
import type { IndexLayout, IndexPart, LargePrefix, Pairs, PartMeta, ResultSet, SearchFile, SearchIndex, SearchIndexOptions } from './search-types.js';

export type { IndexLayout, IndexPart, PartMeta, SearchFile, SearchIndex, SearchIndexOptions } from './search-types.js';

/** The part a key belongs to. */
export function partOf(key: string, layout: IndexLayout, heads: ReadonlySet<string>): string {
  if (!layout.rootLarge) return '';
  return heads.has(key[0]!) ? key.slice(0, 2) : key[0]!;
}

/**
 * One list's entries (in list order) with their encoded records, and the
 * bookkeeping every part shares: parts are indexed one after another.
 */
class Indexer {
  /** UTF-8 bytes of each record and its comma, counted when first asked (an update asks of few). */
  private readonly bytes: Int32Array;
  readonly pageSize: number;
  readonly leafBytes: number;
  readonly fileBytes: number;
  readonly pagesBytes: number;
  /** The pairs being indexed (collectPairs). */
  pairs: Pairs = { keys: [], owners: new Int32Array(0), whole: new Uint8Array(0) };
  private readonly stamp: Int32Array;
  private readonly wholeStamp: Int32Array;
  private generation = 0;
  private readonly filtered: boolean;

  constructor(
    readonly entries: Entry[],
    readonly records: string[],
    readonly encode: (e: Entry) => string,
    options: SearchIndexOptions,
  ) {
    ({ pageSize: this.pageSize, leafBytes: this.leafBytes = 6000, fileBytes: this.fileBytes = 5000, pagesBytes: this.pagesBytes = 14000 } = options);
    this.bytes = new Int32Array(entries.length);
    this.stamp = new Int32Array(entries.length).fill(-1);
    this.wholeStamp = new Int32Array(entries.length).fill(-1);
    this.filtered = entries.some((e) => e.children);
  }

  /**
   * Distinct entries of a pair range (leaving out skipped pairs), in list
   * order. An entry with a whole label in the range gets wholeStamp =
   * generation too: for a prefix's range, those rank first (tier 1).
   */
  distinct(lo: number, hi: number, skip?: Uint8Array, offset = 0): Int32Array {
    const generation = ++this.generation;
    const found: number[] = [];
    const { owners, whole } = this.pairs;
    for (let i = lo; i < hi; i++) {
      if (skip?.[i - offset]) continue;
      const e = owners[i]!;
      if (whole[i]) this.wholeStamp[e] = generation;
      if (this.stamp[e] !== generation) (this.stamp[e] = generation), found.push(e);
    }
    return Int32Array.from(found).sort(); // a typed array sorts numerically, natively
  }

  /** The matches of the last distinct() call in result order: tier 1, then the rest, each in list order. */
  rankLast(matches: Int32Array): Int32Array {
    const results = new Int32Array(matches.length);
    let second = 0;
    for (const e of matches) if (this.wholeStamp[e] === this.generation) second++;
    let first = 0;
    for (const e of matches) results[this.wholeStamp[e] === this.generation ? first++ : second++] = e;
    return results;
  }

  recordBytes(e: number): number {
    return (this.bytes[e] ||= Buffer.byteLength(this.records[e]!) + 1);
  }

  /**
   * The distinct entries of a pair range when they are large (ready for
   * rankLast), or undefined when they are small. Most ranges are small for
   * sure without counting distinct entries: too few keys, or too few bytes
   * even with repeats.
   */
  largeMatches(a: number, b: number): Int32Array | undefined {
    if (b - a <= this.pageSize) return undefined;
    let bytes = 0;
    const { owners } = this.pairs;
    for (let i = a; i < b && bytes <= this.leafBytes; i++) bytes += this.recordBytes(owners[i]!);
    if (bytes <= this.leafBytes) return undefined;
    const matches = this.distinct(a, b);
    return this.isSmall(matches) ? undefined : matches;
  }

  /** Whether every entry with a key, taken together, is large: the index is then in parts. */
  rootIsLarge(): boolean {
    let count = 0;
    let bytes = 0;
    for (const [e, { key }] of this.entries.entries()) {
      if (key === '') continue;
      count++;
      if (bytes <= this.leafBytes) bytes += this.recordBytes(e);
    }
    return count > this.pageSize && bytes > this.leafBytes;
  }

  isSmall(list: Int32Array): boolean {
    if (list.length <= this.pageSize) return true;
    let bytes = 0;
    for (const e of list) bytes += this.recordBytes(e);
    return bytes <= this.leafBytes;
  }

  /**
   * The results of some one-unit prefixes by scanning the entries once (no
   * pairs needed): whether each is small, and its ranking. Lists without
   * children only.
   */
  scanHeads(units: string[]): Map<string, { small: boolean; results: Int32Array }> {
    const at = new Map(units.map((c, k) => [c.charCodeAt(0), k]));
    const first: number[][] = units.map(() => []);
    const second: number[][] = units.map(() => []);
    const seen = new Int32Array(units.length).fill(-1);
    for (const [e, { key }] of this.entries.entries()) {
      const k = at.get(key.charCodeAt(0));
      if (k !== undefined) first[k]!.push(e), (seen[k] = e);
      for (let i = key.indexOf(' '); i >= 0; i = key.indexOf(' ', i + 1)) {
        const j = at.get(key.charCodeAt(i + 1));
        if (j !== undefined && seen[j] !== e) second[j]!.push(e), (seen[j] = e);
      }
    }
    return new Map(units.map((c, k) => {
      const results = Int32Array.from(first[k]!.concat(second[k]!));
      return [c, { small: this.isSmall(results), results }];
    }));
  }

  /** The search file text of some records and the large prefixes located there. */
  private chunkText(members: Int32Array, located: LargePrefix[]): string {
    let text = `{"records":[${Array.from(members, (e) => this.records[e]).join(',')}]`;
    if (located.length > 0) {
      const sets: string[] = [];
      const index = new Map<ResultSet, number>();
      const names = located.map((l) => {
        if (!index.has(l.set!)) index.set(l.set!, sets.push(l.set!.text) - 1);
        return `${JSON.stringify(l.prefix)}:${index.get(l.set!)}`;
      });
      text += `,"large":{${names.join(',')}},"sets":[${sets.join(',')}]`;
    }
    return text + '}';
  }

  private recordFor(e: number, prefix: string): string {
    const entry = this.entries[e]!;
    if (!entry.children || tierOf(entry.key, prefix) !== 0) return this.records[e]!;
    return this.encode({ ...entry, children: entry.children.filter((c) => tierOf(c.key, prefix) !== 0) });
  }

  private pagesOf(l: LargePrefix, from = 0): string[] {
    const pages: string[] = [];
    const { results, prefix } = l;
    const { pageSize } = this;
    for (let p = from * pageSize; p < results.length; p += pageSize) {
      let page = '[';
      for (let k = p; k < Math.min(p + pageSize, results.length); k++) {
        page += (k > p ? ',' : '') + (this.filtered ? this.recordFor(results[k]!, prefix) : this.records[results[k]!]);
      }
      pages.push(page + ']');
    }
    return pages;
  }

  /**
   * Result sets for a part's large prefixes: identical answers (a chain of
   * one-child prefixes) are stored once. A division is stored with only the
   * children a prefix keeps, which is exact because the client filters them
   * by the same query again.
   */
  private resultSets(large: LargePrefix[]): ResultSet[] {
    const setOf = new Map<string, ResultSet>();
    const { pageSize } = this;
    for (const l of large) {
      // Without children a result's text depends only on its entries, so they
      // name it, and its pages are rendered once, when the files are written.
      const pages = this.filtered ? this.pagesOf(l) : undefined;
      const digest = createHash('sha1').update(pages ? pages.join('\n') : new Uint8Array(l.results.buffer, l.results.byteOffset, l.results.byteLength)).digest('hex');
      let set = setOf.get(digest);
      if (!set) {
        // Named after its first prefix, not its content: an edit inside a large
        // result rewrites the pages that changed, not every page file of the set.
        const name = nameOf(l.prefix);
        let largest = 0;
        if (pages) for (const page of pages) largest = Math.max(largest, Buffer.byteLength(page));
        else {
          for (let p = 0; p < l.results.length; p += pageSize) {
            let bytes = 2;
            for (const e of l.results.subarray(p, p + pageSize)) bytes += this.recordBytes(e);
            largest = Math.max(largest, bytes);
          }
        }
        const per = Math.max(1, Math.floor(this.pagesBytes / largest));
        const page1 = pages?.[0] ?? this.pagesOf({ ...l, results: l.results.subarray(0, pageSize) })[0]!;
        set = { name, per, source: l, pages, text: `[${l.results.length},"${name}",${per},${page1}]`, stamp: -1 };
        setOf.set(digest, set);
      }
      l.set = set;
    }
    return [...setOf.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  private *pageFiles(sets: ResultSet[]): Generator<SearchFile> {
    for (const set of sets) {
      const pages = set.pages?.slice(1) ?? this.pagesOf(set.source, 1);
      for (let p = 0, k = 0; p < pages.length; p += set.per, k++) {
        yield { kind: 'pages', set: set.name, file: k, text: `{"pages":[${pages.slice(p, p + set.per).join(',')}]}` };
      }
    }
  }

  /** An IndexPart from its first keys, its result sets and its files (rendered when the writer asks). */
  private makePart(name: string, starts: string[], sets: ResultSet[], files: () => Generator<SearchFile>): IndexPart {
    const pages = sets
      .map((s) => [s.name, Math.ceil((Math.ceil(s.source.results.length / this.pageSize) - 1) / s.per)] as [string, number])
      .filter(([, n]) => n > 0);
    return { meta: { name, starts, pages }, files };
  }

  /** A head part: a large one-unit prefix alone, with its results. */
  head(c: string, results: Int32Array): IndexPart {
    const l: LargePrefix = { prefix: c, lo: 0, results };
    const sets = this.resultSets([l]);
    const self = this;
    return this.makePart(c, [c], sets, function* () {
      yield { kind: 'search', start: c, text: self.chunkText(new Int32Array(0), [l]) };
      yield* self.pageFiles(sets);
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
      const matches = this.largeMatches(a, b);
      if (!matches) continue;
      if (depth > 0) {
        large.push({ prefix: keys[a]!.slice(0, depth), lo: a, results: this.rankLast(matches) });
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
    const sets = this.resultSets(large);

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
    let generation = ++this.generation;
    const { fileBytes, stamp } = this;
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
          generation = ++this.generation;
        }
      }
      for (const l of largeAt.get(i) ?? []) {
        if (l.set!.stamp !== generation) (l.set!.stamp = generation), (bytes += Buffer.byteLength(l.set!.text));
      }
      if (skipped) continue;
      previous = i;
      const e = owners[i]!;
      if (stamp[e] !== generation) (stamp[e] = generation), (bytes += this.recordBytes(e));
    }
    bounds.push(hi);

    const placed: LargePrefix[][] = starts.map(() => []);
    for (const l of large) placed[searchFileFor(l.prefix, starts)]!.push(l);
    const self = this;
    return this.makePart(name, starts, sets, function* () {
      for (const [f, start] of starts.entries()) {
        yield { kind: 'search', start, text: self.chunkText(self.distinct(bounds[f]!, bounds[f + 1]!, skip, lo), placed[f]!) };
      }
      yield* self.pageFiles(sets);
    });
  }
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
  const ix = new Indexer(entries, records, encode, options);
  ix.pairs = collectPairs(entries);
  const { keys } = ix.pairs;
  const n = keys.length;
  const rootLarge = ix.largeMatches(0, n) !== undefined;
  const layout: IndexLayout = { rootLarge, heads: [] };
  const fresh: IndexPart[] = [];
  if (!rootLarge) {
    if (n === 0) fresh.push({ meta: { name: '', starts: [''], pages: [] }, *files() { yield { kind: 'search', start: '', text: '{"records":[]}' }; } });
    else fresh.push(ix.indexPart('', 0, n));
  }
  for (let lo = 0; rootLarge && lo < n; ) {
    const hi = runEnd(ix.pairs, lo, n, 1);
    const c = keys[lo]![0]!;
    const matches = ix.largeMatches(lo, hi);
    if (!matches) fresh.push(ix.indexPart(c, lo, hi));
    else {
      layout.heads.push(c);
      fresh.push(ix.head(c, ix.rankLast(matches)));
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
  const ix = new Indexer(entries, records, encode, options);
  if (!ix.rootIsLarge()) return undefined;
  const heads = new Set(layout.heads);
  const names = new Set<string>();
  const units = new Set<string>();
  for (const key of touched) {
    for (const suffix of suffixesOf(key)) names.add(partOf(suffix, layout, heads)), units.add(suffix[0]!);
  }
  const fresh: IndexPart[] = [];
  for (const [c, { small, results }] of ix.scanHeads([...units].sort())) {
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
