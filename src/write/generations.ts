// The output folder's generations: the folder is a symlink to one of two
// generations in the build's state folder (`dist -> .reflist/dist.a`, with
// `.reflist/dist.b` the spare). A build brings the spare up to date, then swaps
// the link with one rename, so a reader never sees half a tree and a failed
// build leaves the served one exactly as it was. Each generation has an index
// of its files' hashes (diff.ts) and a build cache (cache.ts) beside it. One
// build at a time holds the output's lock. The state lies outside the folder
// that holds the output, so that publishing that folder (`public/` after
// `--out public/lookup`) ships the tree alone (docs/incremental.md). File
// system only: what to write is decided elsewhere.
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ReflistError } from '../errors.js';
import { MANIFEST } from '../client/paths.js';
import type { Index } from './diff.js';

export interface Generations {
  out: string;
  /** The folder of the generations, their indexes and caches, and the lock. */
  state: string;
  /** The generation the output link points to, if any. */
  active?: string;
  spare: string;
  /** The generation that is not the spare. */
  twin: string;
  /** The output is a plain folder an older build left: it becomes the first generation. */
  plain?: boolean;
  /**
   * The served generation lies beside the output, where builds before the
   * state folder kept it (`.dist.a`): the spare is swapped in even when
   * nothing changed, and the older generations are removed after.
   */
  moving?: boolean;
}

/** The state folder's name. */
export const STATE = '.reflist';

/**
 * Where a new output's state goes: `.reflist/` of the folder the build runs
 * in, below it as the output's folder is below it (`public/lookup` →
 * `.reflist/public/`), or, for an output outside that folder, `.reflist/`
 * beside the output.
 */
export function stateFolder(out: string, cwd: string): string {
  const folder = dirname(resolve(cwd, out));
  const below = relative(cwd, folder);
  const inside = below === '' || (below !== '..' && !below.startsWith(`..${sep}`) && !isAbsolute(below));
  return inside ? join(cwd, STATE, below) : join(folder, STATE);
}

const pair = (state: string, name: string): [string, string] => [join(state, `${name}.a`), join(state, `${name}.b`)];
/** The generations of the layout before the state folder: beside the output, hidden. */
const olderPair = (out: string): [string, string] => pair(dirname(out), `.${basename(out)}`);

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
 * Finds the generations of an output folder, writing nothing, and refuses
 * anything that is not a reflist tree (`--out .` must not wipe a project). A
 * link into a state folder keeps its state wherever the build runs from.
 */
export function findGenerations(outDir: string): Generations {
  const out = resolve(outDir);
  const name = basename(out);
  const stat = existsSync(out) || isLink(out) ? lstatSync(out) : undefined;
  if (stat?.isSymbolicLink()) {
    const target = resolve(dirname(out), readlinkSync(out));
    const state = dirname(target);
    const [a, b] = pair(state, name);
    if ((target === a || target === b) && state.split(sep).includes(STATE))
      return { out, state, active: target, spare: target === a ? b : a, twin: target };
    if (olderPair(out).includes(target)) {
      const [spare, twin] = pair(stateFolder(out, process.cwd()), name);
      return { out, state: dirname(spare), active: target, spare, twin, moving: true };
    }
    throw new ReflistError(
      'NOT_A_TREE',
      `${out} is a link to ${target}, not to a reflist generation: refusing to replace it`,
    );
  }
  const state = stateFolder(out, process.cwd());
  const [a, b] = pair(state, name);
  if (!stat) return { out, state, spare: a, twin: b };
  const entries = stat.isDirectory() ? readdirSync(out) : ['(a file)'];
  if (entries.length > 0 && !entries.includes(MANIFEST)) {
    throw new ReflistError('NOT_A_TREE', `${out} is not empty and holds no ${MANIFEST}: refusing to replace it`);
  }
  return { out, state, spare: a, twin: b, plain: true };
}

/** Makes a plain output folder from an older build the first generation; under the lock. */
export function adoptPlainFolder(g: Generations): Generations {
  if (!g.plain) return g;
  clearGeneration(g.spare);
  renameSync(g.out, g.spare);
  swapLink(g.out, g.spare);
  return { out: g.out, state: g.state, active: g.spare, spare: g.twin, twin: g.spare };
}

/** Removes the generations, indexes and caches builds before the state folder kept beside the output. */
export function removeOlderLayout(out: string): void {
  for (const generation of olderPair(out)) {
    remove(generation);
    remove(indexFile(generation));
    remove(cacheDir(generation));
  }
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

/**
 * Points `out` at `generation` with one rename, so there is no moment without
 * a tree; relative, so the project can move.
 */
export function swapLink(out: string, generation: string): void {
  const link = `${out}.link-${process.pid}`;
  remove(link);
  symlinkSync(relative(dirname(out), generation), link);
  renameSync(link, out);
}

const lockFile = ({ out, state }: Generations) => join(state, `${basename(out)}.lock`);

/**
 * One build at a time per output folder: two would write the same spare
 * generation. The lock file holds the process's id, so that a process whose
 * build thread died holding it can let go of it (releaseLock). Returns the unlock.
 */
export function lock(g: Generations): () => void {
  mkdirSync(g.state, { recursive: true });
  const file = lockFile(g);
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (err) {
    // Only a lock file that is there is a held lock; a folder this user may not write is an IO error.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    throw new ReflistError('LOCKED', `another build is writing ${g.out} (remove ${file} if it is not)`);
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } catch (err) {
    rmSync(file, { force: true });
    throw err;
  } finally {
    closeSync(fd);
  }
  // Once: a writer that failed has let go already when the build aborts it.
  return () => rmSync(file, { force: true });
}

/**
 * Lets go of an output folder's lock that a build took and can no longer
 * release: its process (`pid`, this one unless given) died out of its memory
 * with the writer's thread in it. Only a lock file that names that process
 * goes, never another build's. Whatever else the dead build left, a spare half
 * written (its index removed first) and its cache, the next build clears.
 */
export function releaseLock(outDir: string, pid: number = process.pid): boolean {
  let file: string;
  try {
    file = lockFile(findGenerations(outDir));
  } catch {
    return false; // not a tree: no build of this one locked it
  }
  try {
    if (readFileSync(file, 'utf8') !== `${pid}\n`) return false;
  } catch {
    return false; // no lock, or none to read
  }
  rmSync(file, { force: true });
  return true;
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
