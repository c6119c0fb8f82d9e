// Stage 5, write: the only module that writes the tree. Three layers:
// generations.ts swaps a finished spare generation in under a lock;
// diff.ts decides from the generations' indexes what to link and remove;
// this module writes the changed files into the spare and carries the diff
// out. An unchanged file keeps its mtime (hard-linked from the served tree),
// which lets rsync or an S3 sync upload only what changed; a build that
// changes nothing writes nothing. A tree over the caps of the host it is
// for (fit.ts) is measured from its index and never swapped in.
import { hash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import {
  appendFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ReflistError } from '../errors.js';
import {
  adoptPlainFolder,
  cacheDir,
  clearGeneration,
  findGenerations,
  lock,
  markChanging,
  readIndex,
  remove,
  removeFile,
  removeOlderLayout,
  swapLink,
  writeIndex,
  type Generations,
} from './generations.js';
import { diffTree, indexEntry, type Index } from './diff.js';
import { COPIES, copyMaker, takesCopies, type CopyMaker, type CopyTag } from './copies.js';
import { measureTree, overCaps, type Misfit, type TreeSize } from './fit.js';
import type { Host } from '../config/hosts.js';
import type { Output, Section } from '../tree-files.js';
import { storedCompressed } from '../client/paths.js';

export { cacheDir, servedGeneration } from './generations.js';

export interface WriteReport {
  /** Files and bytes of the new tree, compressed copies included. */
  files: number;
  bytes: number;
  /** The new tree's measure: what a host caps (fit.ts). */
  size: TreeSize;
  /** The caps of the host the tree was built for that it is over: when any, the served tree stays as it was. */
  refused: Misfit[];
  /** Files written because their content changed since the served tree. */
  written: number;
  /** Unchanged files linked from the served tree into the spare generation. */
  copied: number;
  /** Files of sections whose sources did not change, taken as they are without rendering. */
  kept: number;
  /** Files of the served tree that the new one no longer has. */
  removed: number;
  /** True when the new tree equals the served one: nothing was written or swapped (false when a served tree in the older layout moved into `.reflist/`). */
  unchanged: boolean;
}

export interface WriteOptions {
  /** Also write `.gz` and `.br` siblings of JSON, JS and HTML files, for hosts that serve them. */
  compress?: boolean;
  /** The host the tree is for: a tree over its caps is not swapped in. */
  host?: Host;
}

/**
 * A file the tree stores compressed (client/paths.ts), as gzip with a header
 * that names no system, so every machine writes the same bytes.
 */
function storedGzip(text: string | Uint8Array): Buffer {
  const data = gzipSync(text, { level: GZIP_LEVEL });
  data[9] = 255; // the header's OS byte: "unknown", whatever zlib was built for
  return data;
}

/** zlib's level for stored files: see docs/performance.md, "Compressed index files". */
const GZIP_LEVEL = 6;

/**
 * Tree paths are made from digits, checked ids and names, and the `~` of the
 * folders no id can name (a paged list under a parent's internal files);
 * anything else is a bug, never a path.
 */
const SAFE_PATH = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9_\-./~]+$/;

/** The spare generation as this build changes it: what it holds, kept in step with its files. */
class Spare {
  private readonly made = new Set<string>();
  private changing = false;

  constructor(
    readonly root: string,
    /** What the spare holds: its index when the build began, plus what was linked into it since. */
    readonly index: Index,
  ) {}

  write(path: string, data: string | Uint8Array): void {
    writeFileSync(this.prepare(path), data);
  }

  /** The spare's path for a file about to be replaced: its folder made, its old file (maybe a link shared with the served tree) removed. */
  prepare(path: string): string {
    if (!this.changing) {
      markChanging(this.root);
      this.changing = true;
    }
    const file = join(this.root, path);
    this.makeDir(dirname(file));
    // The old file may be a hard link shared with the served tree: replace it, never write into it.
    if (this.index.has(path)) unlinkSync(file);
    return file;
  }

  /** Hard-links a file of another generation into the spare: the same bytes and mtime, nothing copied. */
  link(from: string, path: string, entry: string): void {
    linkSync(join(from, path), this.prepare(path));
    this.index.set(path, entry);
  }

  remove(path: string): void {
    removeFile(this.root, path);
  }

