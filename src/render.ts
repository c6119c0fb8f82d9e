// Stage 4, render: the model → every file of the tree as [path, text] pairs,
// section by section. Pure: the writer alone touches the disk.
import { bucketPath, childBucketPath, firstPagePaths, layoutOf, resultPagesPath, MANIFEST, pagePath, searchPath, bucketOf } from './client/paths.js';
import { COUNTED_LISTS, type ListInfo, type Manifest, type PagedList } from './client/types.js';
import { ReflistError } from './errors.js';
import type { CountryNode, Entry } from './model.js';
import { buildSearchIndex, type IndexLayout, type IndexPart, type PartMeta, type SearchIndexOptions } from './search-index.js';
import { hostFiles, type HostOptions } from './hosts.js';
import type { TreeFile } from './tree-files.js';

export interface RenderOptions {
  pageSize: number;
  /** Tuning of the search files' sizes (tests make them tiny to exercise every path). */
  search?: Omit<SearchIndexOptions, 'pageSize'>;
}

/** What a build keeps of a list to update it later: its manifest entry and its index's parts. */
export interface ListState {
  info: ListInfo;
  layout: IndexLayout;
  metas: PartMeta[];
}

/** Entries per id bucket file: small files, and few enough of them. */
const BUCKET_SIZE = 128;

const json = JSON.stringify;

/** `[id, text, counts, children]` with trailing zero counts dropped (see EntryRecord). */
export function encodeRecord(e: Omit<Entry, 'key'>, withChildren: boolean): string {
  let end = e.counts.length;
  while (end > 0 && e.counts[end - 1] === 0) end--;
  const counts = end > 0 || withChildren ? `,[${e.counts.slice(0, end).join(',')}]` : '';
  const children = withChildren ? `,[${(e.children ?? []).map((c) => `[${c.id},${json(c.text)}]`).join(',')}]` : '';
  return `[${e.id},${json(e.text)}${counts}${children}]`;
}

/**
 * The pages of a list (or only those numbered in `only`), each rendered once
 * per variant: without counts and with each System's. An item's JSON is built
 * once per page and split around where the count goes, so the variants share it.
 */
export function* renderPages(
  list: PagedList, entries: Entry[], pageSize: number, systems: readonly string[], only?: ReadonlySet<number>,
): Generator<TreeFile> {
  const pages = Math.max(1, Math.ceil(entries.length / pageSize));
  const variants: (string | undefined)[] = [undefined, ...(list === 'descriptor' ? [] : systems)];
  const tail = (e: Entry) =>
    list === 'division' ? `,"children":[${(e.children ?? []).map((c) => `{"id":${c.id},"text":${json(c.text)}}`).join(',')}]}` : '}';
  for (let p = 1; p <= pages; p++) {
    if (only && !only.has(p)) continue;
    const page = entries.slice((p - 1) * pageSize, p * pageSize);
    const heads = page.map((e) => `{"id":${e.id},"text":${json(e.text)}`);
    const tails = page.map(tail);
    for (const [v, system] of variants.entries()) {
      const items = page.map((e, i) => heads[i] + (v === 0 ? '' : `,"count":${e.counts[v - 1] ?? 0}`) + tails[i]);
      const text = `{"total":${entries.length},"items":[${items.join(',')}]}`;
      const paths = p === 1 ? firstPagePaths(list, system) : [pagePath(list, p, system)];
      for (const path of paths) yield [path, text];
    }
  }
}

/** Id bucket files (or only those numbered in `only`): rows hashed by id, each file sorted by id. */
export function* renderBuckets<T>(
  rows: T[], buckets: number, idOf: (row: T) => number, encode: (row: T) => string, path: (b: number) => string,
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
    yield [path(b), `[${(files.get(b) ?? []).sort((x, y) => idOf(x) - idOf(y)).map(encode).join(',')}]`];
  }
}

/** A power of two, so the buckets (and their files) stay put until a list doubles. */
export const bucketsFor = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, Math.ceil(n / BUCKET_SIZE))));

/** The path of every search file of a list, by its first key (they are named after their neighbours too: searchPath). */
function searchPaths(list: PagedList, layout: string, starts: string[]): Map<string, string> {
  return new Map(starts.map((start, i) => [start, searchPath(list, layout, starts, i)]));
}

/** The files of some parts of a list's Term index, whose search files start as `starts` says. */
export function* indexFiles(list: PagedList, info: ListInfo, parts: IndexPart[]): Generator<TreeFile> {
  const paths = searchPaths(list, info.layout, info.search);
  for (const part of parts) {
    for (const file of part.files()) {
      yield [file.kind === 'search' ? paths.get(file.start)! : resultPagesPath(list, file.name), file.text];
    }
  }
}

