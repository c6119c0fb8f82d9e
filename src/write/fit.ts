// Where a tree fits: its measure, taken from the writer's index of every path
// and size (no walk of the folder), against the caps of the static hosts it is
// meant for (config/hosts.ts's table). Pure:
// write.ts measures the new tree before swapping it in and refuses a tree
// over the caps of the host it was built for; advice.ts says it in words.
import type { Index } from './diff.js';
import { sectionOf, type Section } from '../tree-files.js';
import { HOSTS, type Host } from '../config/hosts.js';

/** No folder holds more entries than this (docs/contract.md §3): the internal ones by design, public ones get a warning. */
export const FOLDER_CAP = 10_000;

/**
 * What a file of the tree is, by its path alone: a public page file, another
 * public file (a list's first page, a whole list, an item), an Id bucket, a
 * file of the Term index (a search file; the words rule's pool and skip
 * files and typo vocabulary too), a result page file (or the words rule's
 * record block), a root or host file, or a compressed copy of another file.
 * Internal files may be stored gzipped (`.json.gz`).
 */
export type Part = 'page' | 'public' | 'id' | 'search' | 'results' | 'other' | 'copies';

export function partOf(path: string): Exclude<Part, 'copies'> {
  if (/(^|\/)(id|child)\/[0-9a-f]{16}-\d+\/\d+\/\d+\.json(\.gz)?$/.test(path)) return 'id';
  if (/(^|\/)(search|pools|skips)\/[0-9a-f]{2}\/[0-9a-f]{14}\.json(\.gz)?$/.test(path)) return 'search';
  if (/(^|\/)vocab\/[0-9a-f]{16}-\d+\/\d+\/\d+\.json(\.gz)?$/.test(path)) return 'search';
  if (/(^|\/)(pages|blocks)\/[0-9a-f]{2}\/[0-9a-f]{14}\.json(\.gz)?$/.test(path)) return 'results';
  if (/\/page\/\d+\.json$/.test(path)) return 'page';
  // A list's name starts with a letter; the host files at the root with `_`.
  return /^[A-Za-z][^/]*(\/.*)?\.json$/.test(path) && path !== 'lookup.json' ? 'public' : 'other';
}

export interface Tally {
  files: number;
  bytes: number;
}

export interface TreeSize extends Tally {
  /** The `.gz` and `.br` copies among them (--compress). */
  copies: Tally;
  largest: { path: string; bytes: number };
  /** The folder with the most entries (files and folders right in it); the root is "". */
  fullest: { path: string; entries: number };
  /** Every folder over the smallest folder cap known (FOLDER_CAP at most), fullest first, with the copies among its entries. */
  crowded: { path: string; entries: number; copies: number }[];
  /** Every file over the smallest file cap known, largest first. */
  large: { path: string; bytes: number }[];
  /** The files at the root and their bytes: some hosts read some of them as settings. */
  root: Record<string, number>;
  /** Files and bytes by section (a path's first segment) and part. */
  parts: Record<Section, Partial<Record<Part, Tally>>>;
}

/** A file's size from its index entry (`hash<TAB>size`); an entry without one counts nothing. */
function entryBytes(entry: string): number {
  const tab = entry.indexOf('\t');
  return tab < 0 ? 0 : Number(entry.slice(tab + 1));
}

/** The smallest folder and file caps among the known hosts, `host` and FOLDER_CAP: what a measure must list. */
function floors(host?: Host): { entries: number; bytes: number } {
  const hosts: Host[] = [...Object.values(HOSTS), ...(host ? [host] : [])];
  return {
    entries: Math.min(FOLDER_CAP, ...hosts.map((h) => h.folderEntries ?? Infinity)),
    bytes: Math.min(...hosts.map((h) => h.fileBytes ?? Infinity)),
  };
}

