// Stage 4b, the Term index of one paged list (SPEC §2), pure.
//
// Keys are the word-start suffixes of every folded label, sorted. A prefix
// whose matches fit in one file ("small") is answered by filtering the records
// of the search file holding its key range; files are cut only between keys
// whose common prefix is large, so a small prefix never straddles two files.
// Every large prefix gets its full result pages: page 1 inline in the search
// file the client looks in, pages 2… in page files.
import { createHash } from 'node:crypto';
import { tierOf } from './client/fold.js';
import { fnv1a, nameOf, searchFileFor } from './client/paths.js';
import { ReflistError } from './errors.js';
import type { Entry } from './model.js';

export interface SearchIndexOptions {
  pageSize: number;
  /** A prefix is small when its matches' records take at most this many bytes (or fit one page). */
  leafBytes?: number;
  /** A search file is closed at the first allowed cut after it reaches this many bytes. */
  fileBytes?: number;
  /** Page files hold as many pages as fit in this many bytes. */
  pagesBytes?: number;
}

export interface SearchIndex {
  /** First key of each search file. */
  starts: string[];
  /** The search files (SearchChunk), then the result page files (SearchPages), as JSON text. */
  files(): Generator<SearchFile>;
}

export type SearchFile =
  | { kind: 'search'; start: string; text: string }
  | { kind: 'pages'; set: string; file: number; text: string };

interface ResultSet {
  /** The name of its page files: nameOf(the first prefix it answers). */
  name: string;
  /** Pages a page file holds. */
  per: number;
  source: LargePrefix;
  /** Rendered pages, kept only for divisions (whose text depends on the prefix). */
  pages: string[] | undefined;
  /** `[total, name, pages a file, page 1]` as JSON. */
  text: string;
  /** The search file being cut that already counts this set's bytes. */
  stamp: number;
}

interface LargePrefix {
  prefix: string;
  /** Position of its first key. */
  lo: number;
  /** Entry indexes in result order. */
  results: Int32Array;
  set?: ResultSet;
}

/** Adds a label's word-start suffixes, each marked whether it is the whole label. */
function wordStartSuffixes(label: string, into: Map<string, boolean>): void {
  if (label === '') return;
  into.set(label, true);
  for (let i = label.indexOf(' '); i >= 0; i = label.indexOf(' ', i + 1)) {
    const suffix = label.slice(i + 1);
    if (!into.has(suffix)) into.set(suffix, false);
  }
}

/** The length of the common prefix of a and b's first n units. */
const commonPrefixLength = (a: string, b: string, n: number): number => {
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
};

/**
 * The index of a list's entries (in list order), given their encoded records
 * and the encoder, which also encodes a division with only some children.
 * A generator of work steps, each a few milliseconds, returning the index:
 * the caller fits the work in while another thread writes.
 */
