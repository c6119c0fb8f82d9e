// The build cache: what a build leaves beside the generation it writes
// (`.dist.a.cache/`), so that the next build can keep the sections whose
// sources did not change and update a list from its previous state instead
// of sorting and indexing it again. Written by the writer before the
// generation is served, read here; any doubt (another version, other
// options, a missing file) means a build from the sources alone.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PagedList } from './client/types.js';
import type { Entry } from './model.js';
import type { ListState, Output } from './render.js';
import type { SourceName } from './validate.js';

/** Bumped whenever what the cache holds, or how labels fold, changes. */
const VERSION = 1;

export interface CacheMeta {
  version: number;
  /** The build options that shape the tree; a build with others starts afresh. */
  options: string;
  /** SHA-1 of each source file, null when absent. */
  digests: Partial<Record<SourceName, string | null>>;
  /** Rows per list, for the summary of a build that keeps them. */
  rows: Record<string, number>;
  countries: number;
  lists: Partial<Record<PagedList, ListState>>;
}

export const META = 'meta.json';
export const linesFile = (list: PagedList) => `${list}.tsv`;

export function optionsKey(options: object): string {
  return JSON.stringify({ version: VERSION, ...options });
}

/** The cache of a served generation, if it was made with these options. */
export function readCache(dir: string, options: string): CacheMeta | undefined {
  try {
    const meta = JSON.parse(readFileSync(join(dir, META), 'utf8')) as CacheMeta;
    return meta.version === VERSION && meta.options === options ? meta : undefined;
  } catch {
    return undefined;
  }
}

/** A list's entries in list order, one line each (see cacheLines), if the cache has them. */
export function readLines(dir: string, list: PagedList): string[] | undefined {
  const file = join(dir, linesFile(list));
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  return text === '' ? [] : text.slice(0, -1).split('\n');
}

/** Lines of text a cache write at most carries: the writer appends them a chunk at a time. */
const CHUNK = 1 << 20;

/**
 * A list's entries as `key<TAB>record` lines, in list order: a folded key has
 * no tab or newline, and a record is JSON on one line.
 */
export function* cacheLines(list: PagedList, entries: Entry[], records: string[]): Generator<Output> {
  let text = '';
  let append = false;
  for (const [i, e] of entries.entries()) {
    text += `${e.key}\t${records[i]}\n`;
    if (text.length >= CHUNK) yield { cache: linesFile(list), text, append }, (text = ''), (append = true);
  }
  yield { cache: linesFile(list), text, append };
}

export function decodeLine(line: string): { id: number; key: string; record: string } {
  const tab = line.indexOf('\t');
  const record = line.slice(tab + 1);
  return { id: Number(record.slice(1, record.indexOf(','))), key: line.slice(0, tab), record };
}

export function metaOutput(meta: Omit<CacheMeta, 'version'>): Output {
  return { cache: META, text: JSON.stringify({ version: VERSION, ...meta }) };
}
