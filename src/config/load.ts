// Finds and reads a project's declaration: `--config`, else reflist.config.json
// in the sources folder, else, for a folder of nothing but the lookup
// service's files, that preset (docs/lists.md, "Where the config is found").
// Checks that its sources are there and their headers, and names every CSV no
// list declares.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { parse } from 'csv-parse/sync';
import { didYouMean, ReflistError, ReflistErrors } from '../errors.js';
import { checkColumns, detectDelimiter } from './columns.js';
import { checkConfig, sourceFiles, type Declaration, type Delimiter, type SourceSpec } from './declaration.js';
import { isLookupService, LOOKUP_SERVICE_CONFIG } from './preset.js';

export const CONFIG_FILE = 'reflist.config.json';

export interface Loaded {
  declaration: Declaration;
  /** The folder the declaration's source files are relative to. */
  dir: string;
  /** The config file read, or undefined for the lookup-service preset found by its file names. */
  config?: string;
  /** The declared sources that are not there and may be absent ("optional"): each is an empty list. */
  absent: string[];
  /** What the build says of how it reads the folder: the preset found by its file names, the absent sources. */
  notices: string[];
  /** One line for each CSV file in `dir` that no list declares. */
  warnings: string[];
}

/** The config a build uses: `--config`, or the one in the sources folder, or undefined (then the preset may apply). */
function findConfig(sources: string, config?: string): string | undefined {
  if (config !== undefined) {
    if (!existsSync(config) || !statSync(config).isFile())
      throw new ReflistError('INVALID_OPTION', `--config: no such file ${config}`);
    return config;
  }
  const conventional = join(sources, CONFIG_FILE);
  return existsSync(conventional) ? conventional : undefined;
}

/** A config's path as messages show it: as the person typed it when below the current folder, else in full. */
export function configName(config: string): string {
  const below = relative(process.cwd(), config);
  return below && !below.startsWith('..') ? below : resolve(config);
}

/** The line (1-based) of a character offset in a text. */
const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/** A config file's JSON, or a located error. A BOM is fine: editors on Windows write one. */
function readJson(path: string, name: string): unknown {
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const message = (err as Error).message;
    const at = /position (\d+)/.exec(message);
    throw new ReflistError('INVALID_CONFIG', `not JSON: ${message.replace(/^JSON\.parse: /, '')}`, {
      file: name,
      ...(at ? { line: lineAt(text, Number(at[1])) } : {}),
    });
  }
}

/** A CSV file's first 64 KiB, where its header is. */
function readStart(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(65536);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * The declaration with each source that declares no delimiter read by the
 * one its header line shows (columns.ts, detectDelimiter): a copy, the
 * checked declaration is left as it is.
 */
function withDetectedDelimiters(d: Declaration, dir: string, present: readonly SourceSpec[]): Declaration {
  const detected = new Map<string, Delimiter>();
  for (const s of present)
    if (s.detect)
      detected.set(
        s.file,
        detectDelimiter(
          readStart(join(dir, s.file))
            .toString('utf8')
            .replace(/^\uFEFF/, ''),
        ),
      );
  const resolve = (s: SourceSpec): SourceSpec => (s.detect ? { ...s, delimiter: detected.get(s.file) ?? ',' } : s);
  return {
    ...d,
    ...(d.groups ? { groups: { ...d.groups, source: resolve(d.groups.source) } } : {}),
    lists: d.lists.map((l) => ({
      ...l,
      source: resolve(l.source),
      ...(l.counts ? { counts: { ...l.counts, source: resolve(l.counts.source) } } : {}),
    })),
  };
}

/** The first record of a CSV file: its header. At most 64 KiB are read. */
function readHeader(path: string, source: SourceSpec): string[] {
  try {
    const records = parse(readStart(path), {
      delimiter: source.delimiter,
      bom: true,
      to: 1,
      relax_column_count: true,
      relax_quotes: true,
      skip_records_with_error: true,
    }) as string[][];
    return records[0] ?? [];
  } catch {
    return []; // read.ts reports what is wrong with the file, with its line
  }
}

/** Every .csv file under a folder, as paths relative to it with `/`. */
function csvFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.csv') && !p.split(sep).some((part) => part.startsWith('.') || part === 'node_modules'))
    .map((p) => p.split(sep).join('/'))
    .sort();
}

