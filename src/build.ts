// The pipeline: read → validate → render → write, with a report of what it did.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareStrings } from './client/fold.js';
import { ReflistError, ReflistErrors } from './errors.js';
import type { Model } from './model.js';
import { readTable, type RawTable } from './read.js';
import { createProgress, type Progress } from './progress.js';
import { estimateFiles, renderTree, type RenderOptions } from './render.js';
import { SOURCES, validate, type SourceName } from './validate.js';
import { openTree } from './write-threaded.js';
import type { WriteReport } from './write.js';

export interface BuildOptions {
  sources: string;
  out: string;
  pageSize: number;
  search?: RenderOptions['search'];
  /** Also write `.gz` and `.br` siblings (see WriteOptions). */
  compress?: boolean;
  log?: (line: string) => void;
  progress?: Progress;
}

export interface BuildReport extends WriteReport {
  rows: Record<string, number>;
  absent: string[];
  ms: number;
}

/** lib/lookup-client.js, made by `npm run compile`; found from src/ (tests) and lib/ (the CLI) alike. */
const CLIENT = fileURLToPath(new URL('../lib/lookup-client.js', import.meta.url));

export function clientSource(): string {
  if (!existsSync(CLIENT)) throw new ReflistError('INVALID_OPTION', `${CLIENT} is missing: run npm run compile`);
  return readFileSync(CLIENT, 'utf8');
}

export async function readSources(dir: string): Promise<{ tables: Partial<Record<SourceName, RawTable>>; absent: string[]; errors: ReflistError[] }> {
  if (!existsSync(dir)) throw new ReflistError('INVALID_OPTION', `--sources: no such folder ${dir}`);
  const tables: Partial<Record<SourceName, RawTable>> = {};
  const absent: string[] = [];
  const errors: ReflistError[] = [];
  for (const name of SOURCES) {
    const file = `${name}.csv`;
    const path = join(dir, file);
    if (!existsSync(path)) {
      absent.push(file);
      continue;
    }
    const read = readTable(file, readFileSync(path));
    tables[name] = read.table;
    errors.push(...read.errors);
  }
  return { tables, absent, errors };
}

const byLocation = (a: ReflistError, b: ReflistError) =>
  compareStrings(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0);

/** The validated model; the raw rows go out of scope here, so their memory is freed before rendering. */
async function load(sources: string) {
  const { tables, absent, errors } = await readSources(sources);
  const { model, errors: invalid } = validate(tables);
  return { model, absent, errors: errors.concat(invalid) };
}

export async function build(options: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const progress = options.progress ?? createProgress(undefined);
  // Opened first, so the writer thread starts while the sources are read; it
  // writes nothing until the sources have passed every check.
  const tree = openTree(options.out, { compress: options.compress });
  let model: Model;
  let absent: string[];
  let client: string;
  try {
    progress.phase('reading and checking sources');
    let errors: ReflistError[];
    ({ model, absent, errors } = await load(options.sources));
    for (const file of absent) log(`${file}: absent, built as an empty list`);
    if (errors.length > 0) throw new ReflistErrors(errors.sort(byLocation));
    client = clientSource();
  } catch (err) {
    await tree.abort();
    throw err;
  }
  const rows: Record<string, number> = {
    author: model.author.length,
    division: model.division.length,
    category: model.division.reduce((n, d) => n + (d.children?.length ?? 0), 0),
    descriptor: model.descriptor.length,
    system: model.systems.length,
    country: model.countries.length,
    state: model.countries.reduce((n, c) => n + c.states.length, 0),
    county: model.countries.reduce((n, c) => n + c.states.reduce((m, s) => m + s.counties.length, 0), 0),
  };
  progress.phase('writing files', estimateFiles(model, options.pageSize));
  const files = renderTree(model, { pageSize: options.pageSize, search: options.search, client, busy: tree.busy });
  const written = await tree.write(files, (n) => progress.tick(n));
  progress.end();
  return { rows, absent, ...written, ms: performance.now() - started };
}
