// The pipeline, the one place that runs it: the declaration (config/) → what
// changed since the served tree (plan/changes.ts), so that only the sources
// of the sections to make again are read and checked (sources/check.ts) →
// the plan (plan/plan.ts) → rendering (render/plan.ts) → writing
// (write/threaded.ts), with a report of what it did. Each stage imports only
// those before it (scripts/imports.ts); this module hands each what it needs
// of one frozen BuildConfig. A section is read and checked just before it is
// rendered, so that a build holds one section's rows at a time; a section
// whose sources are unchanged is neither read nor rendered: the writer keeps
// its files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FORMAT } from './client/types.js';
import { groupSegment } from './client/paths.js';
import { optionsKey } from './plan/cache.js';
import { loadDeclaration } from './config/load.js';
import type { Declaration } from './config/declaration.js';
import { sectionsOf, type SectionSpec } from './config/sections.js';
import {
  findChanges,
  listChanges,
  servedBuild,
  servedForPlan,
  staleSections,
  type Changes,
  type ServedBuild,
} from './plan/changes.js';
import { checkLib, packageFile } from './root.js';
import type { ListItem, Node } from './sources/model.js';
import { checkSources, reported } from './sources/check.js';
import { createProgress, type Progress } from './progress.js';
import type { RenderOptions } from './render/render.js';
import type { Section, TreeFile } from './tree-files.js';
import { planBuild, type How } from './plan/plan.js';
import { renderPlan, type SectionPlan } from './render/plan.js';
import { NO_GROUPS, type Groups } from './sources/validate.js';
import { openTree } from './write/threaded.js';
import { spillingOver } from './write/spill.js';
import { cacheDir, servedGeneration, type WriteReport } from './write/write.js';
import { HOST_NAMES, HOSTS, isHostName, type Host, type HostName } from './config/hosts.js';
import { crowdedWarnings, misfitErrors } from './advice.js';
import { didYouMean, ReflistError, ReflistErrors } from './errors.js';
import { PAGE_SIZE } from './config/schema.js';

/** Items per page of every paged list when none is given (docs/contract.md §1.3): the config schema's default. */
export const DEFAULT_PAGE_SIZE = PAGE_SIZE.default;

export interface BuildOptions {
  /** The folder of source CSVs and, by convention, their reflist.config.json (docs/lists.md). */
  sources: string;
  /** The config file, when it is not `{sources}/reflist.config.json`; its sources are relative to it. */
  config?: string;
  /** The output folder: a link to the generation the build swaps in (docs/incremental.md). */
  out: string;
  /** Items per page: the config's `pageSize`, else 30. */
  pageSize?: number;
  /** Also write `.gz` and `.br` siblings (see WriteOptions). */
  compress?: boolean;
  /**
   * The host the tree is for (else the config's `host`): a tree over its caps
   * fails the build and the served tree stays. A name from HOSTS, or caps of
   * one's own.
   */
  host?: HostName | Host;
  /** Where nginx.conf sends the requests only the client answers (Term, Id, child): a `reflist serve`. */
  nginxUpstream?: string;
  log?: (line: string) => void;
  /** What is not an error but may be a mistake: a CSV file no list declares. */
  warn?: (line: string) => void;
  progress?: Progress;
}

export interface BuildReport extends WriteReport {
  /** Rows of each list, in declared order, then of the groups. */
  rows: Record<string, number>;
  absent: string[];
  /** How each section was made: kept as served, edited or updated in place, or rendered afresh. */
  sections: Record<Section, How>;
  ms: number;
}

/** lib/tree/: the scripts every tree carries at its root (the client, the host adapters), made by `npm run compile`. */
const TREE_SCRIPTS = fileURLToPath(packageFile('lib/tree/'));

