// Stage 4, render: the model → every file of the tree as [path, text] pairs.
// Pure: the writer alone touches the disk.
import { bucketPath, childBucketPath, firstPagePaths, resultPagesPath, MANIFEST, pagePath, searchPath, bucketOf } from './client/paths.js';
import { FORMAT, PAGED_LISTS, type ListInfo, type Manifest, type PagedList } from './client/types.js';
import { ReflistError } from './errors.js';
import type { Entry, Model } from './model.js';
import { buildSearchIndex, type SearchIndex, type SearchIndexOptions } from './search-index.js';
import { hostFiles } from './hosts.js';

export type TreeFile = [path: string, text: string];

export interface RenderOptions {
  pageSize: number;
  /** Tuning of the search files' sizes (tests make them tiny to exercise every path). */
  search?: Omit<SearchIndexOptions, 'pageSize'>;
  /** The text of lookup-client.js. */
  client: string;
  /**
   * True while the consumer has files enough to be getting on with (a writer
   * thread's backlog is full): then work that yields no file yet is done ahead.
   */
  busy?: () => boolean;
}

/** Entries per id bucket file: small files, and few enough of them. */
const BUCKET_SIZE = 128;

const json = JSON.stringify;

/** `[id, text, counts, children]` with trailing zero counts dropped (see EntryRecord). */
export function encodeRecord(e: Entry, withChildren: boolean): string {
  let end = e.counts.length;
  while (end > 0 && e.counts[end - 1] === 0) end--;
  const counts = end > 0 || withChildren ? `,[${e.counts.slice(0, end).join(',')}]` : '';
  const children = withChildren ? `,[${(e.children ?? []).map((c) => `[${c.id},${json(c.text)}]`).join(',')}]` : '';
  return `[${e.id},${json(e.text)}${counts}${children}]`;
}

/**
 * The pages of a list, each rendered once per variant: without counts and
 * with each System's. An item's JSON is built once per page and split around
 * where the count goes, so the variants share it.
 */
function* renderPages(list: PagedList, entries: Entry[], pageSize: number, systems: readonly string[]): Generator<TreeFile> {
  const pages = Math.max(1, Math.ceil(entries.length / pageSize));
  const variants: (string | undefined)[] = [undefined, ...systems];
  const tail = (e: Entry) =>
    list === 'division' ? `,"children":[${(e.children ?? []).map((c) => `{"id":${c.id},"text":${json(c.text)}}`).join(',')}]}` : '}';
  for (let p = 1; p <= pages; p++) {
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

function* renderBuckets<T>(rows: T[], buckets: number, idOf: (row: T) => number, encode: (row: T) => string, path: (b: number) => string) {
  const files: T[][] = Array.from({ length: buckets }, () => []);
  for (const row of rows) files[bucketOf(String(idOf(row)), buckets)]!.push(row);
  for (let b = 0; b < buckets; b++) {
    yield [path(b), `[${files[b]!.sort((x, y) => idOf(x) - idOf(y)).map(encode).join(',')}]`] as TreeFile;
  }
}

/** A power of two, so the buckets (and their files) stay put until a list doubles. */
const bucketsFor = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, Math.ceil(n / BUCKET_SIZE))));

