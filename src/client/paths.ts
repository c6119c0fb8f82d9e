// Where every file of the tree lives. The builder writes these paths and the
// client reads them, so both take them from here.
import type { PagedList } from './types.js';

/** No directory holds more than this many numbered files (docs/contract.md §3 caps a folder at 10,000 entries). */
export const FILES_PER_DIR = 1000;

export const MANIFEST = 'lookup.json';

export function pagePath(list: PagedList, page: number, system?: string): string {
  const base = system === undefined ? list : `${list}/system/${system}`;
  return `${base}/page/${page}.json`;
}

/** Page 1 also lives at `{list}.json` and `{list}/system/{s}.json`. */
export function firstPagePaths(list: PagedList, system?: string): string[] {
  return system === undefined
    ? [`${list}.json`, `${list}/page/1.json`]
    : [`${list}/system/${system}.json`, `${list}/system/${system}/page/1.json`];
}

function numbered(dir: string, n: number): string {
  return `${dir}/${Math.floor(n / FILES_PER_DIR)}/${n % FILES_PER_DIR}.json`;
}

export const bucketPath = (list: PagedList, bucket: number): string => numbered(`${list}/id`, bucket);
export const childBucketPath = (bucket: number): string => numbered('division/child', bucket);

/** A 64-bit hex name for a key, the same in the builder and every client. */
export const nameOf = (key: string): string => hex(fnv1a(key)) + hex(fnv1a(key, 0x01000193));

/** A search file is named after its first key, so its name survives edits elsewhere in the list. */
export function searchPath(list: PagedList, start: string): string {
  const name = nameOf(start);
  return `${list}/search/${name.slice(0, 2)}/${name.slice(2)}.json`;
}

/** Page files of a result set are named after the first prefix it answers (see ResultSet). */
export const resultPagesPath = (list: PagedList, set: string, file: number): string =>
  `${list}/pages/${set.slice(0, 2)}/${set.slice(2)}-${file}.json`;

const hex = (n: number) => n.toString(16).padStart(8, '0');

/** Strips leading zeros from a digit string: `0840` → `840`. */
export function canonicalDigits(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}

export const FNV_BASIS = 0x811c9dc5;

/** FNV-1a over UTF-16 code units (the first `n` of them): small, fast, the same in every JavaScript engine. */
export function fnv1a(s: string, basis = FNV_BASIS, n = s.length): number {
  let h = basis;
  for (let i = 0; i < n; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * The bucket of an id (by its canonical decimal digits): spreads any id
 * pattern evenly and works for ids beyond 2^53, which simply find nothing.
 */
export function bucketOf(id: string, buckets: number): number {
  return fnv1a(id) % buckets;
}

/**
 * The search file for a folded query, given each file's first key. Keys are
 * cut so that all keys sharing a small prefix sit in one file; a query that
 * sorts before a file's first key but is a prefix of it belongs to that file,
 * unless a file starts with the query itself (a large prefix's own file).
 */
export function searchFileFor(q: string, starts: readonly string[]): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= q) lo = mid + 1;
    else hi = mid;
  }
  const i = Math.max(lo - 1, 0);
  if (starts[i] === q) return i;
  return i + 1 < starts.length && starts[i + 1]!.startsWith(q) ? i + 1 : i;
}