/** Every path of some parts of a list's Term index, without rendering them. */
export function indexPaths(list: PagedList, info: ListInfo, metas: PartMeta[]): string[] {
  const paths = searchPaths(list, info.layout, info.search);
  return metas.flatMap((m) => [...m.starts.map((start) => paths.get(start)!), ...m.pages.map((name) => resultPagesPath(list, name))]);
}

export function listInfo(list: PagedList, entries: Entry[], options: { pageSize: number; systems: readonly string[] }, search: string[]): ListInfo {
  const { pageSize, systems } = options;
  const childCount = list === 'division' ? entries.reduce((n, e) => n + (e.children?.length ?? 0), 0) : 0;
  return {
    layout: layoutOf(pageSize, (COUNTED_LISTS as readonly string[]).includes(list) ? systems : undefined),
    total: entries.length,
    pages: Math.max(1, Math.ceil(entries.length / pageSize)),
    buckets: bucketsFor(entries.length),
    ...(list === 'division' ? { childBuckets: bucketsFor(childCount) } : {}),
    search,
  };
}

/** A list's every file: pages, id buckets, the Term index. */
export function* renderList(
  list: PagedList, entries: Entry[], records: string[], systems: readonly string[], options: RenderOptions,
): Generator<TreeFile, ListState> {
  const { pageSize } = options;
  const encode = (e: Entry) => encodeRecord(e, list === 'division');
  const info = listInfo(list, entries, { pageSize, systems }, []);
  yield* renderPages(list, entries, pageSize, systems);
  const positions = entries.map((_, i) => i);
  yield* renderBuckets(positions, info.buckets, (i) => entries[i]!.id, (i) => records[i]!, (b) => bucketPath(list, info.layout, info.buckets, b));
  if (list === 'division') {
    const children = entries.flatMap((e) => (e.children ?? []).map((c) => ({ c, parent: e })));
    yield* renderBuckets(children, info.childBuckets!, (x) => x.c.id,
      (x) => `[${x.c.id},${json(x.c.text)},${encodeRecord(x.parent, false)}]`, (b) => childBucketPath(info.layout, info.childBuckets!, b));
  }
  const { layout, metas, fresh } = buildSearchIndex(entries, records, encode, { ...options.search, pageSize });
  info.search = metas.flatMap((m) => m.starts);
  const names = new Set<string>();
  for (const file of indexFiles(list, info, fresh)) {
    if (names.has(file[0])) throw new ReflistError('UNSAFE_OUTPUT', `two search files hash to ${file[0]}: please report this`);
    names.add(file[0]);
    yield file;
  }
  return { info, layout, metas };
}

export function* renderLocations(countries: CountryNode[]): Generator<TreeFile> {
  const item = (x: { id: number; text: string }) => `{"id":${x.id},"text":${json(x.text)}}`;
  const envelope = (xs: { id: number; text: string }[]) => `{"total":${xs.length},"items":[${xs.map(item).join(',')}]}`;
  yield ['country.json', envelope(countries)];
  for (const c of countries) {
    yield [`country/${c.id}.json`, item(c)];
    yield [`country/${c.id}/state.json`, envelope(c.states)];
    for (const s of c.states) {
      const dir = `country/${c.id}/state/${s.id}`;
      yield [`${dir}.json`, item(s)];
      const rows = s.counties.map((r) => json({ FIPS: r.FIPS, LongitudeCenter: r.LongitudeCenter, county: r.county, latitudeCenter: r.latitudeCenter }));
      yield [`${dir}/county.json`, `{"total":${rows.length ? 1 : 0},"page":1,"records":${rows.length},"rows":[${rows.join(',')}]}`];
      for (const [i, r] of s.counties.entries()) yield [`${dir}/county/${r.FIPS}.json`, rows[i]!];
    }
  }
}

/** About how many files a list renders (the search files are guessed), for a progress bar. */
export function estimateListFiles(list: PagedList, total: number, pageSize: number, systems: number): number {
  const pages = Math.max(1, Math.ceil(total / pageSize)) + 1;
  const variants = list === 'descriptor' ? 1 : 1 + systems;
  return pages * variants + bucketsFor(total) * (list === 'division' ? 2 : 1) + Math.ceil(total / 40);
}

export function estimateLocationFiles(countries: CountryNode[]): number {
  return 1 + countries.reduce((n, c) => n + 2 + c.states.reduce((m, s) => m + 2 + s.counties.length, 0), 0);
}

const NOT_FOUND_PAGE = `<!doctype html><meta charset="utf-8"><title>404 Not Found</title><h1>404 Not Found</h1>\n`;

/** The files at the root: the scripts, 404.html, the host files and lookup.json (last: it names every list's search files). */
export function* renderRoot(manifest: Manifest, scripts: TreeFile[], hosts: HostOptions): Generator<TreeFile> {
  yield* scripts;
  yield ['404.html', NOT_FOUND_PAGE];
  yield* hostFiles(manifest, hosts);
  yield [MANIFEST, json(manifest)];
}
