// A tree's measure and a host's caps from an index alone (no build, no
// folder): fit.test.ts holds the same figures to a walk of real trees.
import { expect, test } from 'vitest';
import type { Host } from '../../src/config/hosts.js';
import { measureTree, overCaps, partOf } from '../../src/write/fit.js';

/** An index as the writer keeps it: path → `hash<TAB>size`. */
const indexOf = (files: Record<string, number>) =>
  new Map(Object.entries(files).map(([path, bytes]) => [path, `h\t${bytes}`]));

test.each([
  ['author.json', 'public'],
  ['author/3.json', 'public'],
  ['author/page/2.json', 'page'],
  ['author/id/0123456789abcdef-13/0/7.json.gz', 'id'],
  ['division/child/0123456789abcdef-2/0/1.json.gz', 'id'],
  ['author/search/ab/0123456789abcd.json.gz', 'search'],
  ['author/pages/ab/0123456789abcd.json.gz', 'results'],
  ['lookup.json', 'other'],
  ['lookup-client.js', 'other'],
  ['_headers', 'other'],
])('%s is a file of the %s part', (path, part) => {
  expect(partOf(path)).toBe(part);
});

const TREE = indexOf({
  'lookup.json': 500,
  '_worker.js': 9000,
  'author.json': 2000,
  'author/page/1.json': 2000,
  'author/page/2.json': 1500,
  'author/page/2.json.gz': 400,
  'country/840/state.json': 800,
  'country/124/state.json': 300,
});

test('a folder is an entry of the folder above it, and a copy is counted apart as well as among the files', () => {
  const size = measureTree(TREE);
  expect(size).toMatchObject({
    files: 8,
    bytes: 16500,
    copies: { files: 1, bytes: 400 },
    largest: { path: '_worker.js', bytes: 9000 },
  });
  expect(size.root).toEqual({ 'lookup.json': 500, '_worker.js': 9000, 'author.json': 2000 });
  // The root: three files and the folders author/ and country/; author/page/: three files.
  expect(size.fullest).toEqual({ path: '', entries: 5 });
  expect(size.parts['author']).toEqual({
    public: { files: 1, bytes: 2000 },
    page: { files: 2, bytes: 3500 },
    copies: { files: 1, bytes: 400 },
  });
  expect(size.crowded).toEqual([]);
});

test('a host is told each cap the tree is over, with its figure, and the root files it reads as settings do not count', () => {
  const host: Host = {
    name: 'tiny',
    title: 'Tiny',
    files: 6,
    fileBytes: 1800,
    folderEntries: 3,
    settings: ['_worker.js'],
  };
  const misfits = overCaps(measureTree(TREE, host), host);
  expect(misfits).toEqual([
    { figure: 'files', value: 7, cap: 6 },
    { figure: 'file', path: 'author.json', value: 2000, cap: 1800, more: 1 },
    { figure: 'folder', path: '', value: 5, cap: 3 },
  ]);
  expect(
    overCaps(measureTree(TREE), { name: 'roomy', title: 'Roomy', files: 8, fileBytes: 9000, folderEntries: 5 }),
  ).toEqual([]);
});
