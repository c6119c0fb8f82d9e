// Stage 5, write: the only module that writes the tree.
//
// The output folder is a symlink to one of two generations beside it
// (`dist -> .dist.a`, with `.dist.b` the spare). A build brings the spare up to
// date and then swaps the link with one rename, so a reader never sees half a
// tree and a failed build leaves the served one exactly as it was. Each
// generation has an index of its files' hashes, so a build writes only what
// changed since the served tree; an unchanged file keeps its mtime (hard-linked
// from the served tree when the spare lags behind), which lets rsync or an S3 sync
// upload only what changed; a build that changes nothing writes nothing.
// The spare lags behind by the files the last build changed. A writer thread
// links what it lacks while the sources are read and rendered, and a first
// build links what it writes into the other generation whenever its writer has
// nothing to write, so that the first rebuild finds most of it there
// (TreeWriter.linkAhead). Links that can wait never hold a build up.
import { hash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import {
  appendFileSync, closeSync, existsSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync,
  renameSync, rmdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ReflistError } from './errors.js';
import { MANIFEST } from './client/paths.js';
import { sectionOf, type Output, type Section } from './tree-files.js';

export interface WriteReport {
  /** Files and bytes of the new tree. */
  files: number;
  bytes: number;
  /** Files written because their content changed since the served tree. */
  written: number;
  /** Unchanged files linked from the served tree into the spare generation. */
  copied: number;
  /** Files of sections whose sources did not change, taken as they are without rendering. */
  kept: number;
  /** Files of the served tree that the new one no longer has. */
  removed: number;
  /** True when the new tree equals the served one: nothing was written or swapped. */
  unchanged: boolean;
}

export interface WriteOptions {
  /** Also write `.gz` and `.br` siblings of JSON, JS and HTML files, for hosts that serve them. */
  compress?: boolean;
}

const COMPRESSIBLE = /\.(json|js|html)$/;
/** Below this a compressed copy saves less than a packet. */
const MIN_COMPRESS = 256;

/** Tree paths are made from digits and checked system ids; anything else is a bug, never a path. */
const SAFE_PATH = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9_\-./]+$/;

/** path → `hash<TAB>size`: what a generation holds. */
type Index = Map<string, string>;

interface Layout {
  out: string;
  /** The generation the output link points to, if any. */
  active?: string;
  spare: string;
  /** The generation that is not the spare. */
  twin: string;
}

const indexFile = (generation: string) => `${generation}.index`;
/** A generation's build cache (see cache.ts): written before the generation is served, read by the next build. */
export const cacheDir = (generation: string) => `${generation}.cache`;

function readIndex(generation: string): Index | undefined {
  if (!existsSync(generation) || !existsSync(indexFile(generation))) return undefined;
  const index: Index = new Map();
  for (const line of readFileSync(indexFile(generation), 'utf8').split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) index.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return index;
}

function writeIndex(generation: string, index: Index): void {
  let text = '';
  for (const [path, entry] of index) text += `${path}\t${entry}\n`;
  writeFileSync(indexFile(generation), text);
}

/** The generation an output folder serves, if it is a reflist tree. */
export function servedGeneration(outDir: string): string | undefined {
  const out = resolve(outDir);
  if (!isLink(out)) return undefined;
  return resolve(dirname(out), readlinkSync(out));
}

/**
 * Finds the generations of an output folder, turning a plain folder left by
 * an older build into the first generation, and refusing to touch anything
 * that is not a reflist tree (`--out .` must not wipe a project).
 */
