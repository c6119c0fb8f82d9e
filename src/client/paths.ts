// Where every file of the tree lives. The builder writes these paths and the
// client reads them, so both take them from here.
import { FORMAT } from './types.js';

/** No directory holds more than this many numbered files (docs/contract.md §3 caps a folder at 10,000 entries). */
export const FILES_PER_DIR = 1000;

export const MANIFEST = 'lookup.json';

/**
 * The suffix of the files behind the client: JSON stored gzip-compressed. They
 * are read only by the client, which inflates them, so a host stores and sends
 * a fifth of their bytes, and a tree keeps to hosts' caps with fewer, larger
 * files. Public files stay plain JSON.
 */
export const STORED_GZIP = '.json.gz';

/** Whether a path of the tree is stored gzip-compressed. */
export const storedCompressed = (path: string): boolean => path.endsWith(STORED_GZIP);

/**
 * Page p of a list's folder; `variant` is a group's (`system/gbif`: the
 * group parameter's name in lower case, then the group's id).
 */
export function pagePath(list: string, page: number, variant?: string): string {
  const base = variant === undefined ? list : `${list}/${variant}`;
  return `${base}/page/${page}.json`;
}

/** Page 1 also lives at `{list}.json` and `{list}/{variant}.json`. */
export function firstPagePaths(list: string, variant?: string): string[] {
  return variant === undefined
    ? [`${list}.json`, `${list}/page/1.json`]
    : [`${list}/${variant}.json`, `${list}/${variant}/page/1.json`];
}

/** A list's own file under the folder of its parents' items (`country/US/` + `state` → `country/US/state.json`; '' at the root). */
export const listFile = (folder: string, path: string): string => `${folder}${path}.json`;

/** An item's own file (docs/lists.md `items`): `country/US/state/CA.json`. */
export const itemFile = (folder: string, path: string, id: string | number): string => `${folder}${path}/${id}.json`;

/**
 * The folder of the lists under one item of the list at `path`: `country/US/`,
 * then `country/US/state/CA/`. A list under the item is at
 * `{folder}{its path}.json` (docs/tree.md).
 */
export const itemFolder = (path: string, id: string): string => `${path}/${id}/`;

/**
 * The folder of the internal files (Id buckets, Term index) of a paged list
 * under a parent, given the paths from its root list down to it: under the
 * root's folder, so that the section keeps them, in a folder no id can name
 * (`~`): `country/~city`, `country/~state~city`.
 */
export function nestedFolder(paths: readonly string[]): string {
  return `${paths[0]}/~${paths.slice(1).join('~')}`;
}

/**
 * What names an item of a paged list under a parent in its list's Id buckets
 * and Term index, all its parents' items together: the chain of its parents'
 * canonical ids, `/`, and its id or a key (`US/5`, `US/san jose`). Neither
 * ids nor folded texts hold a `/`.
 */
export const scoped = (chain: string, key: string): string => `${chain}/${key}`;

function numbered(dir: string, n: number): string {
  return `${dir}/${Math.floor(n / FILES_PER_DIR)}/${n % FILES_PER_DIR}${STORED_GZIP}`;
}

/**
 * A list's layout (lookup.json's `lists.{list}.layout`): a name for what an
 * answer takes from lookup.json besides the file it reads, the tree's format,
 * the page size, for a list with counts the systems in their order, and for
 * a list that declares them its search text and exact matches (`ranking`: a
 * large prefix's stored answer is ranked by them, a small one's by the
 * client). Every internal path has it, so no file of a build with another
 * layout is ever read in its place (docs/tree.md, Across a deploy).
 */
export function layoutOf(pageSize: number, systems: readonly string[] | undefined, ranking?: object): string {
  const layout = [FORMAT, pageSize, systems ?? []];
  return nameOf(JSON.stringify(ranking ? [...layout, ranking] : layout));
}

