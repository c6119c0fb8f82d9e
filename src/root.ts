// The package's own files beside its code (lib/, demo/, package.json) are
// found from here: this module sits one folder below the package's root both
// as source (src/root.ts) and bundled (a chunk in lib/), wherever the modules
// that ask for them are.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ReflistError } from './errors.js';

export const packageFile = (path: string): URL => new URL(`../${path}`, import.meta.url);

/** src/'s hash, which scripts/compile.mjs stamps lib/ with: every .ts file's path and bytes, in path order. */
export function sourceHash(src: string): string {
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.split(sep).join('/'))
    .sort();
  const hash = createHash('sha1');
  for (const f of files)
    hash
      .update(`${f}\0`)
      .update(readFileSync(join(src, f)))
      .update('\0');
  return hash.digest('hex');
}

let checked: string | undefined;

/**
 * Code run from src/ (the tests, tsx) reads files that `npm run compile` made
 * in lib/ (the tree's scripts, the writer's thread): they must be made from
 * these very sources, or a build would carry an older client or run an older
 * writer without a word. Bundled in lib/, this module is lib/, and nothing is
 * checked.
 */
export function checkLib(): void {
  if (!import.meta.url.endsWith('.ts') || checked === '') return;
  checked ??= (() => {
    const stamp = fileURLToPath(packageFile('lib/source-stamp.json'));
    if (!existsSync(stamp)) return 'lib/ is missing or was not made by npm run compile: run npm run compile';
    const made = (JSON.parse(readFileSync(stamp, 'utf8')) as { src: string }).src;
    const now = sourceHash(fileURLToPath(packageFile('src/')));
    return made === now ? '' : 'lib/ was compiled from other sources than src/ holds now: run npm run compile';
  })();
  if (checked !== '') throw new ReflistError('INVALID_OPTION', checked);
}
