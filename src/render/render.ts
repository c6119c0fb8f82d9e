// Stage 4, render: the model → every file of the tree as [path, text] pairs,
// section by section. Pure: the writer alone touches the disk, and the
// records store a build hands it (write/spill.ts) its own temp file.
import { compareIds, fold } from '../client/fold.js';
import { textOf } from '../client/search.js';
import {
  bucketPath,
  childBucketPath,
  firstPagePaths,
  headPath,
  itemFile,
  layoutOf,
  resultPagesPath,
  MANIFEST,
  pagePath,
  searchPath,
  bucketOf,
  poolPath,
  skipPath,
  blockPath,
  vocabPath,
} from '../client/paths.js';
import type { ListInfo, Manifest } from '../client/types.js';
import type { ListSpec } from '../config/declaration.js';
import { ReflistError } from '../errors.js';
import type { Entry, Id, Value } from '../sources/model.js';
import { encodeRecord, holdAll, recordShape, type RecordStore } from '../sources/record.js';
import { cacheLines, type ListState } from '../plan/cache.js';
import {
  buildSearchIndex,
  directoryOf,
  LABELS,
  type Directory,
  type Encode,
  type IndexEntry,
  type IndexPart,
  type PartMeta,
  type Searched,
  type SearchFile,
  type SearchIndex,
  type SearchIndexOptions,
} from '../search/index.js';
import { hostFiles, type HostOptions } from './hosts.js';
import type { Output, TreeFile } from '../tree-files.js';

export interface RenderOptions {
  pageSize: number;
  /** Tuning of the search files' sizes (tests make them tiny to exercise every path). */
  search?: Omit<SearchIndexOptions, 'pageSize'>;
  /** Where a list's records are kept while it is rendered: held as strings unless a build spills them (write/spill.ts). */
  records?: RecordStore;
}

/** Entries per id bucket file: small files, and few enough of them. */
const BUCKET_SIZE = 1024;

const json = JSON.stringify;

/** The groups a list's pages are rendered for, and the path segment of their variants (`system` for System). */
export interface GroupVariants {
  segment: string;
  ids: readonly string[];
}

/** An item's own keys as JSON in the declared order, without the closing brace: count and children may follow. */
export function itemHead(list: ListSpec): (e: { id: Id; text: string; fields?: Value[] }) => string {
  // Each key's name is made once; an item is then one concatenation (this runs for every item of every page).
  const parts = list.keys.map((key, k): [prefix: string, value: 'id' | 'label' | number] => {
    const prefix = `${k === 0 ? '{' : ','}${json(key)}:`;
    if (key === list.id.key) return [prefix, 'id'];
    if (key === list.label.key) return [prefix, 'label'];
    return [prefix, list.fields.findIndex((f) => f.key === key)];
  });
  return (e) => {
    let head = '';
    for (const [prefix, value] of parts)
      head += prefix + json(value === 'id' ? e.id : value === 'label' ? e.text : e.fields![value]);
    return head;
  };
}

/** A paged list's item as JSON in two parts, its own keys and the rest (children, the closing brace): a count goes between. */
export function itemParts(
  list: ListSpec,
  children: ListSpec | undefined,
): { head: (e: Entry) => string; tail: (e: Entry) => string } {
  const head = itemHead(list);
  const child = children && itemHead(children);
  const childrenKey = list.children && json(list.children.key);
  const tail = child
    ? (e: Entry) => `,${childrenKey}:[${(e.children ?? []).map((c) => child(c) + '}').join(',')}]}`
    : () => '}';
  return { head, tail };
}

/** The item files of a paged list declared with `items`: each item without a count, with its children. */
export function* renderItems(
  list: ListSpec,
  children: ListSpec | undefined,
  entries: Iterable<Entry>,
): Generator<TreeFile> {
  if (!list.items) return;
  const { head, tail } = itemParts(list, children);
  for (const e of entries) yield [itemFile('', list.path, e.id), head(e) + tail(e)];
}

/**
 * The pages of a list (or only those numbered in `only`), each rendered once
 * per variant: without counts and, for a list with counts, with each group's.
 * An item's JSON is built once per page and split around where the count
 * goes, so the variants share it.
 */
export function* renderPages(
  list: ListSpec,
  children: ListSpec | undefined,
  entries: Entry[],
  pageSize: number,
  groups: GroupVariants,
  only?: ReadonlySet<number>,
): Generator<TreeFile> {
  const pages = Math.max(1, Math.ceil(entries.length / pageSize));
  const variants: (string | undefined)[] = [
    undefined,
    ...(list.counts ? groups.ids.map((g) => `${groups.segment}/${g}`) : []),
  ];
  const { head, tail } = itemParts(list, children);
  for (let p = 1; p <= pages; p++) {
    if (only && !only.has(p)) continue;
    const page = entries.slice((p - 1) * pageSize, p * pageSize);
    const heads = page.map(head);
    const tails = page.map(tail);
    for (const [v, variant] of variants.entries()) {
      const items = page.map((e, i) => heads[i] + (v === 0 ? '' : `,"count":${e.counts[v - 1] ?? 0}`) + tails[i]);
      const text = `{"total":${entries.length},"items":[${items.join(',')}]}`;
      const paths = p === 1 ? firstPagePaths(list.path, variant) : [pagePath(list.path, p, variant)];
      for (const path of paths) yield [path, text];
    }
  }
}

