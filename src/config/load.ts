// Finds and reads a project's declaration: `--config`, else reflist.config.json
// in the sources folder, else, for a folder of the lookup service's files
// without one, that preset (docs/lists.md, "Where the config is found").
// Checks it against its sources' headers and names every CSV no list declares.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parse } from 'csv-parse/sync';
import { ReflistError, ReflistErrors } from '../errors.js';
import { checkColumns } from './columns.js';
import { checkConfig, sourceFiles, type Declaration, type SourceSpec } from './declaration.js';
import { isLookupService, LOOKUP_SERVICE_CONFIG } from './preset.js';

export const CONFIG_FILE = 'reflist.config.json';

export interface Loaded {
  declaration: Declaration;
  /** The folder the declaration's source files are relative to. */
  dir: string;
  /** The config file read, or undefined for the lookup-service preset found by its file names. */
  config?: string;
  /** The declared sources that are not there: each is an empty list. */
  absent: string[];
  /** One line for each CSV file in `dir` that no list declares. */
  warnings: string[];
}

/** The config a build uses: `--config`, or the one in the sources folder, or undefined (then the preset may apply). */
function findConfig(sources: string, config?: string): string | undefined {
  if (config !== undefined) {
    if (!existsSync(config) || !statSync(config).isFile()) throw new ReflistError('INVALID_OPTION', `--config: no such file ${config}`);
    return config;
  }
  const conventional = join(sources, CONFIG_FILE);
  return existsSync(conventional) ? conventional : undefined;
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
    throw new ReflistError('INVALID_CONFIG', `not JSON: ${message.replace(/^JSON\.parse: /, '')}`, { file: name, ...(at ? { line: lineAt(text, Number(at[1])) } : {}) });
  }
}

/** The first record of a CSV file: its header. At most 64 KiB are read. */
function readHeader(path: string, source: SourceSpec): string[] {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(65536);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const records = parse(buffer.subarray(0, n), { delimiter: source.delimiter, bom: true, to: 1, relax_column_count: true, relax_quotes: true, skip_records_with_error: true }) as string[][];
    return records[0] ?? [];
  } catch {
    return []; // read.ts reports what is wrong with the file, with its line
  } finally {
    closeSync(fd);
  }
}

/** Every .csv file under a folder, as paths relative to it with `/`. */
function csvFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.csv') && !p.split(sep).some((part) => part.startsWith('.') || part === 'node_modules'))
    .map((p) => p.split(sep).join('/'))
    .sort();
}

/**
 * The declaration a build of `sources` (with `--config`, if given) uses, its
 * sources' folder, and its warnings; every error in the config at once.
 */
export function loadDeclaration(sources: string, configOption?: string): Loaded {
  if (configOption === undefined) {
    if (!existsSync(sources)) throw new ReflistError('INVALID_OPTION', `--sources: no such folder ${sources}`);
    if (!statSync(sources).isDirectory()) throw new ReflistError('INVALID_OPTION', `--sources: ${sources} is a file; expected the folder of your source CSV files and ${CONFIG_FILE}`);
  }
  const config = findConfig(sources, configOption);
  const dir = config === undefined ? sources : dirname(config);
  // As the person typed it, below the current folder; else in full.
  const below = config === undefined ? '' : relative(process.cwd(), config);
  const name = config === undefined ? CONFIG_FILE : below && !below.startsWith('..') ? below : resolve(config);
  const json = config === undefined ? LOOKUP_SERVICE_CONFIG : readJson(config, name);
  const { declaration, errors } = checkConfig(json, name);
  if (!declaration) throw new ReflistErrors(errors);
  const files = sourceFiles(declaration);
  const present = files.filter((s) => existsSync(join(dir, s.file)));
  if (present.length === 0) {
    const expected = files.map((s) => s.file).join(', ');
    throw new ReflistError('INVALID_OPTION', config === undefined
      ? `--sources: ${sources} holds no ${CONFIG_FILE} and none of the lookup service's files (${expected}); write a config (reflist init), or name one with --config`
      : `${name}: none of its sources is in ${dir} (${expected})`);
  }
  // The lookup service's sources have their columns checked as they are read (validate.ts), each header whole.
  if (!isLookupService(declaration)) {
    const headers = new Map(present.map((s) => [s.file, readHeader(join(dir, s.file), s)]));
    const columnErrors = checkColumns(declaration, name, headers);
    if (columnErrors.length > 0) throw new ReflistErrors(columnErrors);
  }
  const declared = new Set(files.map((s) => s.file));
  const warnings = csvFiles(dir)
    .filter((file) => !declared.has(file))
    .map((file) => `${join(dir, file)}: no list declares it, so it is not built (declare it in ${config === undefined ? `${join(dir, CONFIG_FILE)}` : name})`);
  const absent = files.filter((s) => !present.includes(s)).map((s) => s.file);
  return { declaration, dir, ...(config === undefined ? {} : { config }), absent, warnings };
}
