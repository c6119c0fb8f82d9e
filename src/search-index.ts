// Stage 4b, the Term index of one paged list (SPEC §2), pure.
//
// Keys are the word-start suffixes of every folded label, sorted. A prefix
// whose matches fit in one file ("small") is answered by filtering the records
// of the search file holding its key range; files are cut only between keys
// whose common prefix is large, so a small prefix never straddles two files.
// Every large prefix gets its full result pages: page 1 inline in the search
// file the client looks in, pages 2… in page files shared by prefixes whose
// results are the same (long chains of one-child prefixes).
import { createHash } from 'node:crypto';
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
  /** Search files then page files, numbered from 0, as JSON text. */
  files: string[];
}

interface LargePrefix {
  prefix: string;
  results: Int32Array; // entry indexes in result order
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

export function buildSearchIndex(entries: Entry[], records: string[], options: SearchIndexOptions): SearchIndex {
  const { pageSize, leafBytes = 6000, fileBytes = 6000, pagesBytes = 12000 } = options;
  const labels = entries.map((e) => [e.key, ...(e.children ?? []).map((c) => c.key)]);

  // All (key, entry) pairs, sorted by key then entry.
  const keys: string[] = [];
  const owner: number[] = [];
  const suffixes = new Set<string>();
  entries.forEach((_, i) => {
    suffixes.clear();
    for (const label of labels[i]!) wordStartSuffixes(label, suffixes);
    for (const s of suffixes) keys.push(s), owner.push(i);
  });
  const order = Uint32Array.from(keys.keys()).sort((a, b) =>
    keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : owner[a]! - owner[b]!,
  );
  const key = (i: number) => keys[order[i]!]!;
  const entryAt = (i: number) => owner[order[i]!]!;

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
  const bytesOf = (list: number[]) => list.reduce((n, e) => n + records[e]!.length + 1, 0);
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
      large.push({ prefix, results: Int32Array.from(first.concat(second)) });
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

  // Cut the sorted keys into search files.
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
    if (stamp[e] !== generation) (stamp[e] = generation), (bytes += records[e]!.length + 1);
  }
  bounds.push(keys.length);

  // Result sets, shared by prefixes with identical results; pages 2… go to page files.
  const pageCount = (n: number) => Math.ceil(n / pageSize);
  const page = (r: Int32Array, p: number) => `[${Array.from(r.subarray(p * pageSize, (p + 1) * pageSize), (e) => records[e]).join(',')}]`;
  const pageFiles: string[] = [];
  const setOf = new Map<string, { total: number; first: number; per: number; page1: string }>();
  const setFor = (l: LargePrefix) => {
    const digest = createHash('sha1').update(new Uint8Array(l.results.buffer)).digest('base64');
    let set = setOf.get(digest);
    if (!set) {
      const pages = pageCount(l.results.length);
      const per = pages > 1 ? Math.max(1, Math.floor(pagesBytes / page(l.results, 1).length)) : 1;
      set = { total: l.results.length, first: starts.length + pageFiles.length, per, page1: page(l.results, 0) };
      for (let p = 1; p < pages; p += per) {
        const group = [];
        for (let k = p; k < Math.min(p + per, pages); k++) group.push(page(l.results, k));
        pageFiles.push(`{"pages":[${group.join(',')}]}`);
      }
      setOf.set(digest, set);
    }
    return set;
  };

  const placed: LargePrefix[][] = starts.map(() => []);
  for (const l of large) placed[searchFileFor(l.prefix, starts)]!.push(l);

  const searchFiles = starts.map((_, f) => {
    const members = distinct(bounds[f]!, bounds[f + 1]!);
    let text = `{"records":[${members.map((e) => records[e]).join(',')}]`;
    if (placed[f]!.length > 0) {
      const sets: string[] = [];
      const index = new Map<object, number>();
      const names = placed[f]!.map((l) => {
        const set = setFor(l);
        if (!index.has(set)) index.set(set, sets.push(`[${set.total},${set.first},${set.per},${set.page1}]`) - 1);
        return `${JSON.stringify(l.prefix)}:${index.get(set)}`;
      });
      text += `,"large":{${names.join(',')}},"sets":[${sets.join(',')}]`;
    }
    return text + '}';
  });
  return { starts, files: searchFiles.concat(pageFiles) };
}