function* renderList(list: PagedList, model: Model, options: RenderOptions, info: ListInfo): Generator<TreeFile> {
  const { pageSize } = options;
  const entries = model[list];
  const encode = (e: Entry) => encodeRecord(e, list === 'division');
  const records = entries.map(encode);
  // The search index is computed a step at a time, whenever the writer has
  // enough files to be getting on with, so the two threads overlap.
  const indexing = buildSearchIndex(entries, records, encode, { ...options.search, pageSize });
  let step: IteratorResult<undefined, SearchIndex> = { done: false, value: undefined };
  const busy = options.busy ?? (() => false);
  function* pagesAndBuckets(): Generator<TreeFile> {
    yield* renderPages(list, entries, pageSize, list === 'descriptor' ? [] : model.systems.map((s) => s.id));
    const positions = entries.map((_, i) => i);
    yield* renderBuckets(positions, info.buckets, (i) => entries[i]!.id, (i) => records[i]!, (b) => bucketPath(list, b));
    if (list === 'division') {
      const children = entries.flatMap((e) => (e.children ?? []).map((c) => ({ c, parent: e })));
      yield* renderBuckets(children, info.childBuckets!, (x) => x.c.id,
        (x) => `[${x.c.id},${json(x.c.text)},${encodeRecord(x.parent, false)}]`, childBucketPath);
    }
  }
  for (const file of pagesAndBuckets()) {
    while (!step.done && busy()) step = indexing.next();
    yield file;
  }
  while (!step.done) step = indexing.next();
  const index = step.value;
  info.search = index.metas.flatMap((m) => m.starts);
  const names = new Set<string>();
  for (const file of index.fresh.flatMap((p) => [...p.files()])) {
    const path = file.kind === 'search' ? searchPath(list, file.start) : resultPagesPath(list, file.set, file.file);
    if (names.has(path)) throw new ReflistError('UNSAFE_OUTPUT', `two search files hash to ${path}: please report this`);
    names.add(path);
    yield [path, file.text];
  }
}

function* renderLocations(model: Model): Generator<TreeFile> {
  const item = (x: { id: number; text: string }) => `{"id":${x.id},"text":${json(x.text)}}`;
  const envelope = (xs: { id: number; text: string }[]) => `{"total":${xs.length},"items":[${xs.map(item).join(',')}]}`;
  yield ['country.json', envelope(model.countries)];
  for (const c of model.countries) {
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

/** About how many files renderTree yields (the search files are guessed), for a progress bar. */
export function estimateFiles(model: Model, pageSize: number): number {
  const pages = (n: number) => Math.max(1, Math.ceil(n / pageSize)) + 1;
  let files = 10;
  for (const list of PAGED_LISTS) {
    const entries = model[list];
    const variants = list === 'descriptor' ? 1 : 1 + model.systems.length;
    files += pages(entries.length) * variants + bucketsFor(entries.length) * (list === 'division' ? 2 : 1);
    files += Math.ceil(entries.length / 40);
  }
  for (const c of model.countries) {
    files += 2;
    for (const s of c.states) files += 2 + s.counties.length;
  }
  return files + 1;
}

const NOT_FOUND_PAGE = `<!doctype html><meta charset="utf-8"><title>404 Not Found</title><h1>404 Not Found</h1>\n`;

/**
 * Every file of the tree. The locations come first: many small files, quick
 * to render and slow to write, they keep a writer busy while the lists'
 * search indexes are computed. lookup.json comes last: the search index
 * starts are known only then.
 */
export function* renderTree(model: Model, options: RenderOptions): Generator<TreeFile> {
  const { pageSize } = options;
  yield* renderLocations(model);
  const lists = {} as Record<PagedList, ListInfo>;
  for (const list of PAGED_LISTS) {
    const entries = model[list];
    const childCount = list === 'division' ? entries.reduce((n, e) => n + (e.children?.length ?? 0), 0) : 0;
    lists[list] = {
      total: entries.length,
      pages: Math.max(1, Math.ceil(entries.length / pageSize)),
      buckets: bucketsFor(entries.length),
      ...(list === 'division' ? { childBuckets: bucketsFor(childCount) } : {}),
      search: [],
    };
    yield* renderList(list, model, options, lists[list]);
  }
  yield ['lookup-client.js', options.client];
  yield ['404.html', NOT_FOUND_PAGE];
  const manifest: Manifest = { format: FORMAT, pageSize, systems: model.systems, lists: { ...lists, country: { total: model.countries.length } } };
  yield* hostFiles(manifest);
  yield [MANIFEST, json(manifest)];
}