  makeDir(dir: string): void {
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
  }
}

/**
 * Writes one tree: `add` each file (or `keep` a section of the served tree,
 * and `cache` the build cache's files), then `finish`. Holds the output's
 * lock from construction to `finish` or `abort`.
 */
export class TreeWriter {
  private readonly generations: Generations;
  private readonly unlock: () => void;
  private readonly served: Index | undefined;
  private readonly spare: Spare;
  private readonly added: Index = new Map();
  /** Files written because the served tree does not hold the same. */
  private written = 0;
  private readonly keeps = new Map<Section, Set<string>>();
  private readonly cacheNext: string;
  /** --compress's copies, made on a thread of their own, and the copies taken but not yet made: path and key. */
  private readonly copies: CopyMaker | undefined;
  private readonly pending: [path: string, key: string][] = [];
  private readonly host: Host | undefined;

  constructor(outDir: string, options: WriteOptions = {}) {
    this.host = options.host;
    mkdirSync(dirname(resolve(outDir)), { recursive: true });
    const found = findGenerations(outDir);
    this.unlock = lock(found);
    try {
      // Found again under the lock: a build that held it may have swapped the link meanwhile.
      const locked = findGenerations(outDir);
      if (locked.state !== found.state)
        throw new ReflistError(
          'LOCKED',
          `another build is writing ${found.out} (it moved its state to ${locked.state})`,
        );
      this.generations = adoptPlainFolder(locked);
    } catch (err) {
      this.unlock();
      throw err;
    }
    const { active, spare, twin } = this.generations;
    this.served = active ? readIndex(active) : undefined;
    const current = readIndex(spare);
    if (!current) remove(spare); // none yet, or a build that stopped half-way: start empty
    this.spare = new Spare(spare, current ?? new Map());
    if (!active) clearGeneration(twin); // a first build: whatever an earlier state left there is no generation of this tree
    this.cacheNext = `${cacheDir(spare)}.next`;
    remove(this.cacheNext);
    this.copies = options.compress ? copyMaker() : undefined;
  }

  /** A file of the tree, as text or as its UTF-8 bytes. */
  add(path: string, text: string | Uint8Array): void {
    if (!SAFE_PATH.test(path)) throw new ReflistError('INTERNAL', `refusing to write unsafe path "${path}"`);
    const h = hash('sha1', text, 'base64');
    if (storedCompressed(path)) {
      // Keyed by the text's hash and the level: only a changed file is compressed again.
      this.put(path, `${h}.gz${GZIP_LEVEL}`, () => storedGzip(text));
      return;
    }
    const bytes = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
    this.put(path, h, () => text);
    if (this.copies && takesCopies(path, bytes)) this.addCopies(this.copies, path, h, text);
  }

  /** The copies of a file: those the served tree does not hold made by the copies' thread, into the spare. */
  private addCopies(copies: CopyMaker, path: string, h: string, text: string | Uint8Array): void {
    const tags: CopyTag[] = [];
    for (const { suffix, tag } of COPIES) {
      const [copy, key] = [`${path}${suffix}`, `${h}.${tag}`];
      if (this.keepServed(copy, key)) continue;
      this.spare.prepare(copy);
      this.added.set(copy, key); // its size comes with settle
      this.pending.push([copy, key]);
      this.written++;
      tags.push(tag);
    }
    // A buffer of its own: the copies' thread takes it whole.
    if (tags.length > 0)
      copies.take({
        file: join(this.spare.root, path),
        tags,
        data: typeof text === 'string' ? new TextEncoder().encode(text) : text.slice(),
      });
  }

  /** Keeps the served tree's files of a section, but those in `drop` (and those added anew). */
  keep(section: Section, drop: readonly string[]): void {
    this.keeps.set(section, new Set(drop));
  }

  /** Writes (or appends to) a file of the new tree's build cache. */
  cache(name: string, text: string | Uint8Array, append = false): void {
    // A list's name (config/declaration.ts NAME) and a suffix, or meta.json: never a path.
    if (!/^[A-Za-z][A-Za-z0-9_-]*\.(json|tsv|csv)$/.test(name))
      throw new ReflistError('INTERNAL', `refusing to write cache file "${name}"`);
    mkdirSync(this.cacheNext, { recursive: true });
    (append ? appendFileSync : writeFileSync)(join(this.cacheNext, name), text);
  }