/** Id bucket files (or only those numbered in `only`): rows hashed by id, each file sorted by id. */
export function* renderBuckets<T>(
  rows: T[],
  buckets: number,
  idOf: (row: T) => Id,
  encode: (row: T) => string,
  path: (b: number) => string,
  only?: ReadonlySet<number>,
): Generator<TreeFile> {
  const files = new Map<number, T[]>();
  for (const row of rows) {
    const b = bucketOf(String(idOf(row)), buckets);
    if (only && !only.has(b)) continue;
    const file = files.get(b);
    if (file) file.push(row);
    else files.set(b, [row]);
  }
  for (let b = 0; b < buckets; b++) {
    if (only && !only.has(b)) continue;
    yield [
      path(b),
      `[${(files.get(b) ?? [])
        .sort((x, y) => compareIds(idOf(x), idOf(y)))
        .map(encode)
        .join(',')}]`,
    ];
  }
}

/** A power of two, so the buckets (and their files) stay put until a list doubles. */
export const bucketsFor = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, Math.ceil(n / BUCKET_SIZE))));

/**
 * The path of every search file of a list, by its first key: named after its
 * neighbours (searchPath), or, for a head in a list listed in two levels,
 * after its directory (headPath).
 */
function searchPaths(list: string, layout: string, dir: Directory): Map<string, string> {
  const { starts, heads } = dir;
  return new Map(
    starts.map((start, i) => [
      start,
      heads && Object.hasOwn(heads, start)
        ? headPath(list, layout, start, heads[start]!)
        : searchPath(list, layout, starts, i),
    ]),
  );
}

/** The files of some parts of a list's Term index, listed as `dir` says. */
export function* indexFiles(list: string, layout: string, dir: Directory, parts: IndexPart[]): Generator<TreeFile> {
  const paths = searchPaths(list, layout, dir);
  for (const part of parts) {
    for (const file of part.files()) {
      if (file.kind === 'pages') yield [resultPagesPath(list, file.name), file.text];
      else if (file.kind !== 'search') yield wordFile(list, layout, file);
      else {
        // A head's file holds its directory: the first keys of its other files.
        const heads = dir.dirs.get(file.start);
        yield [paths.get(file.start)!, heads ? `${file.text.slice(0, -1)},"starts":${json(heads)}}` : file.text];
      }
    }
  }
}

/** A file of the words rule's index (search/words.ts) at its path. */
export function wordFile(
  list: string,
  layout: string,
  file: Exclude<SearchFile, { kind: 'search' | 'pages' }>,
): TreeFile {
  switch (file.kind) {
    case 'pool':
      return [poolPath(list, file.name), file.text];
    case 'skip':
      return [skipPath(list, file.name), file.text];
    case 'block':
      return [blockPath(list, file.name), file.text];
    case 'vocab':
      return [vocabPath(list, layout, file.buckets, file.bucket), file.text];
  }
}

/** Every path of some parts of a list's Term index, listed as `dir` says, without rendering them. */
export function indexPaths(list: string, layout: string, dir: Directory, metas: PartMeta[]): string[] {
  const paths = searchPaths(list, layout, dir);
  return metas.flatMap((m) => [
    ...m.starts.map((start) => paths.get(start)!),
    ...m.pages.map((name) => resultPagesPath(list, name)),
  ]);
}

/** What lookup.json says of a list's search files (see Directory). */
export const searchInfo = (dir: Directory): Pick<ListInfo, 'search' | 'heads'> =>
  dir.heads ? { search: dir.search, heads: dir.heads } : { search: dir.search };

export function listInfo(
  list: ListSpec,
  entries: Entry[],
  options: { pageSize: number; groups: readonly string[] },
  search: string[],
): ListInfo {
  const { pageSize, groups } = options;
  const childCount = list.children ? entries.reduce((n, e) => n + (e.children?.length ?? 0), 0) : 0;
  return {
    layout: layoutOf(pageSize, list.counts ? groups : undefined, rankingOf(list)),
    total: entries.length,
    pages: Math.max(1, Math.ceil(entries.length / pageSize)),
    buckets: bucketsFor(entries.length),
    ...(list.children ? { childBuckets: bucketsFor(childCount) } : {}),
    search,
  };
}

/** How a list ranks, where it declares more than its labels and columns (see layoutOf): its search text and exact matches. */
export function rankingOf(list: ListSpec): object | undefined {
  const { search } = list;
  if (!search) return undefined;
  // The words rule's index is of another kind than the phrase rule's: its files never answer for the other's.
  if (!search.phrase) return { text: search.text?.parts ?? null, exact: search.exact === true, words: true };
  return search.text || search.exact ? { text: search.text?.parts ?? null, exact: search.exact === true } : undefined;
}

/**
 * What a list's Term matches besides its labels, entry by entry (docs/lists.md,
 * Term search): each entry's search text, made as the client makes it from
 * the item's fields, and its searched columns, folded.
 */