export function* buildSearchIndex(
  entries: Entry[],
  records: string[],
  encode: (e: Entry) => string,
  options: SearchIndexOptions,
): Generator<undefined, SearchIndex> {
  const { pageSize, leafBytes = 6000, fileBytes = 5000, pagesBytes = 14000 } = options;
  const recordBytes = Int32Array.from(records, (r) => Buffer.byteLength(r) + 1);

  // All (key, entry) pairs, sorted by key then entry. Each pair is one string,
  // the key, a NUL (below any folded character) and the entry in three
  // 8-bit code units, so the engine's own string sort (far faster than a
  // comparator) orders by key and then entry, and a Latin key stays a
  // one-byte string, half the memory of a two-byte one.
  if (entries.length > 2 ** 24) throw new ReflistError('INVALID_OPTION', `a list of ${entries.length} entries is over the search index's ${2 ** 24}`);
  const pairs: string[] = [];
  const suffixes = new Map<string, boolean>();
  for (const [i, entry] of entries.entries()) {
    if ((i & 4095) === 4095) yield;
    suffixes.clear();
    wordStartSuffixes(entry.key, suffixes);
    for (const child of entry.children ?? []) wordStartSuffixes(child.key, suffixes);
    const tag = String.fromCharCode(0, i >>> 16, (i >>> 8) & 0xff, i & 0xff);
    const wholeTag = String.fromCharCode(1, i >>> 16, (i >>> 8) & 0xff, i & 0xff);
    // A whole label (or category) is marked by the tag's first unit: it still sorts below any folded character.
    for (const [s, whole] of suffixes) pairs.push(s + (whole ? wholeTag : tag));
  }
  yield;
  pairs.sort();
  yield;
  const owners = Int32Array.from(pairs, (p) => {
    const n = p.length;
    return (p.charCodeAt(n - 3) << 16) | (p.charCodeAt(n - 2) << 8) | p.charCodeAt(n - 1);
  });
  const whole = Uint8Array.from(pairs, (p) => p.charCodeAt(p.length - 4));
  yield;
  // Key i is pairs[i] less its tag, read in place (pairAt(i) up to
  // keyLength(i)): a copy of every key would be another 3 million strings at
  // a million rows.
  const pairAt = (i: number) => pairs[i]!;
  const keyLength = (i: number) => pairs[i]!.length - 4;
  const entryAt = (i: number) => owners[i]!;

  // Distinct entries of a key range (leaving out skipped keys), in list order.
  // An entry whose whole label (or a category's) is in the range gets
  // wholeStamp = generation too: for a prefix's range, those rank first (tier 1).
  const stamp = new Int32Array(entries.length).fill(-1);
  const wholeStamp = new Int32Array(entries.length).fill(-1);
  let generation = 0;
  function distinct(lo: number, hi: number, skip?: Uint8Array): Int32Array {
    generation++;
    const found: number[] = [];
    for (let i = lo; i < hi; i++) {
      if (skip?.[i]) continue;
      const e = entryAt(i);
      if (whole[i]) wholeStamp[e] = generation;
      if (stamp[e] !== generation) (stamp[e] = generation), found.push(e);
    }
    return Int32Array.from(found).sort(); // a typed array sorts numerically, natively
  }
  const bytesOf = (list: Int32Array) => list.reduce((n, e) => n + recordBytes[e]!, 0);
  const isSmall = (list: Int32Array) => list.length <= pageSize || bytesOf(list) <= leafBytes;

  // Walk the trie of the sorted keys; every large node is recorded with its ranked results.
  const large: LargePrefix[] = [];
  const largeSet = new Set<string>();
  const rootMatches = distinct(0, pairs.length);
  if (!isSmall(rootMatches)) largeSet.add('');
  const stack: [number, number, number][] = largeSet.has('') ? [[0, pairs.length, 0]] : [];
  for (let n = 1; stack.length > 0; n++) {
    if ((n & 1023) === 0) yield;
    const [lo, hi, depth] = stack.pop()!;
    if (depth > 0) {
      const matches = distinct(lo, hi);
      if (isSmall(matches)) continue;
      const prefix = pairAt(lo).slice(0, depth);
      // Tier 1 (a label or category starts with the prefix), then the rest, each in list order.
      const results = new Int32Array(matches.length);
      let second = 0;
      for (const e of matches) if (wholeStamp[e] === generation) second++;
      let first = 0;
      for (const e of matches) results[wholeStamp[e] === generation ? first++ : second++] = e;
      large.push({ prefix, lo, results });
      largeSet.add(prefix);
    }
    // Children by the next code unit; keys that end here belong to no child.
    let i = lo;
    while (i < hi && keyLength(i) === depth) i++;
    const children: [number, number, number][] = [];
    while (i < hi) {
      const c = pairAt(i).charCodeAt(depth);
      let j = i + 1;
      while (j < hi && pairAt(j).charCodeAt(depth) === c) j++;
      children.push([i, j, depth + 1]);
      i = j;
    }
    stack.push(...children.reverse());
  }
  large.sort((a, b) => (a.prefix < b.prefix ? -1 : 1));

  // Result sets: identical answers (a chain of one-child prefixes) are stored once.
  // A division is stored with only the children a prefix keeps, which is exact
  // because the client filters them by the same query again.
  const setOf = new Map<string, ResultSet>();
  const filtered = entries.some((e) => e.children);
  const recordFor = (e: number, prefix: string) => {
    const entry = entries[e]!;
    if (!entry.children || tierOf(entry.key, prefix) !== 0) return records[e]!;
    return encode({ ...entry, children: entry.children.filter((c) => tierOf(c.key, prefix) !== 0) });
  };
  const pagesOf = (l: LargePrefix, from = 0): string[] => {
    const pages: string[] = [];
    const { results, prefix } = l;
    for (let p = from * pageSize; p < results.length; p += pageSize) {
      let page = '[';
      for (let k = p; k < Math.min(p + pageSize, results.length); k++) {
        page += (k > p ? ',' : '') + (filtered ? recordFor(results[k]!, prefix) : records[results[k]!]);
      }
      pages.push(page + ']');
    }
    return pages;
  };
  for (const [n, l] of large.entries()) {
    if ((n & 63) === 63) yield;
    // Without children a result's text depends only on its entries, so they
    // name it, and its pages are rendered once, when the files are written.
    const pages = filtered ? pagesOf(l) : undefined;
    const digest = createHash('sha1').update(pages ? pages.join('\n') : new Uint8Array(l.results.buffer)).digest('hex');
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
          for (const e of l.results.subarray(p, p + pageSize)) bytes += recordBytes[e]!;
          largest = Math.max(largest, bytes);
        }
      }
      const per = Math.max(1, Math.floor(pagesBytes / largest));
      const page1 = pages?.[0] ?? pagesOf({ ...l, results: l.results.subarray(0, pageSize) })[0]!;
      set = { name, per, source: l, pages, text: `[${l.results.length},"${name}",${per},${page1}]`, stamp: -1 };
      setOf.set(digest, set);
    }
    l.set = set;
  }

  // Cut the sorted keys into search files, counting the records and the result
  // sets each will hold. Cuts are content-defined (past a minimum size, at a
  // boundary key whose hash ends in five zero bits; at the maximum size, at the
  // next allowed boundary), so an edit moves only the cuts near it and a
  // rebuild rewrites a few search files, not every one after the edit.
  const largeAt = new Map<number, LargePrefix[]>();
  for (const l of large) largeAt.set(l.lo, [...(largeAt.get(l.lo) ?? []), l]);
  // A key that is itself a large prefix can never match a small query (every
  // prefix of it is large too), so search files leave it out. That also keeps
  // starts unique: files are never cut between two equal keys.
  const skip = new Uint8Array(pairs.length);
  for (let i = 0; i < pairs.length; i++) if (largeSet.has(pairAt(i).slice(0, -4))) skip[i] = 1;
  const starts: string[] = [''];
  const bounds: number[] = [0];
  let bytes = 0;
  let previous = -1;
  generation++;
  for (let i = 0; i < pairs.length; i++) {
    if ((i & 16383) === 16383) yield;
    if (!skip[i] && previous >= 0 && bytes >= fileBytes / 3) {
      const lcp = commonPrefixLength(pairAt(previous), pairAt(i), Math.min(keyLength(previous), keyLength(i)));
      const start = pairAt(i).slice(0, Math.min(lcp + 1, keyLength(i)));
      if (largeSet.has(pairAt(i).slice(0, lcp)) && (bytes >= fileBytes || (fnv1a(start) & 31) === 0)) {
        starts.push(start);
        bounds.push(i);
        bytes = 0;
        generation++;
      }
    }
    for (const l of largeAt.get(i) ?? []) {
      if (l.set!.stamp !== generation) (l.set!.stamp = generation), (bytes += Buffer.byteLength(l.set!.text));
    }
    if (skip[i]) continue;
    previous = i;
    const e = entryAt(i);
    if (stamp[e] !== generation) (stamp[e] = generation), (bytes += recordBytes[e]!);
  }
  bounds.push(pairs.length);

  const placed: LargePrefix[][] = starts.map(() => []);
  for (const l of large) placed[searchFileFor(l.prefix, starts)]!.push(l);
  function* files(): Generator<SearchFile> {
    for (const [f, start] of starts.entries()) {
      const members = distinct(bounds[f]!, bounds[f + 1]!, skip);
      let text = `{"records":[${Array.from(members, (e) => records[e]).join(',')}]`;
      if (placed[f]!.length > 0) {
        const sets: string[] = [];
        const index = new Map<ResultSet, number>();
        const names = placed[f]!.map((l) => {
          if (!index.has(l.set!)) index.set(l.set!, sets.push(l.set!.text) - 1);
          return `${JSON.stringify(l.prefix)}:${index.get(l.set!)}`;
        });
        text += `,"large":{${names.join(',')}},"sets":[${sets.join(',')}]`;
      }
      yield { kind: 'search', start, text: text + '}' };
    }
    for (const set of [...setOf.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const pages = set.pages?.slice(1) ?? pagesOf(set.source, 1);
      for (let p = 0, k = 0; p < pages.length; p += set.per, k++) {
        yield { kind: 'pages', set: set.name, file: k, text: `{"pages":[${pages.slice(p, p + set.per).join(',')}]}` };
      }
    }
  }
  return { starts, files };
}