  /** Carries one kind of output to its method. */
  take(output: Output): void {
    if (Array.isArray(output)) this.add(output[0], output[1]);
    else if ('keep' in output) this.keep(output.keep, output.drop);
    else this.cache(output.cache, output.text, output.append);
  }

  /**
   * Records a file of the new tree by its key (its hash, or a copy's source's
   * hash and settings), making and writing it only when the served tree does
   * not hold the same.
   */
  private put(path: string, key: string, data: () => string | Uint8Array): void {
    if (this.keepServed(path, key)) return;
    const made = data();
    this.added.set(path, indexEntry(key, typeof made === 'string' ? Buffer.byteLength(made) : made.length));
    this.spare.write(path, made);
    this.written++;
  }

  /** Takes the served tree's file at `path` into the new tree when it has this key: nothing to make or write. */
  private keepServed(path: string, key: string): boolean {
    const served = this.served?.get(path);
    if (served === undefined || served.slice(0, served.indexOf('\t')) !== key) return false;
    this.added.set(path, served);
    return true;
  }

  finish(): WriteReport {
    try {
      const made = this.copies?.settle() ?? [];
      for (const [i, [path, key]] of this.pending.entries()) this.added.set(path, indexEntry(key, made[i]!));
      const { out, active, moving } = this.generations;
      const { spare, served } = this;
      const diff = diffTree({ served, spare: spare.index, added: this.added, keeps: this.keeps, moving });
      const { kept, removed, copied, unchanged } = diff;
      const size = measureTree(diff.next, this.host);
      const refused = this.host ? overCaps(size, this.host) : [];
      const report: WriteReport = {
        files: size.files,
        bytes: size.bytes,
        size,
        refused,
        written: this.written,
        copied,
        kept,
        removed,
        unchanged,
      };
      if (diff.unchanged || refused.length > 0) {
        this.keepSpare();
        return report;
      }
      if (diff.link.length > 0) {
        if (!active || !served)
          throw new ReflistError(
            'INTERNAL',
            `${diff.link.length} files to link from the served tree, and none is served`,
          );
        for (const path of diff.link) spare.link(active, path, served.get(path)!);
      }
      for (const path of diff.remove) spare.remove(path);
      this.finishCache(active);
      writeIndex(spare.root, diff.next);
      swapLink(out, spare.root);
      if (moving) removeOlderLayout(out);
      return report;
    } finally {
      this.copies?.close();
      this.unlock();
    }
  }

  /** The new tree's cache: the files written this build, and the kept sections' from the served tree's. */
  private finishCache(active: string | undefined): void {
    const target = cacheDir(this.spare.root);
    remove(target);
    if (!existsSync(this.cacheNext)) return;
    const served = active && cacheDir(active);
    if (served && existsSync(served)) {
      const files = readdirSync(served);
      for (const section of this.keeps.keys()) {
        for (const file of files) {
          if (file.startsWith(`${section}.`) && !existsSync(join(this.cacheNext, file)))
            linkSync(join(served, file), join(this.cacheNext, file));
        }
      }
    }
    renameSync(this.cacheNext, target);
  }

  /** Leaves the served tree as it is. */
  abort(): void {
    this.copies?.close();
    this.keepSpare();
    this.unlock();
  }

  /**
   * When the spare is not swapped in: its build cache goes. A spare that was
   * written to stays marked as changing (generations.ts), so the next build
   * starts it afresh.
   */
  private keepSpare(): void {
    remove(this.cacheNext);
  }
}

/** Writes a tree in this thread. */
export function writeTree(
  outDir: string,
  outputs: Iterable<Output>,
  onFile?: (count: number) => void,
  options: WriteOptions = {},
): WriteReport {
  return writeOutputs(new TreeWriter(outDir, options), outputs, onFile);
}

/** Takes every output and finishes, or lets go of the folder when the outputs fail. */
export function writeOutputs(
  writer: TreeWriter,
  outputs: Iterable<Output>,
  onFile?: (count: number) => void,
): WriteReport {
  let count = 0;
  try {
    for (const output of outputs) {
      writer.take(output);
      onFile?.(++count);
    }
  } catch (err) {
    writer.abort();
    throw err;
  }
  return writer.finish();
}