/** A source file a declaration reads: where it is first declared, and the lists (or groups) that read it. */
interface Declared {
  file: string;
  key: string;
  readers: string[];
  /** Every reader may go without it. */
  optional: boolean;
}

/** Each source file a declaration reads, once, in the order of sourceFiles. */
function declaredSources(d: Declaration): Declared[] {
  const byFile = new Map<string, Declared>();
  const add = (file: string, key: string, reader: string, optional: boolean) => {
    const seen = byFile.get(file);
    if (!seen) return void byFile.set(file, { file, key, readers: [reader], optional });
    seen.optional &&= optional;
    if (!seen.readers.includes(reader)) seen.readers.push(reader);
  };
  if (d.groups) add(d.groups.source.file, 'groups.source', 'groups', d.groups.optional);
  for (const list of d.lists) {
    const at = `lists.${list.name}`;
    add(list.source.file, `${at}.source`, at, list.optional);
    if (list.counts) add(list.counts.source.file, `${at}.counts.source`, at, list.optional);
  }
  return [...byFile.values()];
}

/** CSV files named in a message at most. */
const SHOWN = 12;
const names = (files: string[]) => files.slice(0, SHOWN).join(', ') + (files.length > SHOWN ? ', …' : '');

/**
 * A declared source that is not there: the CSV file the name most likely
 * meant, else the CSV files no list reads, and how to build without it.
 */
function missingSource(
  source: Declared,
  dir: string,
  config: string,
  csvs: string[],
  declared: ReadonlySet<string>,
): ReflistError {
  const unread = csvs.filter((f) => !declared.has(f));
  // A file moved into a folder below keeps its name.
  const moved = csvs.find((f) => basename(f) === basename(source.file));
  const close = moved ? ` (did you mean ${JSON.stringify(moved)}?)` : didYouMean(source.file, csvs);
  const others = close || unread.length === 0 ? '' : `; CSV files no list reads: ${names(unread)}`;
  const readers = source.readers.join(' and ');
  return new ReflistError(
    'MISSING_SOURCE',
    `${source.key}: no file ${source.file} in ${dir}${close}${others}; if it may be absent, declare "optional": true in ${readers}: an absent source is then an empty list`,
    { file: config },
  );
}

/** JSON files larger than this are not read to see whether they are a config. */
const CONFIG_BYTES = 1 << 20;

/** Whether a file in a folder without reflist.config.json is a config under another name: reflist*.json, or JSON with "lists". */
function looksLikeConfig(dir: string, file: string): boolean {
  if (!file.toLowerCase().endsWith('.json')) return false;
  if (file.toLowerCase().startsWith('reflist')) return true;
  const stat = statSync(join(dir, file));
  if (!stat.isFile() || stat.size > CONFIG_BYTES) return false;
  try {
    const json = JSON.parse(readFileSync(join(dir, file), 'utf8').replace(/^\uFEFF/, '')) as unknown;
    return typeof json === 'object' && json !== null && 'lists' in json;
  } catch {
    return false;
  }
}

/**
 * A folder without a config is read as the lookup-service preset only when
 * it holds some of the service's files and nothing that says it is a project
 * of other lists: a JSON file that looks like a config, or another CSV file.
 */
function checkPresetFolder(sources: string, csvs: string[], files: string[], present: string[]): void {
  const configs = readdirSync(sources)
    .filter((f) => looksLikeConfig(sources, f))
    .sort();
  if (configs.length > 0) {
    throw new ReflistError(
      'INVALID_OPTION',
      `--sources: ${sources} holds no ${CONFIG_FILE}, but ${configs[0]} looks like one: name it with --config ${join(sources, configs[0]!)}, or rename it ${CONFIG_FILE}`,
    );
  }
  if (present.length === 0) {
    throw new ReflistError(
      'INVALID_OPTION',
      `--sources: ${sources} holds no ${CONFIG_FILE} and none of the lookup service's files (${files.join(', ')}); write a config (reflist init), or name one with --config`,
    );
  }
  const others = csvs.filter((f) => !files.includes(f));
  if (others.length > 0) {
    throw new ReflistError(
      'INVALID_OPTION',
      `--sources: ${sources} holds no ${CONFIG_FILE}, and ${names(others)} ${others.length > 1 ? 'are' : 'is'} none of the lookup service's files, so it is not read as that preset: ` +
        `declare your lists in ${join(sources, CONFIG_FILE)} (reflist init writes an example), or move ${others.length > 1 ? 'them' : 'it'} out to build the folder as the lookup service`,
    );
  }
}

