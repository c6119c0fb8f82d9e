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
import { searchFileFor } from './client/paths.js';
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
  /** JSON text of each search file (SearchChunk). */
  searchFiles: string[];
  /** JSON text of each result page file (SearchPages). */
  pageFiles: string[];
}

interface ResultSet {
  /** `[total, first page file, pages a file, page 1]` as JSON. */
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

function wordStartSuffixes(label: string, into: Set<string>): void {
  if (label === '') return;
  into.add(label);
  for (let i = label.indexOf(' '); i >= 0; i = label.indexOf(' ', i + 1)) into.add(label.slice(i + 1));
}

const commonPrefixLength = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
};

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
  const { pageSize, leafBytes = 6000, fileBytes = 6000, pagesBytes = 14000 } = options;
  const labels = entries.map((e) => [e.key, ...(e.children ?? []).map((c) => c.key)]);
  const recordBytes = records.map((r) => Buffer.byteLength(r) + 1);

  // All (key, entry) pairs, sorted by key then entry. Each pair is one string,
  // the key, a NUL (below any folded character) and the entry as two UTF-16
  // units, so the engine's own string sort (far faster than a comparator)
  // orders by key and then entry.
  const pairs: string[] = [];
  const suffixes = new Set<string>();
  entries.forEach((_, i) => {
    suffixes.clear();
    for (const label of labels[i]!) wordStartSuffixes(label, suffixes);
    const tag = '\0' + String.fromCharCode(i >>> 16, i & 0xffff);
    for (const s of suffixes) pairs.push(s + tag);
  });
  pairs.sort();
  const keys = pairs.map((p) => p.slice(0, -3));
  const owners = Int32Array.from(pairs, (p) => (p.charCodeAt(p.length - 2) << 16) | p.charCodeAt(p.length - 1));
  pairs.length = 0;
  const key = (i: number) => keys[i]!;
  const entryAt = (i: number) => owners[i]!;

  // Distinct entries of a key range, in list order, stopping early once clearly large.
  const stamp = new Int32Array(entries.length).fill(-1);
  let generation = 0;
  function distinct(lo: number, hi: number): number[] {
    generation++;
    const found: number[] = [];
    for (let i = lo; i < hi; i++) {
      const e = entryAt(i);
      if (stamp[e] !== generation) (stamp[e] = generation), found.push(e);
    }
    return found.sort((a, b) => a - b);
  }
  const bytesOf = (list: number[]) => list.reduce((n, e) => n + recordBytes[e]!, 0);
  const isSmall = (list: number[]) => list.length <= pageSize || bytesOf(list) <= leafBytes;

  // Walk the trie of the sorted keys; every large node is recorded with its ranked results.
  const large: LargePrefix[] = [];
  const largeSet = new Set<string>();
  const rootMatches = distinct(0, keys.length);
  if (!isSmall(rootMatches)) largeSet.add('');
  const stack: [number, number, number][] = largeSet.has('') ? [[0, keys.length, 0]] : [];
  while (stack.length > 0) {
    const [lo, hi, depth] = stack.pop()!;
    if (depth > 0) {
      const matches = distinct(lo, hi);
      if (isSmall(matches)) continue;
      const prefix = key(lo).slice(0, depth);
      const first = matches.filter((e) => labels[e]!.some((l) => l.startsWith(prefix)));
      const second = matches.filter((e) => !labels[e]!.some((l) => l.startsWith(prefix)));
      large.push({ prefix, lo, results: Int32Array.from(first.concat(second)) });
      largeSet.add(prefix);
    }
    // Children by the next code unit; keys that end here belong to no child.
    let i = lo;
    while (i < hi && key(i).length === depth) i++;
    const children: [number, number, number][] = [];
    while (i < hi) {
      const c = key(i).charCodeAt(depth);
      let j = i + 1;
      while (j < hi && key(j).charCodeAt(depth) === c) j++;
      children.push([i, j, depth + 1]);
      i = j;
    }
    stack.push(...children.reverse());
  }
  large.sort((a, b) => (a.prefix < b.prefix ? -1 : 1));

  // Result sets: identical answers (a chain of one-child prefixes) are stored once.
  // A division is stored with only the children a prefix keeps, which is exact
  // because the client filters them by the same query again.
  const pageFiles: string[] = [];
  const setOf = new Map<string, ResultSet>();
  const recordFor = (e: number, prefix: string) => {
    const entry = entries[e]!;
    if (!entry.children || tierOf(entry.key, prefix) !== 0) return records[e]!;
    return encode({ ...entry, children: entry.children.filter((c) => tierOf(c.key, prefix) !== 0) });
  };
  const filtered = entries.some((e) => e.children);
  for (const l of large) {
    const pages: string[] = [];
    const render = () => {
      for (let p = 0; p < l.results.length; p += pageSize) {
        pages.push(`[${Array.from(l.results.subarray(p, p + pageSize), (e) => recordFor(e, l.prefix)).join(',')}]`);
      }
      return pages.join('\n');
    };
    // Without children a result's text depends only on its entries, so they
    // identify it and pages are rendered only for a set not seen before.
    const digest = createHash('sha1').update(filtered ? render() : new Uint8Array(l.results.buffer)).digest('base64');
    let set = setOf.get(digest);
    if (!set) {
      if (!filtered) render();
      const largest = pages.reduce((n, page) => Math.max(n, Buffer.byteLength(page)), 0);
      const per = Math.max(1, Math.floor(pagesBytes / largest));
      set = { text: `[${l.results.length},${pageFiles.length},${per},${pages[0]}]`, stamp: -1 };
      for (let p = 1; p < pages.length; p += per) pageFiles.push(`{"pages":[${pages.slice(p, p + per).join(',')}]}`);
      setOf.set(digest, set);
    }
    l.set = set;
  }

  // Cut the sorted keys into search files, counting the records and the result sets each will hold.
  const largeAt = new Map<number, LargePrefix[]>();
  for (const l of large) largeAt.set(l.lo, [...(largeAt.get(l.lo) ?? []), l]);
  const starts: string[] = [''];
  const bounds: number[] = [0];
  let bytes = 0;
  generation++;
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && bytes >= fileBytes) {
      const lcp = commonPrefixLength(key(i - 1), key(i));
      if (largeSet.has(key(i).slice(0, lcp))) {
        starts.push(key(i).slice(0, lcp + 1));
        bounds.push(i);
        bytes = 0;
        generation++;
      }
    }
    const e = entryAt(i);
    if (stamp[e] !== generation) (stamp[e] = generation), (bytes += recordBytes[e]!);
    for (const l of largeAt.get(i) ?? []) {
      if (l.set!.stamp !== generation) (l.set!.stamp = generation), (bytes += Buffer.byteLength(l.set!.text));
    }
  }
  bounds.push(keys.length);

  const placed: LargePrefix[][] = starts.map(() => []);
  for (const l of large) placed[searchFileFor(l.prefix, starts)]!.push(l);
  const searchFiles = starts.map((_, f) => {
    const members = distinct(bounds[f]!, bounds[f + 1]!);
    let text = `{"records":[${members.map((e) => records[e]).join(',')}]`;
    if (placed[f]!.length > 0) {
      const sets: string[] = [];
      const index = new Map<ResultSet, number>();
      const names = placed[f]!.map((l) => {
        if (!index.has(l.set!)) index.set(l.set!, sets.push(l.set!.text) - 1);
        return `${JSON.stringify(l.prefix)}:${index.get(l.set!)}`;
      });
      text += `,"large":{${names.join(',')}},"sets":[${sets.join(',')}]`;
    }
    return text + '}';
  });
  return { starts, searchFiles, pageFiles };
}
