// Stage 5, write: the only module that writes the tree. It writes beside the
// output folder and swaps the finished tree in, so a reader never sees half a
// tree and a failed build leaves the previous one exactly as it was.
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import fse from 'fs-extra';
import { ReflistError } from './errors.js';
import { MANIFEST } from './client/paths.js';
import type { TreeFile } from './render.js';

export interface WriteReport {
  files: number;
  bytes: number;
}

/** Tree paths are made from digits and checked system ids; anything else is a bug, never a path. */
const SAFE_PATH = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9_\-./]+$/;

/** Refuses to replace a folder that is not a reflist tree (`--out .` must not wipe a project). */
function checkReplaceable(out: string): void {
  if (!existsSync(out)) return;
  const entries = readdirSync(out);
  if (entries.length > 0 && !entries.includes(MANIFEST)) {
    throw new ReflistError('UNSAFE_OUTPUT', `${out} is not empty and holds no ${MANIFEST}: refusing to replace it`);
  }
}

export function writeTree(outDir: string, files: Iterable<TreeFile>, onFile?: (count: number) => void): WriteReport {
  const out = resolve(outDir);
  checkReplaceable(out);
  const stage = join(dirname(out), `.${basename(out)}.tmp-${process.pid}`);
  fse.removeSync(stage);
  mkdirSync(stage, { recursive: true });
  const made = new Set<string>([stage]);
  let count = 0;
  let bytes = 0;
  try {
    for (const [path, text] of files) {
      if (!SAFE_PATH.test(path)) throw new ReflistError('UNSAFE_OUTPUT', `refusing to write unsafe path "${path}"`);
      const file = join(stage, path);
      const dir = dirname(file);
      if (!made.has(dir)) mkdirSync(dir, { recursive: true }), made.add(dir);
      const data = Buffer.from(text);
      writeFileSync(file, data);
      count++;
      bytes += data.length;
      onFile?.(count);
    }
    const old = join(dirname(out), `.${basename(out)}.old-${process.pid}`);
    const hadTree = existsSync(out);
    if (hadTree) renameSync(out, old);
    renameSync(stage, out);
    if (hadTree) fse.removeSync(old);
  } catch (err) {
    fse.removeSync(stage);
    throw err;
  }
  return { files: count, bytes };
}
