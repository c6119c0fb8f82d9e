// The pipeline: read → validate → render → write, with a report of what it did.
// A section whose sources are unchanged since the served tree is neither
// read nor rendered: the writer keeps its files (see tree.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareStrings } from './client/fold.js';
import { FORMAT, PAGED_LISTS, type PagedList } from './client/types.js';
import { optionsKey, readCache, readLines, readSource, type CacheMeta } from './cache.js';
import { changedWindow, windowEdits } from './delta.js';
import { ReflistError, ReflistErrors } from './errors.js';
import type { CountryNode, ListItem } from './model.js';
import { digestFile, readTableFile } from './read.js';
import { createProgress, type Progress } from './progress.js';
import { estimateListFiles, estimateLocationFiles, type RenderOptions } from './render.js';
import { SECTIONS, type Section, type TreeFile } from './tree-files.js';
import { planBuild, type How, type ListChange, type Served } from './plan.js';
import { renderTree } from './tree.js';
import { changedByEdits, updatable, type Changed, type ServedList } from './update.js';
import { Checker, SECTION_SOURCES, SOURCES, validateList, validateLocations, validateSystems, type SourceName, type Tables } from './validate.js';
import { openTree } from './write-threaded.js';
import { cacheDir, servedGeneration, type WriteReport } from './write.js';

/** Items per page of every paged list when none is given (docs/contract.md §1.3). */
export const DEFAULT_PAGE_SIZE = 30;

export interface BuildOptions {
  /** The folder of source CSVs (docs/contract.md §5). */
  sources: string;
  /** The output folder: a link to the generation the build swaps in (docs/incremental.md). */
  out: string;
  /** Items per page; 30 by default. */
  pageSize?: number;
  search?: RenderOptions['search'];
  /** Also write `.gz` and `.br` siblings (see WriteOptions). */
  compress?: boolean;
  /** Where nginx.conf sends the requests only the client answers (Term, Id, child): a `reflist serve`. */
  nginxUpstream?: string;
  log?: (line: string) => void;
  progress?: Progress;
}

export interface BuildReport extends WriteReport {
  rows: Record<string, number>;
  absent: string[];
  /** How each section was made: kept as served, edited or updated in place, or rendered afresh. */
  sections: Record<Section, How>;
  ms: number;
}

/** lib/tree/: the scripts every tree carries at its root (the client, the host adapters), made by `npm run compile`. */
const TREE_SCRIPTS = fileURLToPath(new URL('../lib/tree/', import.meta.url));

