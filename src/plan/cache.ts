// The build cache: what a build leaves beside the generation it writes
// (`.reflist/dist.a.cache/`), so that the next build can keep the sections whose
// sources did not change and update a list from its previous state instead
// of sorting and indexing it again. Its format is defined here alone, what
// a list's Term index leaves of itself included (search/ takes those types
// from here): rendering makes its outputs, the writer writes them before the
// generation is served, and the plan reads them; any doubt (another version,
// other options, a missing file) means a build from the sources alone.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Entry, Id } from '../sources/model.js';
import type { Records } from '../sources/record.js';
import type { ListInfo, NestedInfo } from '../client/types.js';
import type { Output } from '../tree-files.js';

/** What a build keeps of a list to update it later: its manifest entry and its index's parts. */
export interface ListState {
  info: ListInfo;
  layout: IndexLayout;
  metas: PartMeta[];
}

/** How the keys are partitioned: it changes only when a one-unit prefix turns large or small. */
export interface IndexLayout {
  /** The whole list's matches do not fit one file (otherwise it is one part, ""). */
  rootLarge: boolean;
  /** The one-unit prefixes that are large, each the name of a head part. */
  heads: string[];
}

/** What a later build needs of one part to keep it: its files' first keys and its page files. */
export interface PartMeta {
  name: string;
  starts: string[];
  /** The names of its page files (see resultPagesPath), known once they are rendered. */
  pages: string[];
}

/**
 * Bumped whenever what the cache holds, how labels fold, or what a kept
 * list's files are changes: 4, the words rule's index, which a list of one's
 * own declared as before now has (a tree of 3 is built afresh once).
 */
const VERSION = 4;

export interface CacheMeta {
  version: number;
  /** The build options that shape the tree; a build with others starts afresh. */
  options: string;
  /** SHA-1 of each source file by its name, null when absent. */
  digests: Record<string, string | null>;
  /** Rows per list, for the summary of a build that keeps them. */
  rows: Record<string, number>;
  /** The root lists' totals, for the manifest: of a nest that is kept, only this is needed. */
  totals: Record<string, number>;
  /** The paged lists' states, by name. */
  lists: Record<string, ListState>;
  /** What lookup.json says of the paged lists under a parent, by their section's root list (sections that have any; none in a cache from before them). */
  nested?: Record<string, Record<string, NestedInfo>>;
}

export const META = 'meta.json';
export const linesFile = (list: string) => `${list}.tsv`;
/** A copy of the list's source file, as the last build read it (see delta.ts). */
export const sourceFile = (list: string) => `${list}.csv`;

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
export function readLines(dir: string, list: string): string[] | undefined {
  const file = join(dir, linesFile(list));
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  return text === '' ? [] : text.slice(0, -1).split('\n');
}

/** A file's bytes (a source, or the cache's copy of one), if it is there. */
export function readBytes(dir: string, file: string): Uint8Array | undefined {
  const path = join(dir, file);
  return existsSync(path) ? readFileSync(path) : undefined;
}

/** Lines of text a cache write at most carries: the writer appends them a chunk at a time. */
const CHUNK = 1 << 20;

/**
 * A list's entries as `key<TAB>record` lines, in list order: a folded key has
 * no tab or newline, and a record is JSON on one line.
 */
export function cacheLines(list: string, entries: Entry[], records: Records): Generator<Output> {
  return linesOutput(list, entries.length, (i) => `${entries[i]!.key}\t${records.at(i)}`);
}

/** Lines 0 … n - 1, a chunk at a time: made as they are written, never all at once. */
export function* linesOutput(list: string, n: number, line: (i: number) => string): Generator<Output> {
  for (let i = 0, first = true; first || i < n; first = false) {
    let text = '';
    for (; i < n && text.length < CHUNK; i++) text += line(i) + '\n';
    yield { cache: linesFile(list), text, append: !first };
  }
}

/** A served entry read off its cache line: key and record at once, text and counts when asked. */
export class LineEntry implements Entry {
  readonly key: string;
  readonly record: string;
  readonly id: Id;
  private parsed: [Id, string, number[]?] | undefined;

  constructor(readonly line: string) {
    const tab = line.indexOf('\t');
    this.key = line.slice(0, tab);
    this.record = line.slice(tab + 1);
    this.id = lineId(line);
  }

  get text(): string {
    return (this.parsed ??= JSON.parse(this.record) as [Id, string, number[]?])[1];
  }

  get counts(): number[] {
    return (this.parsed ??= JSON.parse(this.record) as [Id, string, number[]?])[2] ?? [];
  }
}

/** The id of a cache line, read in place: the digits after `<TAB>[`, or the string there (an id holds no `"` or `\\`). */
export function lineId(line: string): Id {
  const from = line.indexOf('\t') + 2;
  if (line.charCodeAt(from) === 34) return line.slice(from + 1, line.indexOf('"', from + 1));
  let id = 0;
  for (let i = from; ; i++) {
    const d = line.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return id;
    id = id * 10 + d;
  }
}

export function metaOutput(meta: Omit<CacheMeta, 'version'>): Output {
  return { cache: META, text: JSON.stringify({ version: VERSION, ...meta }) };
}