export function treeScripts(): TreeFile[] {
  checkLib();
  const client = join(TREE_SCRIPTS, 'lookup-client.js');
  if (!existsSync(client)) throw new ReflistError('INVALID_OPTION', `${client} is missing: run npm run compile`);
  return readdirSync(TREE_SCRIPTS, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.js'))
    .sort()
    .map((path): TreeFile => [path.split(sep).join('/'), readFileSync(join(TREE_SCRIPTS, path), 'utf8')]);
}

/**
 * What a build runs by, made once from its options and the declaration and
 * frozen: every stage is handed what it needs of it.
 */
export interface BuildConfig extends Readonly<RenderOptions> {
  /** The folder the sources are read from (the config's). */
  readonly dir: string;
  readonly out: string;
  readonly declaration: Declaration;
  /** The declaration's sections, in declared order: computed here once. */
  readonly sections: readonly SectionSpec[];
  readonly compress: boolean;
  readonly host: Host | undefined;
  readonly nginxUpstream: string | undefined;
}

/** The size of the search files (search/types.ts): tests make them tiny to exercise every path. Not an option of the API. */
export type SearchTuning = NonNullable<RenderOptions['search']>;

/**
 * A list whose records take more than this many bytes (UTF-8) has them
 * written to a file while it is rendered, not held (write/spill.ts): some
 * 400,000 records of 80 bytes, as a city or a species is.
 */
export const SPILL_BYTES = 32 * 2 ** 20;

export function build(options: BuildOptions): Promise<BuildReport> {
  return buildWith(options, {}, SPILL_BYTES);
}

/**
 * `build` with the search files cut to other sizes, and records spilled past
 * `spill` bytes: what the tests build with (0 spills every list's); the
 * package exports `build` alone.
 */
export function buildTuned({
  search,
  spill,
  ...options
}: BuildOptions & { search?: SearchTuning; spill?: number }): Promise<BuildReport> {
  return buildWith(options, search ?? {}, spill ?? SPILL_BYTES);
}

async function buildWith(options: BuildOptions, search: SearchTuning, spill: number): Promise<BuildReport> {
  const started = performance.now();
  // The declaration first: a config that is wrong stops the build before the output folder is opened.
  const loaded = loadDeclaration(options.sources, options.config);
  const { declaration } = loaded;
  const log = options.log ?? (() => {});
  const warn = options.warn ?? log;
  for (const line of loaded.notices) log(line);
  for (const line of loaded.warnings) warn(line);
  const config: BuildConfig = Object.freeze({
    dir: loaded.dir,
    out: options.out,
    declaration,
    sections: Object.freeze(sectionsOf(declaration)),
    pageSize: options.pageSize ?? declaration.pageSize ?? DEFAULT_PAGE_SIZE,
    search,
    compress: options.compress ?? false,
    host: hostOf(options.host ?? declaration.host),
    nginxUpstream: options.nginxUpstream,
    records: spillingOver(spill),
  });
  const progress = options.progress ?? createProgress(undefined);
  // Opened first, so the writer thread starts while the sources are read; it
  // writes nothing until the sources have passed every check.
  const tree = openTree(config.out, { compress: config.compress, host: config.host });
  try {
    const { rows, sections, written } = await run(config, tree, progress, warn);
    return { rows, absent: loaded.absent, sections, ...written, ms: performance.now() - started };
  } catch (err) {
    await tree.abort();
    throw err;
  }
}

/** The stages in order, on a tree opened for writing. */
async function run(
  config: BuildConfig,
  tree: ReturnType<typeof openTree>,
  progress: Progress,
  warn: (line: string) => void,
) {
  const { dir, declaration, sections, pageSize } = config;
  progress.phase('reading sources');
  // A config that says anything else makes every section again: it may change any file.
  // The host shapes no file: another one is checked without rendering anything again.
  const { host: _host, ...shaping } = declaration;
  const key = optionsKey({
    format: FORMAT,
    pageSize,
    search: config.search,
    compress: config.compress,
    declaration: shaping,
  });
  const generation = servedGeneration(config.out);
  const served = servedBuild(generation && cacheDir(generation), key);
  const changes = findChanges(dir, declaration, sections, served);
  const check = sectionChecker(config, changes, served, progress);
  // Indexing and writing interleave (renderPlan yields files as it makes them), so they are one phase, between
  // the checks of the sections. It has no estimate: a count of files that the render would make is known only
  // once it has made them.
  const outputs = renderPlan(
    {
      declaration,
      sections,
      groups: check.groups,
      scripts: treeScripts(),
      hosts: { nginxUpstream: config.nginxUpstream },
      planOf: check.planOf,
      cache: () => ({ options: key, digests: changes.digests, rows: check.rows() }),
    },
    { pageSize, search: config.search, records: config.records },
  );
  const written = await tree.write(outputs, (n) => progress.tick(n));
  progress.end();
  check.done();
  if (written.refused.length > 0)
    throw new ReflistErrors(misfitErrors(config.host!, written.refused, written.size, config));
  for (const line of crowdedWarnings(written.size, config)) warn(line);
  // In declared order, as the report lists them: the render made the nests first.
  const made = Object.fromEntries(sections.map(({ root }) => [root.name, check.made[root.name]!]));
  return { rows: check.rows(), sections: made, written };
}

/**
 * Each section's sources read and checked, and its plan made, when the render
 * asks for it: a section's rows are held while it is rendered, and let go
 * before the next is read. Every error is still reported at once: once a
 * section fails, every section not yet checked is checked before the build
 * stops, and nothing more is rendered (what was is in the spare tree, which
 * is never swapped in).
 */
function sectionChecker(config: BuildConfig, changes: Changes, served: ServedBuild | undefined, progress: Progress) {
  const { dir, declaration, sections } = config;
  const stale = new Set(staleSections(sections, changes).map((s) => s.name));
  const errors: ReflistError[] = [];
  const checked = new Set<Section>();
  const attempt = (these: readonly SectionSpec[]): ReturnType<typeof checkSources> | undefined => {
    try {
      return checkSources(dir, declaration, these);
    } catch (err) {
      if (!(err instanceof ReflistErrors)) throw err;
      errors.push(...err.errors);
      return undefined;
    }
  };
  const stopIfFailed = () => {
    if (errors.length === 0) return;
    for (const section of sections) if (stale.has(section.name) && !checked.has(section.name)) attempt([section]);
    throw new ReflistErrors(reported(errors));
  };
  progress.phase('checking sources');
  // The groups first (a section with counts needs them), checked with no section.
  const groups = attempt([])?.groups ?? NO_GROUPS;
  const counted: Record<string, number> = { ...served?.meta.rows };
  const made: Record<Section, How> = {};
  const planOf = (section: SectionSpec): SectionPlan => {
    const { root } = section;
    checked.add(section.name);
    const fresh = stale.has(section.name);
    if (fresh) progress.phase('checking sources');
    const found = fresh ? attempt([section]) : NOTHING_CHECKED;
    stopIfFailed();
    const { nests, items } = found ?? NOTHING_CHECKED;
    const { lists, sources } = listChanges(dir, [section], changes, items);
    const plan = planBuild([root], nests, lists, servedForPlan(declaration.lists, served, lists));
    Object.assign(counted, countRows(config, nests, items, groups));
    made[root.name] = (plan.lists[root.name] ?? plan.nests[root.name])!.how;
    progress.phase('indexing and writing files');
    return { plan, sources };
  };
  return {
    groups,
    planOf,
    made,
    rows: () => Object.fromEntries(rowNames(declaration).map((name) => [name, counted[name] ?? 0])),
    /** Throws the errors found, if any: a build whose sections were all kept checked only the groups. */
    done: stopIfFailed,
  };
}

const NOTHING_CHECKED = { nests: {}, items: {} };

/** The host a build checks its tree against: one by name, one of the caller's, or none. */
function hostOf(host: HostName | Host | undefined): Host | undefined {
  if (host === undefined || typeof host === 'object') return host;
  if (isHostName(host)) return HOSTS[host];
  throw new ReflistError(
    'INVALID_OPTION',
    `--host: expected one of ${HOST_NAMES.join(', ')}, got "${host}"${didYouMean(host, HOST_NAMES)}`,
  );
}

/** The rows a build reports, in the order it prints them: the lists in declared order, then the groups. */
function rowNames(declaration: Declaration): string[] {
  return [
    ...declaration.lists.map((l) => l.name),
    ...(declaration.groups ? [groupSegment(declaration.groups.param)] : []),
  ];
}

/**
 * Rows of every list made again: a nest's lists, a paged list's items
 * and children, the groups. A section kept has none here: its rows are the
 * served build's.
 */
function countRows(
  { declaration, sections }: BuildConfig,
  nests: Record<string, Node[]>,
  lists: Record<string, ListItem[]>,
  groups: Groups,
): Record<string, number> {
  const rows: Record<string, number> = {};
  const add = (list: string, n: number) => (rows[list] = (rows[list] ?? 0) + n);
  const walk = (list: string, nodes: Node[]) => {
    add(list, nodes.length);
    for (const node of nodes) for (const [nested, items] of Object.entries(node.nested)) walk(nested, items);
  };
  for (const section of sections) {
    const { root } = section;
    const nodes = nests[root.name];
    if (nodes) {
      // A list under a parent with no items at all has no node to count it from.
      for (const list of section.nested) rows[list.name] = 0;
      walk(root.name, nodes);
    }
    const items = lists[root.name];
    if (items) {
      rows[root.name] = items.length;
      if (root.children) rows[root.children.list] = items.reduce((n, d) => n + (d.children?.length ?? 0), 0);
    }
  }
  if (declaration.groups) rows[groupSegment(declaration.groups.param)] = groups.ids.length;
  return rows;
}