export function searchedOf(list: ListSpec, entries: readonly { text: string; fields?: Value[] }[]): Searched {
  const { search } = list;
  if (!search || (search.phrase && !search.text && !search.exact && search.fields.length === 0)) return LABELS;
  const { fields, text } = search;
  return {
    exact: search.exact === true,
    ...(search.phrase ? {} : { words: true, typos: !search.noTypos }),
    ...(text ? { texts: entries.map((e) => fold(textOf({ text: text.parts }, e.text, (i) => e.fields![i]))) } : {}),
    ...(fields.length > 0 ? { columns: entries.map((e) => fields.map((i) => fold(String(e.fields![i] ?? '')))) } : {}),
  };
}

/**
 * A list's every file: pages, id buckets, the Term index, and its lines for
 * the build cache where it keeps them (`cached`). The entries (in list order)
 * are handed over: a list without children empties the array, keeping only
 * their keys for its index, which is where the build of a large list peaks.
 */
export function* renderList(
  list: ListSpec,
  children: ListSpec | undefined,
  entries: Entry[],
  groups: GroupVariants,
  options: RenderOptions,
  cached: boolean,
): Generator<Output, ListState> {
  const { pageSize } = options;
  const shape = recordShape(list);
  const folder = list.path;
  const records = (options.records ?? holdAll)(entries.length, (e) => encodeRecord(entries[e]!, shape));
  try {
    const info = listInfo(list, entries, { pageSize, groups: groups.ids }, []);
    yield* renderPages(list, children, entries, pageSize, groups);
    yield* renderItems(list, children, entries);
    yield* renderBuckets(
      entries.map((_, i) => i),
      info.buckets,
      (i) => entries[i]!.id,
      (i) => records.at(i),
      (b) => bucketPath(folder, info.layout, info.buckets, b),
    );
    // A list with children has child buckets (listInfo).
    const { childBuckets } = info;
    if (childBuckets !== undefined) {
      // A child's row carries its parent's record without the other children.
      const parentShape = { children: false, fields: shape.fields };
      const all = entries.flatMap((e) => (e.children ?? []).map((c) => ({ c, parent: e })));
      yield* renderBuckets(
        all,
        childBuckets,
        (x) => x.c.id,
        (x) => `[${json(x.c.id)},${json(x.c.text)},${encodeRecord(x.parent, parentShape)}]`,
        (b) => childBucketPath(folder, info.layout, childBuckets, b),
      );
    }
    if (cached) yield* cacheLines(list.name, entries, records);
    const searched = list.search && searchedOf(list, entries);
    // The index reads an entry's key alone, and its children in a list with children: the rest goes before it is built.
    const indexed: readonly IndexEntry[] = list.children ? entries : entries.map(({ key }) => key);
    // Emptied in place: a generator holds the arguments it was called with for as long as it runs.
    if (indexed !== entries) entries.length = 0;
    // Only an entry with children is encoded anew, and such a list's entries are all kept.
    const encode: Encode = (e, children) => encodeRecord({ ...(indexed[e] as Entry), children }, shape);
    // A list without search has no index: no request reads one.
    const index = searched
      ? buildSearchIndex(indexed, records, encode, { ...options.search, pageSize }, searched)
      : { layout: { rootLarge: false, heads: [] }, metas: [], fresh: [] };
    Object.assign(info, yield* searchFiles(folder, info.layout, index, options));
    return { info, layout: index.layout, metas: index.metas };
  } finally {
    records.close();
  }
}

/** The files of a list's Term index, and what lookup.json says of it. */
export function* searchFiles(
  folder: string,
  layout: string,
  index: SearchIndex,
  options: RenderOptions,
): Generator<TreeFile, Pick<ListInfo, 'search' | 'heads' | 'vocab'>> {
  const dir = directoryOf(index.metas, index.layout, options.search?.directoryStarts);
  const names = new Set<string>();
  for (const file of indexFiles(folder, layout, dir, index.fresh)) {
    if (names.has(file[0])) {
      // A file named after its content (a pool or skip file two parts have alike) is the same file; a search file is named after its routes.
      if (!file[0].includes('/search/')) continue;
      throw new ReflistError('INTERNAL', `two search files hash to ${file[0]}: please report this`);
    }
    names.add(file[0]);
    yield file;
  }
  for (const file of index.whole ?? [])
    if (file.kind !== 'search' && file.kind !== 'pages') yield wordFile(folder, layout, file);
  return { ...searchInfo(dir), ...(index.vocab ? { vocab: index.vocab } : {}) };
}

const NOT_FOUND_PAGE = `<!doctype html><meta charset="utf-8"><title>404 Not Found</title><h1>404 Not Found</h1>\n`;

/** The files at the root: the scripts, 404.html, the host files and lookup.json (last: it names every list's search files). */
export function* renderRoot(manifest: Manifest, scripts: TreeFile[], hosts: HostOptions): Generator<TreeFile> {
  yield* scripts;
  yield ['404.html', NOT_FOUND_PAGE];
  yield* hostFiles(manifest, hosts);
  yield [MANIFEST, json(manifest)];
}