function layout(outDir: string): Layout {
  const out = resolve(outDir);
  const generation = (g: 'a' | 'b') => join(dirname(out), `.${basename(out)}.${g}`);
  const [a, b] = [generation('a'), generation('b')];
  const stat = existsSync(out) || isLink(out) ? lstatSync(out) : undefined;
  if (!stat) return { out, spare: a, twin: b };
  if (stat.isSymbolicLink()) {
    const target = resolve(dirname(out), readlinkSync(out));
    if (target === a || target === b) return { out, active: target, spare: target === a ? b : a, twin: target };
    throw new ReflistError('UNSAFE_OUTPUT', `${out} is a link to ${target}, not to a reflist generation: refusing to replace it`);
  }
  const entries = stat.isDirectory() ? readdirSync(out) : ['(a file)'];
  if (entries.length > 0 && !entries.includes(MANIFEST)) {
    throw new ReflistError('UNSAFE_OUTPUT', `${out} is not empty and holds no ${MANIFEST}: refusing to replace it`);
  }
  remove(a);
  remove(indexFile(a));
  renameSync(out, a);
  swapLink(out, a);
  return { out, active: a, spare: b, twin: a };
}

/** Removes a file or a folder with everything in it, if it is there. */
const remove = (path: string) => rmSync(path, { recursive: true, force: true });

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Points `out` at `generation` with one rename, so there is no moment without a tree. */
function swapLink(out: string, generation: string): void {
  const link = `${out}.link-${process.pid}`;
  remove(link);
  symlinkSync(basename(generation), link);
  renameSync(link, out);
}

/** One build at a time per output folder: two would write the same spare generation. */
function lock(out: string): () => void {
  const file = join(dirname(out), `.${basename(out)}.lock`);
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch {
    throw new ReflistError('UNSAFE_OUTPUT', `another build is writing ${out} (remove ${file} if it is not)`);
  }
  closeSync(fd);
  return () => unlinkSync(file);
}

/** Removes a file and any folders it leaves empty, up to the generation's root. */
function removeFile(root: string, path: string): void {
  unlinkSync(join(root, path));
  for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) {
    try {
      rmdirSync(join(root, dir));
    } catch {
      return; // not empty
    }
  }
}

/**
 * Writes one tree: `add` each file (or `keep` a section of the served tree,
 * and `cache` the build cache's files), then `finish`. Holds the output's
 * lock from construction to `finish` or `abort`.
 */
export class TreeWriter {
  readonly report: WriteReport = { files: 0, bytes: 0, written: 0, copied: 0, kept: 0, removed: 0, unchanged: false };
  private readonly layout: Layout;
  private readonly unlock: () => void;
  private readonly served: Index | undefined;
  private readonly current: Index;
  private readonly next: Index = new Map();
  private readonly made = new Set<string>();
  /** Sections kept from the served tree, less the files their update drops. */
  private readonly keeps = new Map<Section, Set<string>>();
  /**
   * The served tree's paths by section, and those the spare lacks or holds
   * otherwise (linked if the new tree keeps them): sorted out as soon as the
   * indexes are read, while the sources are, not when the build has to wait.
   */
  private readonly servedPaths = new Map<Section | undefined, string[]>();
  private readonly stale: string[] = [];
  /** How many of `stale` linkAhead has seen to. */
  private ahead = 0;
  /**
   * A first build has no served tree to link from: it links what it writes
   * into the other generation instead (linkAhead), which the first rebuild
   * then finds ready as its spare, all of it or the part linked in time.
   */
  private readonly mirror: { to: string; paths: string[]; linked: number } | undefined;
  /** Finished or aborted: nothing more is linked. */
  private closed = false;
  private readonly cacheNext: string;
  private dirty = false;

  private readonly compress: boolean;

