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
import { hash } from 'node:crypto';
import {
  closeSync, existsSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync,
  renameSync, rmdirSync, symlinkSync, unlinkSync, writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import fse from 'fs-extra';
import { ReflistError } from './errors.js';
import { MANIFEST } from './client/paths.js';
import type { TreeFile } from './render.js';

export interface WriteReport {
  /** Files and bytes of the new tree. */
  files: number;
  bytes: number;
  /** Files written because their content changed since the served tree. */
  written: number;
  /** Unchanged files linked from the served tree into the spare generation. */
  copied: number;
  /** Files of the served tree that the new one no longer has. */
  removed: number;
  /** True when the new tree equals the served one: nothing was written or swapped. */
  unchanged: boolean;
}

/** Tree paths are made from digits and checked system ids; anything else is a bug, never a path. */
const SAFE_PATH = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9_\-./]+$/;

type Index = Map<string, string>;

interface Layout {
  out: string;
  /** The generation the output link points to, if any. */
  active?: string;
  spare: string;
}

const indexFile = (generation: string) => `${generation}.index`;

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
  const lines = [...index].map(([path, h]) => `${path}\t${h}\n`);
  writeFileSync(indexFile(generation), lines.sort().join(''));
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
  if (!stat) return { out, spare: a };
  if (stat.isSymbolicLink()) {
    const target = resolve(dirname(out), readlinkSync(out));
    if (target === a || target === b) return { out, active: target, spare: target === a ? b : a };
    throw new ReflistError('UNSAFE_OUTPUT', `${out} is a link to ${target}, not to a reflist generation: refusing to replace it`);
  }
  const entries = stat.isDirectory() ? readdirSync(out) : ['(a file)'];
  if (entries.length > 0 && !entries.includes(MANIFEST)) {
    throw new ReflistError('UNSAFE_OUTPUT', `${out} is not empty and holds no ${MANIFEST}: refusing to replace it`);
  }
  fse.removeSync(a);
  fse.removeSync(indexFile(a));
  renameSync(out, a);
  swapLink(out, a);
  return { out, active: a, spare: b };
}

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
  fse.removeSync(link);
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

export function writeTree(outDir: string, files: Iterable<TreeFile>, onFile?: (count: number) => void): WriteReport {
  mkdirSync(dirname(resolve(outDir)), { recursive: true });
  const unlock = lock(resolve(outDir));
  try {
    return update(layout(outDir), files, onFile);
  } finally {
    unlock();
  }
}

function update({ out, active, spare }: Layout, files: Iterable<TreeFile>, onFile?: (count: number) => void): WriteReport {
  const served = active ? readIndex(active) : undefined;
  let current = readIndex(spare);
  if (!current) {
    // An unknown spare (none yet, or a build that stopped half-way) starts empty.
    fse.removeSync(spare);
    current = new Map();
  }
  const report: WriteReport = { files: 0, bytes: 0, written: 0, copied: 0, removed: 0, unchanged: false };
  const next: Index = new Map();
  const pending: string[] = [];
  const made = new Set<string>();
  let dirty = false;
  const ensureDir = (dir: string) => {
    if (!made.has(dir)) mkdirSync(dir, { recursive: true }), made.add(dir);
  };
  const touchSpare = () => {
    // From the first change on, the spare's index no longer describes it.
    if (!dirty) fse.removeSync(indexFile(spare)), (dirty = true);
  };

  for (const [path, text] of files) {
    if (!SAFE_PATH.test(path)) throw new ReflistError('UNSAFE_OUTPUT', `refusing to write unsafe path "${path}"`);
    const data = Buffer.from(text);
    const h = hash('sha1', data, 'base64');
    next.set(path, h);
    report.files++;
    report.bytes += data.length;
    onFile?.(report.files);
    if (served?.get(path) === h) {
      if (current.get(path) !== h) pending.push(path);
      continue;
    }
    touchSpare();
    const file = join(spare, path);
    ensureDir(dirname(file));
    // The old file may be a hard link shared with the served tree: replace it, never write into it.
    if (current.has(path)) unlinkSync(file);
    writeFileSync(file, data);
    report.written++;
  }
  if (served) for (const path of served.keys()) if (!next.has(path)) report.removed++;
  if (served && report.written === 0 && report.removed === 0) return { ...report, unchanged: true };

  touchSpare();
  for (const path of pending) {
    // Unchanged since the served tree: a hard link gives the same bytes and
    // the same mtime without copying them.
    const to = join(spare, path);
    ensureDir(dirname(to));
    if (current.has(path)) unlinkSync(to);
    linkSync(join(active!, path), to);
    report.copied++;
  }
  for (const path of current.keys()) if (!next.has(path)) removeFile(spare, path);
  writeIndex(spare, next);
  swapLink(out, spare);
  return report;
}
