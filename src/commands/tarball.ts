// The package `init` runs from, as the tarball `npm pack` makes of it, so a
// new project can carry reflist in `vendor/` and install it from there: reflist
// is on no registry, and a `file:` dependency on a tarball outside the project
// is missing from every clean checkout. packageFiles() finds the files (I/O);
// tarball() is the archive, pure: gzipped ustar, every path under `package/`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ReflistError } from '../errors.js';

export interface TarEntry {
  path: string;
  data: Uint8Array;
  executable: boolean;
}

/** npm's own date for every entry, so the same files always make the same bytes. */
const MTIME = Date.UTC(1985, 9, 26, 8, 15) / 1000;
const BLOCK = 512;

/** The files npm packs: package.json, the README and LICENSE, and what package.json's `files` names. */
export function packageFiles(root: string): TarEntry[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files?: string[] };
  const paths = new Set(['package.json', ...readdirSync(root).filter((f) => /^(README|LICENSE)(\.md)?$/i.test(f))]);
  for (const entry of pkg.files ?? []) {
    const full = join(root, entry);
    const stat = statSync(full, { throwIfNoEntry: false });
    if (stat?.isFile()) paths.add(entry);
    else if (stat)
      for (const file of readdirSync(full, { recursive: true, encoding: 'utf8' })) {
        if (statSync(join(full, file)).isFile()) paths.add(relative(root, join(full, file)).split(sep).join('/'));
      }
  }
  return [...paths].sort().map((path) => {
    const file = join(root, path);
    return { path, data: readFileSync(file), executable: (statSync(file).mode & 0o111) !== 0 };
  });
}

/** A field of a header: ASCII text, or an octal number of `width - 1` digits and a NUL. */
function put(header: Buffer, offset: number, width: number, value: string | number): void {
  const text = typeof value === 'number' ? `${value.toString(8).padStart(width - 1, '0')}\0` : value;
  header.write(text, offset, width, 'utf8');
}

/** A ustar name: up to 100 bytes, or a prefix of up to 155 before a slash. */
function splitName(path: string): [prefix: string, name: string] {
  if (Buffer.byteLength(path) <= 100) return ['', path];
  for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
    const [prefix, name] = [path.slice(0, slash), path.slice(slash + 1)];
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return [prefix, name];
  }
  throw new ReflistError('INVALID_OPTION', `init: ${path} is too long a path for a package tarball`);
}

function header(entry: TarEntry): Buffer {
  const block = Buffer.alloc(BLOCK);
  const [prefix, name] = splitName(`package/${entry.path}`);
  put(block, 0, 100, name);
  put(block, 100, 8, entry.executable ? 0o755 : 0o644);
  put(block, 108, 8, 0);
  put(block, 116, 8, 0);
  put(block, 124, 12, entry.data.length);
  put(block, 136, 12, MTIME);
  block.fill(' ', 148, 156); // the checksum counts its own field as spaces
  put(block, 156, 1, '0');
  put(block, 257, 6, 'ustar\0');
  put(block, 263, 2, '00');
  put(block, 345, 155, prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(block, 148, 7, sum);
  return block;
}

/** The gzipped ustar archive of the entries, each under `package/`, as npm installs a tarball from. */
export function tarball(entries: readonly TarEntry[]): Buffer {
  const blocks: Uint8Array[] = [];
  for (const entry of entries) {
    blocks.push(header(entry), entry.data, Buffer.alloc((BLOCK - (entry.data.length % BLOCK)) % BLOCK));
  }
  blocks.push(Buffer.alloc(2 * BLOCK));
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}