  constructor(outDir: string, options: WriteOptions = {}) {
    this.compress = options.compress ?? false;
    mkdirSync(dirname(resolve(outDir)), { recursive: true });
    this.unlock = lock(resolve(outDir));
    try {
      this.layout = layout(outDir);
    } catch (err) {
      this.unlock();
      throw err;
    }
    const { active, spare } = this.layout;
    this.served = active ? readIndex(active) : undefined;
    const current = readIndex(spare);
    if (!current) remove(spare); // none yet, or a build that stopped half-way: start empty
    this.current = current ?? new Map();
    for (const [path, entry] of this.served ?? []) {
      const section = sectionOf(path);
      const paths = this.servedPaths.get(section);
      if (paths) paths.push(path);
      else this.servedPaths.set(section, [path]);
      if (this.current.get(path) !== entry) this.stale.push(path);
    }
    if (!active) {
      remove(this.layout.twin);
      remove(indexFile(this.layout.twin));
      this.mirror = { to: this.layout.twin, paths: [], linked: 0 };
    }
    this.cacheNext = `${cacheDir(spare)}.next`;
    remove(this.cacheNext);
  }

  /** A file of the tree, as text or as its UTF-8 bytes. */
  add(path: string, text: string | Uint8Array): void {
    if (!SAFE_PATH.test(path)) throw new ReflistError('UNSAFE_OUTPUT', `refusing to write unsafe path "${path}"`);
    const h = hash('sha1', text, 'base64');
    const bytes = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
    this.put(path, `${h}\t${bytes}`, () => text);
    if (this.compress && COMPRESSIBLE.test(path) && bytes >= MIN_COMPRESS) {
      // A sibling is named by its source's hash, so it is compressed only when its source changed.
      this.put(`${path}.gz`, `${h}.gz`, () => gzipSync(text, { level: 9 }));
      this.put(`${path}.br`, `${h}.br`, () => brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }));
    }
  }

  /**
   * Links the next few files of the served tree that the spare lacks or
   * holds otherwise into it, ahead of finish, which would link those the new
   * tree keeps: most of them. A file this build has already taken is left
   * alone; one taken later replaces its link (prepare). In a first build,
   * links the next few files written into the other generation (mirror).
   * A writer thread calls this while it has nothing else to do. False when
   * nothing is left to link for now.
   */
  linkAhead(count = 64): boolean {
    const { stale, mirror } = this;
    if (this.closed) return false;
    if (mirror) {
      const { paths } = mirror;
      if (mirror.linked >= paths.length) return false;
      for (const end = Math.min(mirror.linked + count, paths.length); mirror.linked < end; mirror.linked++) {
        const path = paths[mirror.linked]!;
        const twin = join(mirror.to, path);
        this.makeDir(dirname(twin));
        linkSync(join(this.layout.spare, path), twin);
      }
      return true;
    }
    if (this.ahead >= stale.length) return false;
    for (const end = Math.min(this.ahead + count, stale.length); this.ahead < end; this.ahead++) {
      const path = stale[this.ahead]!;
      if (!this.next.has(path)) this.linkServed(path);
    }
    return true;
  }

  /** Hard-links a served file into the spare: the same bytes and mtime, nothing copied. */
  private linkServed(path: string): void {
    linkSync(join(this.layout.active!, path), this.prepare(path));
    this.current.set(path, this.served!.get(path)!);
  }

  /** Keeps the served tree's files of a section, but those in `drop` (and those added anew). */
  keep(section: Section, drop: readonly string[]): void {
    this.keeps.set(section, new Set(drop));
  }

  /** Writes (or appends to) a file of the new tree's build cache. */
  cache(name: string, text: string | Uint8Array, append = false): void {
    if (!/^[a-z]+\.(json|tsv|csv)$/.test(name)) throw new ReflistError('UNSAFE_OUTPUT', `refusing to write cache file "${name}"`);
    mkdirSync(this.cacheNext, { recursive: true });
    (append ? appendFileSync : writeFileSync)(join(this.cacheNext, name), text);
  }

  /** Carries one kind of output to its method. */
  take(output: Output): void {
    if (Array.isArray(output)) this.add(output[0], output[1]);
    else if ('keep' in output) this.keep(output.keep, output.drop);
    else this.cache(output.cache, output.text, output.append);
  }

  /** Records a file of the new tree, writing it only when the served tree does not hold the same. */
  private put(path: string, entry: string, data: () => string | Uint8Array): void {
    this.next.set(path, entry);
    if (this.served?.get(path) === entry) return;
    const file = this.prepare(path);
    writeFileSync(file, data());
    this.report.written++;
    this.mirror?.paths.push(path);
  }

  finish(): WriteReport {
    this.closed = true; // nothing is linked ahead once the spare may be served
    try {
      const { out, active, spare } = this.layout;
      const { served, current, next, report } = this;
      // Kept sections: the served files, carried over by their index entry.
      if (served) {
        for (const [section, drop] of this.keeps) {
          for (const path of this.servedPaths.get(section) ?? []) {
            if (!drop.has(path) && !next.has(path)) next.set(path, served.get(path)!), report.kept++;
          }
        }
        for (const path of served.keys()) if (!next.has(path)) report.removed++;
      }
      report.files = next.size;
      for (const entry of next.values()) report.bytes += Number(entry.slice(entry.indexOf('\t') + 1)) || 0;
      if (served && report.written === 0 && report.removed === 0) {
        this.keepSpare();
        return { ...report, unchanged: true };
      }
      // Unchanged since the served tree, which the spare lags behind: linked, ahead or now.
      for (const path of this.stale) {
        const entry = served!.get(path);
        if (next.get(path) !== entry) continue;
        if (current.get(path) !== entry) this.linkServed(path);
        report.copied++;
      }
      for (const path of current.keys()) if (!next.has(path)) removeFile(spare, path);
      this.finishCache(active);
      writeIndex(spare, next);
      const { mirror } = this;
      if (mirror && mirror.linked > 0) writeIndex(mirror.to, new Map(mirror.paths.slice(0, mirror.linked).map((path) => [path, next.get(path)!])));
      swapLink(out, spare);
      return report;
    } finally {
      this.unlock();
    }
  }

  /** The new tree's cache: the files written this build, and the kept sections' from the served tree's. */
  private finishCache(active: string | undefined): void {
    const target = cacheDir(this.layout.spare);
    remove(target);
    if (!existsSync(this.cacheNext)) return;
    const served = active && cacheDir(active);
    for (const section of this.keeps.keys()) {
      for (const file of served && existsSync(served) ? readdirSync(served) : []) {
        if (file.startsWith(`${section}.`) && !existsSync(join(this.cacheNext, file))) linkSync(join(served!, file), join(this.cacheNext, file));
      }
    }
    renameSync(this.cacheNext, target);
  }

  /** Leaves the served tree as it is. */
  abort(): void {
    this.closed = true;
    this.keepSpare();
    this.unlock();
  }

  /**
   * When the spare is not swapped in: what was linked ahead into it stays
   * for the next build, unless files were written too (its index then no
   * longer says what it holds, and the next build starts it afresh).
   */
  private keepSpare(): void {
    remove(this.cacheNext);
    if (this.dirty && this.report.written === 0) writeIndex(this.layout.spare, this.current);
  }

  private makeDir(dir: string): void {
    if (!this.made.has(dir)) mkdirSync(dir, { recursive: true }), this.made.add(dir);
  }

  /** The spare's path for a file about to be replaced. */
  private prepare(path: string): string {
    // From the first change on, the spare's index and cache no longer describe it.
    if (!this.dirty) {
      remove(indexFile(this.layout.spare));
      remove(cacheDir(this.layout.spare));
      this.dirty = true;
    }
    const file = join(this.layout.spare, path);
    this.makeDir(dirname(file));
    // The old file may be a hard link shared with the served tree: replace it, never write into it.
    if (this.current.has(path)) unlinkSync(file);
    return file;
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
export function writeOutputs(writer: TreeWriter, outputs: Iterable<Output>, onFile?: (count: number) => void): WriteReport {
  let count = 0;
  try {
    for (const output of outputs) writer.take(output), onFile?.(++count);
  } catch (err) {
    writer.abort();
    throw err;
  }
  return writer.finish();
}
