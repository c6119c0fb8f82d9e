// The pipeline: read → validate → render → write, with a report of what it did.
// A section whose sources are unchanged since the served tree is neither
// read nor rendered: the writer keeps its files (see tree.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareStrings } from './client/fold.js';
import { FORMAT, PAGED_LISTS, type PagedList } from './client/types.js';
import { optionsKey, readCache, readLines, readSource } from './cache.js';
import { changedWindow, windowEdits, type TextEdit } from './delta.js';
import { ReflistError, ReflistErrors } from './errors.js';
import type { CountryNode, ListItem } from './model.js';
import { digestFile, readTableFile } from './read.js';
import { createProgress, type Progress } from './progress.js';
import { estimateListFiles, estimateLocationFiles, type RenderOptions } from './render.js';
import { SECTIONS, type Section, type TreeFile } from './tree-files.js';
import { renderTree, type How, type ListInput, type Previous } from './tree.js';
import { updatable } from './update.js';
import { Checker, SECTION_SOURCES, SOURCES, validateList, validateLocations, validateSystems, type SourceName, type Tables } from './validate.js';
import { openTree } from './write-threaded.js';
import { cacheDir, servedGeneration, type WriteReport } from './write.js';

export interface BuildOptions {
  sources: string;
  out: string;
  pageSize: number;
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
type Served = Previous & { source(list: PagedList): Uint8Array | undefined };

function servedBuild(out: string, key: string): Served | undefined {
  const served = servedGeneration(out);
  const dir = served && cacheDir(served);
  const meta = dir ? readCache(dir, key) : undefined;
  return meta && { meta, lines: (list) => readLines(dir!, list), source: (list) => readSource(dir!, list) };
}

/** What changed since the served tree: the sections to make again, and a list's text edits when they are all. */
interface Changes {
  digests: Record<SourceName, string | null>;
  changed: Set<Section>;
  edits: Partial<Record<PagedList, { edits: TextEdit[]; source: Uint8Array }>>;
}

function findChanges(dir: string, served: Served | undefined): Changes {
  const digests = Object.fromEntries(SOURCES.map((name) => {
    const path = join(dir, `${name}.csv`);
    return [name, existsSync(path) ? digestFile(path) : null];
  })) as Record<SourceName, string | null>;
  const differs = (name: SourceName) => !served || served.meta.digests[name] !== digests[name];
  const changed = new Set(SECTIONS.filter((s) => SECTION_SOURCES[s].some(differs)));
  // A list whose own file alone changed may be updated from the records that changed (delta.ts).
  const edits: Changes['edits'] = {};
  for (const list of PAGED_LISTS) {
    if (!served || !changed.has(list) || !updatable(list) || SECTION_SOURCES[list].some((n) => n !== list && differs(n))) continue;
    const [was, now] = [served.source(list), readSource(dir, list)];
    const window = was && now && changedWindow(was, now);
    const found = window && windowEdits(list, window);
    if (found) edits[list] = { edits: found, source: now! };
  }
  return { digests, changed, edits };
}

/** The sections to make again, read and checked; every error found throws at once. */
function checkChanges(dir: string, { changed, edits }: Changes) {
  const needed = (name: SourceName) =>
    name === 'system' || [...changed].some((s) => !edits[s as PagedList] && (SECTION_SOURCES[s] as readonly string[]).includes(name));
  const { tables, errors } = readSources(dir, SOURCES.filter(needed));
  const check = new Checker(tables, errors);
  const systems = validateSystems(check);
  const countries = changed.has('locations') ? validateLocations(check) : undefined;
  const lists: Partial<Record<PagedList, ListInput>> = {};
  const items: Partial<Record<PagedList, ListItem[]>> = {};
  for (const list of PAGED_LISTS) {
    if (!changed.has(list)) continue;
    const edited = edits[list];
    if (edited) lists[list] = { ...edited, items: () => checkList(dir, list) }; // read whole only if the edits cannot be applied
    else {
      const checked = (items[list] = validateList(list, check, systems));
      lists[list] = { items: () => checked, source: updatable(list) ? readSource(dir, list) : undefined };
    }
  }
  if (check.errors.length > 0) throw new ReflistErrors(check.errors.sort(byLocation));
  return { systems, countries, lists, items };
}

/** One list's sources, read and checked whole. */
function checkList(dir: string, list: PagedList): ListItem[] {
  const { tables, errors } = readSources(dir, SECTION_SOURCES[list]);
  const check = new Checker(tables, errors);
  const items = validateList(list, check, validateSystems(check));
  if (check.errors.length > 0) throw new ReflistErrors(check.errors.sort(byLocation));
  return items;
}

export async function build(options: BuildOptions): Promise<BuildReport> {
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
    const { systems, countries, lists, items } = checkChanges(options.sources, changes);
    const rows = { ...served?.meta.rows, ...countRows(countries, items), system: systems.ids.length };
    progress.phase('writing files', estimate(countries, items, options.pageSize, systems.ids.length));
    const sections = {} as Record<Section, How>;
    const outputs = renderTree(
      { systems, countries, lists, scripts: treeScripts(), hosts: { nginxUpstream: options.nginxUpstream }, cache: { options: key, digests: changes.digests, rows } },
      { pageSize: options.pageSize, search: options.search, busy: tree.busy },
      served,
      sections,
    );
    const written = await tree.write(outputs, (n) => progress.tick(n));
    progress.end();
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
