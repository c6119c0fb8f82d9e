// The output folder's generations: the folder is a symlink to one of two
// generations beside it (`dist -> .dist.a`, with `.dist.b` the spare). A build
// brings the spare up to date, then swaps the link with one rename, so a
// reader never sees half a tree and a failed build leaves the served one
// exactly as it was. Each generation has an index of its files' hashes
// (diff.ts) and a build cache (cache.ts) beside it. One build at a time
// holds the folder's lock. File system only: what to write is decided elsewhere.
import {
  closeSync, existsSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, rmdirSync, rmSync,
  symlinkSync, unlinkSync, writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ReflistError } from '../errors.js';
import { MANIFEST } from '../client/paths.js';
import type { Index } from './diff.js';

export interface Generations {
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

/** What a generation holds, if it is whole: a build that stopped half-way removed its index first. */
export function readIndex(generation: string): Index | undefined {
  if (!existsSync(generation) || !existsSync(indexFile(generation))) return undefined;
  const index: Index = new Map();
  for (const line of readFileSync(indexFile(generation), 'utf8').split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) index.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return index;
}

export function writeIndex(generation: string, index: Index): void {
  let text = '';
  for (const [path, entry] of index) text += `${path}\t${entry}\n`;
  writeFileSync(indexFile(generation), text);
}

/** Says a generation no longer holds what its index and cache say: from its first change on. */
export function markChanging(generation: string): void {
  remove(indexFile(generation));
  remove(cacheDir(generation));
}

/** Empties a generation, index and all. */
export function clearGeneration(generation: string): void {
  remove(generation);
  remove(indexFile(generation));
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
export function openGenerations(outDir: string): Generations {
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
  clearGeneration(a);
  renameSync(out, a);
  swapLink(out, a);
  return { out, active: a, spare: b, twin: a };
}

/** Removes a file or a folder with everything in it, if it is there. */
export const remove = (path: string) => rmSync(path, { recursive: true, force: true });

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Points `out` at `generation` with one rename, so there is no moment without a tree. */
export function swapLink(out: string, generation: string): void {
  const link = `${out}.link-${process.pid}`;
  remove(link);
  symlinkSync(basename(generation), link);
  renameSync(link, out);
}

/** One build at a time per output folder: two would write the same spare generation. Returns the unlock. */
export function lock(outDir: string): () => void {
  const out = resolve(outDir);
  const file = join(dirname(out), `.${basename(out)}.lock`);
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch {
    throw new ReflistError('UNSAFE_OUTPUT', `another build is writing ${out} (remove ${file} if it is not)`);
  }
  closeSync(fd);
  // Once: a writer that failed has let go already when the build aborts it.
  return () => rmSync(file, { force: true });
}

/** Removes a file and any folders it leaves empty, up to the generation's root. */
export function removeFile(root: string, path: string): void {
  unlinkSync(join(root, path));
  for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) {
    try {
      rmdirSync(join(root, dir));
    } catch {
      return; // not empty
    }
  }
}
