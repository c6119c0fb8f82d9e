// Publishing the folder that holds a tree: the build's state (generations,
// indexes, caches, lock) lies outside it, so a copy that follows the output's
// link holds the tree's files and nothing else (docs/incremental.md, "Where
// the state lives"). The real CLI in a real project folder, copied by the
// tools deploys use.
import { describe, expect, test } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stateFolder } from '../../src/write/generations.js';
import { VALID } from '../fixtures/valid.js';
import { snapshotTree, tempDir, writeSources } from '../helpers.js';

const CLI = fileURLToPath(new URL('../../lib/cli.js', import.meta.url));

/** `reflist build` run in `cwd`, as `npm run build` runs it in a project. */
function build(cwd: string, ...args: string[]): string {
  const result = spawnSync(process.execPath, [CLI, 'build', ...args], { cwd, encoding: 'utf8' });
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

/** A project folder with the sources, as a user has one. */
function project(): string {
  const root = tempDir('reflist-project-');
  writeSources(join(root, 'sources'), VALID);
  writeSources(root, { 'package.json': '{"name":"site","private":true}\n' });
  return root;
}

/** The files of a folder, by path, each as its bytes: what a copy of it holds. */
const files = (root: string) => snapshotTree(root);

/** `tar` as actions/upload-pages-artifact runs it: links followed, into a fresh folder. */
function pagesArtifact(folder: string): string {
  const archive = join(tempDir('reflist-artifact-'), 'artifact.tar');
  execFileSync('tar', [
    '--dereference',
    '--hard-dereference',
    '--directory',
    folder,
    '-cf',
    archive,
    '--exclude=.git',
    '--exclude=.github',
    '.',
  ]);
  const unpacked = tempDir('reflist-unpacked-');
  execFileSync('tar', ['-xf', archive, '-C', unpacked]);
  return unpacked;
}

/** `cp -rL folder/. copy`: a local copy that follows links. */
function copyFollowingLinks(folder: string): string {
  const copy = tempDir('reflist-copy-');
  execFileSync('cp', ['-rL', `${folder}/.`, copy]);
  return copy;
}

describe('publishing the folder that holds the output', () => {
  test("after --out public/lookup, public/ holds the tree alone: its Pages artifact and a cp -rL copy are exactly the tree's files, before and after a rebuild", () => {
    const root = project();
    writeSources(join(root, 'public'), { 'index.html': '<p>site</p>' });
    for (const edit of [VALID['author.csv']!, VALID['author.csv']!.replace('Smith, John', 'Smythe, Joan')]) {
      writeSources(join(root, 'sources'), { 'author.csv': edit });
      build(root, '--sources', 'sources', '--out', 'public/lookup');
      expect(readdirSync(join(root, 'public')).sort()).toEqual(['index.html', 'lookup']);
      const tree = files(join(root, 'public/lookup'));
      const expected = new Map([
        ['index.html', files(join(root, 'public')).get('index.html')!],
        ...[...tree].map(([path, bytes]): [string, string] => [`lookup/${path}`, bytes]),
      ]);
      expect(tree.size).toBeGreaterThan(20);
      expect(files(pagesArtifact(join(root, 'public')))).toEqual(expected);
      expect(files(copyFollowingLinks(join(root, 'public')))).toEqual(expected);
    }
    // Everything else the build keeps is in the project's .reflist/, which .gitignore-s and deploys leave out.
    expect(readlinkSync(join(root, 'public/lookup'))).toBe('../.reflist/public/lookup.b');
    expect(readdirSync(join(root, '.reflist/public')).sort()).toEqual([
      'lookup.a',
      'lookup.a.cache',
      'lookup.a.index',
      'lookup.b',
      'lookup.b.cache',
      'lookup.b.index',
    ]);
  });

  test('the default dist: a copy of dist/ is exactly the tree, and the project holds dist beside its sources and .reflist/ only', () => {
    const root = project();
    build(root);
    expect(readdirSync(root).sort()).toEqual(['.reflist', 'dist', 'package.json', 'sources']);
    expect(readlinkSync(join(root, 'dist'))).toBe('.reflist/dist.a');
    const tree = files(join(root, 'dist'));
    expect(files(pagesArtifact(join(root, 'dist')))).toEqual(tree);
    expect(files(copyFollowingLinks(join(root, 'dist')))).toEqual(tree);
    // cp -r keeps links, so it is given the folder with a slash: then it copies through dist's own link.
    const plain = tempDir('reflist-cp-');
    execFileSync('cp', ['-r', `${join(root, 'dist')}/.`, plain]);
    expect(files(plain)).toEqual(tree);
  });

  test('a tree built in the layout before .reflist/ (dist -> .dist.a beside it) moves there at the next build, every file kept as it was, and leaves nothing beside dist', () => {
    const root = project();
    build(root);
    // The older layout, as builds before the state folder left it.
    for (const suffix of ['', '.index', '.cache'])
      renameSync(join(root, `.reflist/dist.a${suffix}`), join(root, `.dist.a${suffix}`));
    rmSync(join(root, '.reflist'), { recursive: true });
    rmSync(join(root, 'dist'));
    symlinkSync('.dist.a', join(root, 'dist'));
    const before = files(join(root, 'dist'));
    const inodes = new Map([...before.keys()].map((path) => [path, statSync(join(root, 'dist', path)).ino]));

    expect(build(root, '--sources', 'sources', '--out', 'dist')).toMatch(
      /^wrote 0 changed files, linked \d+ unchanged, removed 0 in /m,
    );
    expect(readlinkSync(join(root, 'dist'))).toBe('.reflist/dist.a');
    expect(readdirSync(root).sort()).toEqual(['.reflist', 'dist', 'package.json', 'sources']);
    expect(files(join(root, 'dist'))).toEqual(before);
    // Hard links to the same files: the same bytes and mtimes, so rsync and S3 syncs upload nothing.
    for (const [path, ino] of inodes) expect([path, statSync(join(root, 'dist', path)).ino]).toEqual([path, ino]);
  });

  test("a build run from another folder finds the state through the output's link, and writes only what changed", () => {
    const root = project();
    build(root, '--out', 'public/lookup');
    const author = statSync(join(root, 'public/lookup/author.json')).ino;
    const elsewhere = tempDir('reflist-elsewhere-');
    writeSources(join(root, 'sources'), { 'descriptor.csv': 'id,text\n1,Colour\n2,Shape\n3,Size\n' });
    const out = build(elsewhere, '--sources', join(root, 'sources'), '--out', join(root, 'public/lookup'));
    expect(out).toContain(
      'lists: author, division, country kept (sources unchanged); descriptor built from the sources',
    );
    expect(readlinkSync(join(root, 'public/lookup'))).toBe('../.reflist/public/lookup.b');
    expect(statSync(join(root, 'public/lookup/author.json')).ino).toBe(author);
    expect(readdirSync(join(root, 'public'))).toEqual(['lookup']);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe("where a new output's state goes", () => {
  test.each([
    ['dist', '/p', '/p/.reflist'],
    ['public/lookup', '/p', '/p/.reflist/public'],
    ['/p/site/public/lookup', '/p', '/p/.reflist/site/public'],
    ['/srv/www/lookup', '/p', '/srv/www/.reflist'],
    ['../other/dist', '/p/sub', '/p/other/.reflist'],
    ['lookup', '/p/public', '/p/public/.reflist'],
  ])('--out %j from %j: %j', (out, cwd, state) => {
    expect(stateFolder(out, cwd)).toBe(state);
  });
});
