// The words rule's index files as the client reads them (docs/search-index.md,
// The words rule): which search file holds a word (a head's in a list listed
// in two levels), what a word is once its search file is read (small, pooled
// or skipped), and the records of its matches, from its search file, its pool
// and the files beside it, or record blocks. words.ts chooses which words to
// read and ranks what they hold.
import { Stale } from './errors.js';
import { blockPath, headPath, poolPath, searchFileFor, searchPath } from './paths.js';
import type { ApiList, EntryRecord, ListInfo, NestedRecord } from './types.js';

/** A file of the tree, parsed: undefined when it is missing or not JSON. `has` says whether reading it costs no request. */
export type Read = (<T>(path: string) => Promise<T | undefined>) & { has?: (path: string) => boolean };

/** A large prefix's set: its total and page 1, shared by the prefixes with those results. */
export type WordSet<R = EntryRecord> = [total: number, page1: R[]];

/** A search file or pool file of the words rule: records in list order, and a search file's large prefixes. */
export interface WordChunk<R = EntryRecord> {
  records: R[];
  large?: Record<string, number>;
  sets?: WordSet<R>[];
  /**
   * Where a large prefix's matches are: its pool file (null: none) and the
   * search files its keys run over (this one and those `also` names); or,
   * when they are more than a pool holds, its skip file.
   */
  pools?: Record<string, string | null>;
  skips?: Record<string, string>;
  /** A skipped word's pair pools: its matches that also have a word of a first letter, by that letter. */
  pairs?: Record<string, Record<string, string>>;
  /** A skipped word's pair heads: page 1 and the total of the Term of the word and a first letter whose pair is more than a pool holds, by that letter. */
  pairHeads?: Record<string, Record<string, string>>;
  /** A skipped word's wide pool: all its matches, where a letter has no pair pool, and they fit two pools. */
  wides?: Record<string, string>;
  /** A pooled prefix: the first keys of the search files beside this one its keys run over. */
  also?: Record<string, string[]>;
  /** A head's file in a list listed in two levels: the first keys of the head's other files. */
  starts?: string[];
}

export interface Block<R> {
  records: R[];
}

/** A skip file: each record block a large prefix has matches in, in list order, as [name, tier 0, 1, 2, 4]. */
export interface Skip {
  blocks: [name: string, exact: number, start: number, word: number, column: number][];
}

/** A paged list's index of the words rule, as one request reads it. */
export interface WordIndex {
  folder: string;
  info: Pick<ListInfo, 'layout' | 'search' | 'heads' | 'vocab'>;
  list: ApiList;
  pageSize: number;
  /** A list under a parent: its parents' chain, which starts its keys (`US/`) and names its records. */
  chain?: string;
}

/** The records a Term may match, read from one or more files: by id (under a parent, of one chain: ids are unique there). */
export type Candidates = Map<string, EntryRecord>;

/** A file the manifest routes to: missing means the manifest may be older than the tree. */
export async function routed<T>(read: Read, path: string): Promise<T> {
  const value = await read<T>(path);
  if (value === undefined) throw new Stale(`missing file ${path}`);
  return value;
}

/** The list's own records of a file's: under a parent, those of its chain. */
export function own(ix: WordIndex, records: readonly unknown[], into: Candidates): void {
  for (const r of records) {
    if (ix.chain === undefined) into.set(String((r as EntryRecord)[0]), r as EntryRecord);
    else if ((r as NestedRecord)[0] === ix.chain) into.set(String((r as NestedRecord)[1][0]), (r as NestedRecord)[1]);
  }
}

/** A search or pool file's records of the list's own. */
export function addChunk(ix: WordIndex, chunk: WordChunk<unknown>, into: Candidates): void {
  own(ix, chunk.records, into);
}

/** A page's records of the list's own: under a parent, those of its chain. */
export const pageOwn = (ix: WordIndex, records: readonly unknown[]): EntryRecord[] =>
  ix.chain === undefined
    ? (records as EntryRecord[])
    : (records as NestedRecord[]).filter(([chain]) => chain === ix.chain).map(([, r]) => r);

/** The first keys of the search files around `key`, and the path of each: a head's expanded in a list listed in two levels. */
async function startsAround(
  read: Read,
  ix: WordIndex,
  key: string,
): Promise<{ starts: string[]; path: (i: number) => string }> {
  const { folder, info } = ix;
  const { layout, search, heads } = info;
  const i = searchFileFor(key, search);
  const dir = heads && Object.hasOwn(heads, search[i]!) ? heads[search[i]!]! : undefined;
  const at = (starts: string[]) => (j: number) => searchPath(folder, layout, starts, j);
  if (dir === undefined) return { starts: search, path: at(search) };
  const head = search[i]!;
  const file = await routed<WordChunk>(read, headPath(folder, layout, head, dir));
  const starts = [...search.slice(0, i + 1), ...(file.starts ?? []), ...search.slice(i + 1)];
  const plain = at(starts);
  return { starts, path: (j) => (starts[j] === head ? headPath(folder, layout, head, dir) : plain(j)) };
}