/**
 * Id buckets live in a folder named after the list's layout and bucket count:
 * a bucket is whole for the ids it was cut for, so one at this path answers
 * every id that hashes to it, whichever build wrote it.
 */
export const bucketPath = (list: string, layout: string, buckets: number, bucket: number): string =>
  numbered(`${list}/id/${layout}-${buckets}`, bucket);
/** A list's children by their own ids, each with its parent's record. */
export const childBucketPath = (list: string, layout: string, buckets: number, bucket: number): string =>
  numbered(`${list}/child/${layout}-${buckets}`, bucket);

/** A 64-bit hex name for a key, the same in the builder and every client. */
export const nameOf = (key: string): string => hex(fnv1a(key)) + hex(fnv1a(key, 0x01000193));

/** The length of the common prefix of a and b. */
export function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * Search file i of a list, given every file's first key. Which queries
 * searchFileFor sends to file i depends on its first key, the next file's,
 * and how long a prefix it shares with the previous one's (none for the
 * first file); its name is made of those and the layout. So a search file at
 * this path answers every query routed to it, whichever build wrote it: the
 * routes of a file that changed are another name.
 */
export function searchPath(list: string, layout: string, starts: readonly string[], i: number): string {
  const shared = i === 0 ? -1 : commonPrefixLength(starts[i - 1]!, starts[i]!);
  const name = nameOf(JSON.stringify([layout, shared, starts[i], starts[i + 1] ?? null]));
  return `${list}/search/${name.slice(0, 2)}/${name.slice(2)}${STORED_GZIP}`;
}

/**
 * The search file of a head (a large one-unit prefix) in a list listed in two
 * levels (lookup.json's `heads`): it also holds the first keys of the head's
 * other files, `dir` names them, and they decide which queries it answers
 * (those of the head alone, and the keys between it and its first file,
 * which match nothing). So its name is made of the head and `dir`.
 */
export function headPath(list: string, layout: string, head: string, dir: string): string {
  const name = nameOf(JSON.stringify([layout, 'head', head, dir]));
  return `${list}/search/${name.slice(0, 2)}/${name.slice(2)}${STORED_GZIP}`;
}

/** A page file of result sets: named after its content (see ResultSet), so it never changes at its path. */
export const resultPagesPath = (list: string, name: string): string =>
  `${list}/pages/${name.slice(0, 2)}/${name.slice(2)}${STORED_GZIP}`;

/** Where a content-named file of the words rule's index lives (docs/tree.md): a pool, a skip or a record block file. */
const named = (list: string, kind: 'pools' | 'skips' | 'blocks', name: string): string =>
  `${list}/${kind}/${name.slice(0, 2)}/${name.slice(2)}${STORED_GZIP}`;
export const poolPath = (list: string, name: string): string => named(list, 'pools', name);
export const skipPath = (list: string, name: string): string => named(list, 'skips', name);
export const blockPath = (list: string, name: string): string => named(list, 'blocks', name);

/** The bucket of the typo vocabulary holding the words that start with a word's first code point. */
export const vocabBucket = (word: string, buckets: number): number =>
  fnv1a(String.fromCodePoint(word.codePointAt(0)!)) % buckets;

/** A bucket of a list's typo vocabulary, in a folder named after the list's layout and bucket count, like the Id buckets. */
export const vocabPath = (list: string, layout: string, buckets: number, bucket: number): string =>
  numbered(`${list}/vocab/${layout}-${buckets}`, bucket);

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
 * A query before every first key belongs to the first file.
 */
export function searchFileFor(q: string, starts: readonly string[]): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= q) lo = mid + 1;
    else hi = mid;
  }
  const i = lo - 1;
  if (i < 0 || starts[i] === q) return Math.max(i, 0);
  return i + 1 < starts.length && starts[i + 1]!.startsWith(q) ? i + 1 : i;
}

/**
 * The path segment of a group's page variants (`{list}/system/gbif.json`):
 * the group parameter's name in lower case (`system` for System).
 */
export const groupSegment = (param: string): string => param.toLowerCase();