/**
 * The declaration a build of `sources` (with `--config`, if given) uses and
 * the folder its sources are relative to, with every error in the config at
 * once; the sources are not read.
 */
export function readDeclaration(
  sources: string,
  configOption?: string,
): { declaration: Declaration; dir: string; config?: string; name: string } {
  if (configOption === undefined) {
    if (!existsSync(sources)) throw new ReflistError('INVALID_OPTION', `--sources: no such folder ${sources}`);
    if (!statSync(sources).isDirectory())
      throw new ReflistError(
        'INVALID_OPTION',
        `--sources: ${sources} is a file; expected the folder of your source CSV files and ${CONFIG_FILE}`,
      );
  }
  const config = findConfig(sources, configOption);
  const dir = config === undefined ? sources : dirname(config);
  const name = config === undefined ? CONFIG_FILE : configName(config);
  const json = config === undefined ? LOOKUP_SERVICE_CONFIG : readJson(config, name);
  const { declaration, errors } = checkConfig(json, name);
  if (!declaration) throw new ReflistErrors(errors);
  return { declaration, dir, ...(config === undefined ? {} : { config }), name };
}

/**
 * The declaration a build of `sources` (with `--config`, if given) uses, its
 * sources' folder, and its warnings; every error in the config at once, then
 * every column a source lacks.
 */
export function loadDeclaration(sources: string, configOption?: string): Loaded {
  const read = readDeclaration(sources, configOption);
  const { dir, config, name } = read;
  const there = (s: SourceSpec) => existsSync(join(dir, s.file));
  // The lookup service's files are comma-separated by its contract; a project's say so in their header.
  const declaration =
    config === undefined
      ? read.declaration
      : withDetectedDelimiters(read.declaration, dir, sourceFiles(read.declaration).filter(there));
  const files = sourceFiles(declaration);
  const present = files.filter(there);
  const csvs = csvFiles(dir);
  const declared = new Set(files.map((s) => s.file));
  if (config === undefined)
    checkPresetFolder(
      sources,
      csvs,
      files.map((s) => s.file),
      present.map((s) => s.file),
    );
  else if (present.length === 0)
    throw new ReflistError(
      'INVALID_OPTION',
      `${name}: none of its sources is in ${dir} (${files.map((s) => s.file).join(', ')})`,
    );
  const absent = declaredSources(declaration).filter((s) => !present.some((p) => p.file === s.file));
  const missing = absent.filter((s) => !s.optional).map((s) => missingSource(s, dir, name, csvs, declared));
  // The lookup service's sources have their columns checked as they are read (validate.ts), each header whole.
  const headers = new Map(
    isLookupService(declaration) ? [] : present.map((s) => [s.file, readHeader(join(dir, s.file), s)]),
  );
  const found = [...missing, ...checkColumns(declaration, name, headers)];
  if (found.length > 0) throw new ReflistErrors(found);
  // A folder read as the preset holds no other CSV file (checkPresetFolder).
  const warnings = csvs
    .filter((file) => !declared.has(file))
    .map((file) => `${join(dir, file)}: no list declares it, so it is not built (declare it in ${name})`);
  const notices =
    config === undefined
      ? [
          `no ${CONFIG_FILE} in ${sources}: built as the lookup-service preset, from ${absent.length === 0 ? `all ${files.length} of its files` : names(present.map((s) => s.file))}` +
            (absent.length === 0 ? '' : `; absent, so empty: ${names(absent.map((s) => s.file))}`),
        ]
      : absent.map((s) => `${s.file}: absent, built as an empty list`);
  return {
    declaration,
    dir,
    ...(config === undefined ? {} : { config }),
    absent: absent.map((s) => s.file),
    notices,
    warnings,
  };
}