/** A search file read: its records and sets, its path, and the first keys of the files around it. */
export interface FoundFile {
  chunk: WordChunk<unknown>;
  path: string;
  around: { starts: readonly string[]; path: (i: number) => string };
}

/** The search file of `key` (routed as the phrase rule routes a Term: searchFileFor). */
export async function searchFileOf(read: Read, ix: WordIndex, key: string): Promise<FoundFile> {
  const around = await startsAround(read, ix, key);
  const path = around.path(searchFileFor(key, around.starts));
  return { chunk: await routed<WordChunk<unknown>>(read, path), path, around };
}

/** Whether reading `key`'s search file costs a request (its head's file too, in two levels). */
export function searchFileCached(read: Read, ix: WordIndex, key: string): boolean {
  if (!read.has) return false;
  const { folder, info } = ix;
  const { layout, search, heads } = info;
  const i = searchFileFor(key, search);
  const dir = heads && Object.hasOwn(heads, search[i]!) ? heads[search[i]!]! : undefined;
  if (dir !== undefined) return read.has(headPath(folder, layout, search[i]!, dir)); // then its parts' are found in the cache below
  return read.has(searchPath(folder, layout, search, i));
}

export const setOf = (chunk: WordChunk<unknown>, key: string): WordSet<unknown> | undefined =>
  chunk.large && Object.hasOwn(chunk.large, key) ? chunk.sets?.[chunk.large[key]!] : undefined;

export const skipOf = (chunk: WordChunk<unknown>, key: string): string | undefined =>
  chunk.skips && Object.hasOwn(chunk.skips, key) ? chunk.skips[key] : undefined;

/** What one word of a Term is, once its search file is read. */
export type WordState =
  | { kind: 'small'; chunk: WordChunk<unknown> }
  | { kind: 'pooled'; total: number; paths: string[] }
  | {
      kind: 'skipped';
      total: number;
      skip: string;
      pairs: Record<string, string> | undefined;
      heads: Record<string, string> | undefined;
      wide: string | undefined;
    };

export async function stateOf(read: Read, ix: WordIndex, key: string): Promise<WordState> {
  const found = await searchFileOf(read, ix, key);
  const set = setOf(found.chunk, key);
  if (!set) return { kind: 'small', chunk: found.chunk };
  const [total] = set;
  const skip = skipOf(found.chunk, key);
  const { pairs, pairHeads, wides } = found.chunk;
  const mine = <T>(byKey: Record<string, T> | undefined) =>
    byKey && Object.hasOwn(byKey, key) ? byKey[key] : undefined;
  if (skip !== undefined)
    return { kind: 'skipped', total, skip, pairs: mine(pairs), heads: mine(pairHeads), wide: mine(wides) };
  return { kind: 'pooled', total, paths: poolPaths(ix, key, found) };
}

/** Where a pooled prefix's matches are: its pool file, its own search file and those beside it its keys run over (`also`). */
export function poolPaths(ix: WordIndex, key: string, { chunk, path, around }: FoundFile): string[] {
  const pool = chunk.pools && Object.hasOwn(chunk.pools, key) ? chunk.pools[key]! : null;
  const also = chunk.also && Object.hasOwn(chunk.also, key) ? chunk.also[key]! : [];
  const at = (start: string) => {
    const i = around.starts.indexOf(start);
    if (i < 0) throw new Stale(`no search file starts at ${JSON.stringify(start)}`);
    return around.path(i);
  };
  return [...(pool === null ? [] : [poolPath(ix.folder, pool)]), path, ...also.map(at)];
}

/** The records of a pooled word's matches: its pool and the search files it runs over. */
export async function pooled(read: Read, ix: WordIndex, paths: readonly string[]): Promise<Candidates> {
  const into: Candidates = new Map();
  for (const chunk of await Promise.all(paths.map((p) => routed<WordChunk<unknown>>(read, p))))
    addChunk(ix, chunk, into);
  return into;
}

/** The records of the blocks named, with their places. */
export async function blocks(read: Read, ix: WordIndex, names: readonly string[]): Promise<Candidates> {
  const into: Candidates = new Map();
  const read1 = (name: string) => routed<Block<unknown>>(read, blockPath(ix.folder, name));
  for (const block of await Promise.all(names.map(read1))) own(ix, block.records, into);
  return into;
}

export type Skipped = Extract<WordState, { kind: 'skipped' }>;

/** The records of some words' matches (none skipped), each file read once. */
export async function sourced(read: Read, ix: WordIndex, states: readonly WordState[]): Promise<Candidates> {
  const into: Candidates = new Map();
  const paths = new Set<string>();
  for (const s of states) {
    if (s.kind === 'small') addChunk(ix, s.chunk, into);
    else if (s.kind === 'pooled') for (const p of s.paths) paths.add(p);
  }
  for (const [id, record] of await pooled(read, ix, [...paths])) into.set(id, record);
  return into;
}