export function treeScripts(): TreeFile[] {
  const client = join(TREE_SCRIPTS, 'lookup-client.js');
  if (!existsSync(client)) throw new ReflistError('INVALID_OPTION', `${client} is missing: run npm run compile`);
  return readdirSync(TREE_SCRIPTS, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.js'))
    .sort()
    .map((path): TreeFile => [path.split(sep).join('/'), readFileSync(join(TREE_SCRIPTS, path), 'utf8')]);
}

/** Reads the named sources (all by default): an absent file is an empty list. */
export function readSources(dir: string, names: readonly SourceName[] = SOURCES): { tables: Tables; errors: ReflistError[] } {
  if (!existsSync(dir)) throw new ReflistError('INVALID_OPTION', `--sources: no such folder ${dir}`);
  const tables: Tables = {};
  const errors: ReflistError[] = [];
  for (const name of names) {
    const file = `${name}.csv`;
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    const read = readTableFile(file, path);
    tables[name] = read.table;
    errors.push(...read.errors);
  }
  return { tables, errors };
}

const byLocation = (a: ReflistError, b: ReflistError) =>
  compareStrings(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0);

/** The served tree's build cache, when it was made with the same options. */
interface ServedBuild {
  meta: CacheMeta;
  lines(list: PagedList): string[] | undefined;
  source(list: PagedList): Uint8Array | undefined;
}

function servedBuild(out: string, key: string): ServedBuild | undefined {
  const served = servedGeneration(out);
  const dir = served && cacheDir(served);
  const meta = dir ? readCache(dir, key) : undefined;
  return meta && { meta, lines: (list) => readLines(dir!, list), source: (list) => readSource(dir!, list) };
}

/**
 * What changed since the served tree: the sections to make again, and, for a
 * list whose own file alone changed by a few records' text, the entries those
 * edits change in the served list.
 */
interface Changes {
  digests: Record<SourceName, string | null>;
  changed: Set<Section>;
  edited: Partial<Record<PagedList, { served: ServedList; changed: Changed[]; source: Uint8Array }>>;
}

function findChanges(dir: string, served: ServedBuild | undefined): Changes {
  const digests = Object.fromEntries(SOURCES.map((name) => {
    const path = join(dir, `${name}.csv`);
    return [name, existsSync(path) ? digestFile(path) : null];
  })) as Record<SourceName, string | null>;
  const differs = (name: SourceName) => !served || served.meta.digests[name] !== digests[name];
  const changed = new Set(SECTIONS.filter((s) => SECTION_SOURCES[s].some(differs)));
  // A list whose own file alone changed may be updated from the records that changed (delta.ts).
  const edited: Changes['edited'] = {};
  for (const list of PAGED_LISTS) {
    if (!served || !changed.has(list) || !updatable(list) || SECTION_SOURCES[list].some((n) => n !== list && differs(n))) continue;
    const [was, now] = [served.source(list), readSource(dir, list)];
    const window = was && now && changedWindow(was, now);
    const edits = window && windowEdits(list, window);
    const state = served.meta.lists[list];
    const lines = edits && state && served.lines(list);
    if (!edits || !state || !lines) continue;
    // Applied to the served list when every edit names one of its entries; else the source is read whole.
    const entries = changedByEdits(edits, { state, lines });
    if (entries) edited[list] = { served: { state, lines }, changed: entries, source: now! };
  }
  return { digests, changed, edited };
}

/**
 * The sources of the sections to make again, read and checked before
 * anything is rendered (all but the lists changed from their edits); every
 * error found throws at once.
 */
function checkChanges(dir: string, { changed, edited }: Changes) {
  const needed = (name: SourceName) =>
    name === 'system' || [...changed].some((s) => !edited[s as PagedList] && (SECTION_SOURCES[s] as readonly string[]).includes(name));
  const { tables, errors } = readSources(dir, SOURCES.filter(needed));
  const check = new Checker(tables, errors);
  const systems = validateSystems(check);
  const countries = changed.has('locations') ? validateLocations(check) : undefined;
  const lists: Partial<Record<PagedList, ListChange>> = {};
  const items: Partial<Record<PagedList, ListItem[]>> = {};
  const sources: Partial<Record<PagedList, Uint8Array>> = {};
  for (const list of PAGED_LISTS) {
    if (!changed.has(list)) continue;
    const edit = edited[list];
    if (edit) (lists[list] = { served: edit.served, changed: edit.changed }), (sources[list] = edit.source);
    else {
      lists[list] = { items: (items[list] = validateList(list, check, systems)) };
      const source = updatable(list) ? readSource(dir, list) : undefined;
      if (source) sources[list] = source;
    }
  }
  if (check.errors.length > 0) throw new ReflistErrors(check.errors.sort(byLocation));
  return { systems, countries, lists, items, sources };
}

/** What the plan needs of the served build: every list's state, and the entries of those that may change in place. */
function servedForPlan(served: ServedBuild | undefined, lists: Partial<Record<PagedList, ListChange>>): Served | undefined {
  if (!served) return undefined;
  const lines: Served['lines'] = {};
  for (const list of PAGED_LISTS) {
    const change = lists[list];
    if (change && 'items' in change && updatable(list)) {
      const found = served.lines(list);
      if (found) lines[list] = found;
    }
  }
  return { states: served.meta.lists, lines, countries: served.meta.countries };
}

export async function build(buildOptions: BuildOptions): Promise<BuildReport> {
  const options = { ...buildOptions, pageSize: buildOptions.pageSize ?? DEFAULT_PAGE_SIZE };
  const started = performance.now();
  const log = options.log ?? (() => {});
  const progress = options.progress ?? createProgress(undefined);
  // Opened first, so the writer thread starts while the sources are read; it
  // writes nothing until the sources have passed every check.
  const tree = openTree(options.out, { compress: options.compress });
  try {
    progress.phase('reading and checking sources');
    if (!existsSync(options.sources)) throw new ReflistError('INVALID_OPTION', `--sources: no such folder ${options.sources}`);
    const key = optionsKey({ format: FORMAT, pageSize: options.pageSize, search: options.search ?? {}, compress: options.compress ?? false });
    const served = servedBuild(options.out, key);
    const changes = findChanges(options.sources, served);
    // A build that will change the tree lets the writer link the files the spare lags behind on, meanwhile.
    if (changes.changed.size > 0) tree.linkAhead();
    const absent = SOURCES.filter((name) => changes.digests[name] === null).map((name) => `${name}.csv`);
    for (const file of absent) log(`${file}: absent, built as an empty list`);
    const { systems, countries, lists, items, sources } = checkChanges(options.sources, changes);
    const plan = planBuild(countries, lists, servedForPlan(served, lists));
    const rows = { ...served?.meta.rows, ...countRows(countries, items), system: systems.ids.length };
    progress.phase('writing files', estimate(countries, items, options.pageSize, systems.ids.length));
    const outputs = renderTree(
      plan,
      { systems, sources, scripts: treeScripts(), hosts: { nginxUpstream: options.nginxUpstream }, cache: { options: key, digests: changes.digests, rows } },
      { pageSize: options.pageSize, search: options.search },
    );
    const written = await tree.write(outputs, (n) => progress.tick(n));
    progress.end();
    const sections = { locations: plan.locations.how, ...Object.fromEntries(PAGED_LISTS.map((l) => [l, plan.lists[l].how])) } as Record<Section, How>;
    return { rows, absent, sections, ...written, ms: performance.now() - started };
  } catch (err) {
    await tree.abort();
    throw err;
  }
}

/** The rows a build reports, in the order it prints them. */
export const ROW_NAMES = ['author', 'division', 'category', 'descriptor', 'system', 'country', 'state', 'county'] as const;

function countRows(countries: CountryNode[] | undefined, lists: Partial<Record<PagedList, ListItem[]>>): Record<string, number> {
  const rows: Record<string, number> = {};
  for (const list of PAGED_LISTS) {
    const items = lists[list];
    if (!items) continue;
    rows[list] = items.length;
    if (list === 'division') rows['category'] = items.reduce((n, d) => n + (d.children?.length ?? 0), 0);
  }
  if (countries) {
    rows['country'] = countries.length;
    rows['state'] = countries.reduce((n, c) => n + c.states.length, 0);
    rows['county'] = countries.reduce((n, c) => n + c.states.reduce((m, s) => m + s.counties.length, 0), 0);
  }
  return rows;
}

/** About how many files the build renders, for a progress bar. */
function estimate(countries: CountryNode[] | undefined, lists: Partial<Record<PagedList, ListItem[]>>, pageSize: number, systems: number): number {
  let files = 10 + (countries ? estimateLocationFiles(countries) : 0);
  for (const list of PAGED_LISTS) {
    const items = lists[list];
    if (items) files += estimateListFiles(list, items.length, pageSize, systems);
  }
  return files;
}