/** The measure of a tree from its index: every figure a host caps, and where the files lie. */
export function measureTree(index: Index, host?: Host): TreeSize {
  const floor = floors(host);
  const size: TreeSize = {
    files: 0,
    bytes: 0,
    copies: { files: 0, bytes: 0 },
    largest: { path: '', bytes: 0 },
    fullest: { path: '', entries: 0 },
    crowded: [],
    large: [],
    root: {},
    parts: {},
  };
  const entries = new Map<string, number>();
  const copies = new Map<string, number>();
  const folders = new Set<string>(['']);
  for (const [path, entry] of index) {
    const bytes = entryBytes(entry);
    size.files++;
    size.bytes += bytes;
    if (bytes > size.largest.bytes) size.largest = { path, bytes };
    if (bytes > floor.bytes) size.large.push({ path, bytes });
    const copy = /\.(gz|br)$/.test(path) && index.has(path.slice(0, -3));
    if (copy) {
      size.copies.files++;
      size.copies.bytes += bytes;
    }
    const tally = ((size.parts[sectionOf(path)] ??= {})[copy ? 'copies' : partOf(path)] ??= { files: 0, bytes: 0 });
    tally.files++;
    tally.bytes += bytes;
    // The file is an entry of its folder; a folder not seen before is one of its parent's, and so on up.
    let folder = path.slice(0, path.lastIndexOf('/') + 1);
    if (folder === '') size.root[path] = bytes;
    entries.set(folder, (entries.get(folder) ?? 0) + 1);
    if (copy) copies.set(folder, (copies.get(folder) ?? 0) + 1);
    while (folder !== '' && !folders.has(folder)) {
      folders.add(folder);
      folder = folder.slice(0, folder.lastIndexOf('/', folder.length - 2) + 1);
      entries.set(folder, (entries.get(folder) ?? 0) + 1);
    }
  }
  for (const [path, n] of entries) {
    if (n > size.fullest.entries) size.fullest = { path, entries: n };
    if (n > floor.entries) size.crowded.push({ path, entries: n, copies: copies.get(path) ?? 0 });
  }
  size.crowded.sort((a, b) => b.entries - a.entries);
  size.large.sort((a, b) => b.bytes - a.bytes);
  return size;
}

/** One figure of a tree over one cap of a host. */
export type Misfit =
  | { figure: 'files' | 'site'; value: number; cap: number }
  | { figure: 'file'; path: string; value: number; cap: number; more: number }
  | { figure: 'folder'; path: string; value: number; cap: number };

/** The files and bytes a host stores of a tree: all but the root files it reads as settings. */
export function hostTally(size: TreeSize, host: Host): Tally {
  // The bytes of each settings file the tree holds.
  const settings = (host.settings ?? []).map((name) => size.root[name]).filter((bytes) => bytes !== undefined);
  return {
    files: size.files - settings.length,
    bytes: size.bytes - settings.reduce((n, bytes) => n + bytes, 0),
  };
}

/** Each cap of `host` the tree is over, with its figure; none when it fits. */
export function overCaps(size: TreeSize, host: Host): Misfit[] {
  const misfits: Misfit[] = [];
  const { files, bytes } = hostTally(size, host);
  if (host.files !== undefined && files > host.files) misfits.push({ figure: 'files', value: files, cap: host.files });
  if (host.siteBytes !== undefined && bytes > host.siteBytes)
    misfits.push({ figure: 'site', value: bytes, cap: host.siteBytes });
  const { fileBytes } = host;
  const large =
    fileBytes === undefined ? [] : size.large.filter((f) => f.bytes > fileBytes && !host.settings?.includes(f.path));
  const [largest] = large;
  if (largest && fileBytes !== undefined)
    misfits.push({ figure: 'file', path: largest.path, value: largest.bytes, cap: fileBytes, more: large.length - 1 });
  // Each folder apart: what fills one (a list's items, its pages) is not what fills another.
  for (const { path, entries } of size.crowded) {
    if (host.folderEntries !== undefined && entries > host.folderEntries)
      misfits.push({ figure: 'folder', path, value: entries, cap: host.folderEntries });
  }
  return misfits;
}
