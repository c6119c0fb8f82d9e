// Where the tree's files live, as builder and client both compute it: the
// table of paths, hashes and search-file routes, with no build.
import { describe, expect, test } from 'vitest';
import {
  bucketOf,
  bucketPath,
  canonicalDigits,
  childBucketPath,
  firstPagePaths,
  fnv1a,
  FILES_PER_DIR,
  layoutOf,
  nameOf,
  nestedFolder,
  pagePath,
  scoped,
  searchFileFor,
  searchPath,
} from '../../src/client/paths.js';

describe('public paths', () => {
  test.each([
    [['author', 3], 'author/page/3.json'],
    [['author', 1, 'system/gbif'], 'author/system/gbif/page/1.json'],
  ] as const)('page %j of a list is %s', ([list, page, variant], path) => {
    expect(pagePath(list, page, variant)).toBe(path);
  });

  test("page 1 is also the list's own file, with or without a group", () => {
    expect(firstPagePaths('author')).toEqual(['author.json', 'author/page/1.json']);
    expect(firstPagePaths('author', 'system/gbif')).toEqual([
      'author/system/gbif.json',
      'author/system/gbif/page/1.json',
    ]);
  });

  test('a paged list under a parent keeps its internal files in a folder of its root no id can name', () => {
    expect(nestedFolder(['country', 'city'])).toBe('country/~city');
    expect(nestedFolder(['country', 'state', 'city'])).toBe('country/~state~city');
    expect(scoped('US/6', 'san jose')).toBe('US/6/san jose');
  });
});

describe('ids and hashes', () => {
  test.each([
    ['0840', '840'],
    ['000', '0'],
    ['0', '0'],
    ['12', '12'],
    ['18446744073709551617', '18446744073709551617'],
  ])('the digits %s name the id %s', (digits, id) => {
    expect(canonicalDigits(digits)).toBe(id);
  });

  test('fnv1a is 32-bit FNV-1a over UTF-16 code units: the published values, and a prefix by count', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
    expect(fnv1a('foobar', undefined, 3)).toBe(fnv1a('foo'));
  });

  test('a name is 16 hex digits, two FNV-1a hashes of the key, and differs for keys that differ by one character', () => {
    expect(nameOf('a')).toMatch(/^e40c292c[0-9a-f]{8}$/);
    expect(nameOf('ab')).not.toBe(nameOf('ba'));
  });

  test("an id always lands in the same bucket, one of the list's", () => {
    for (const id of ['0', '7', '840', '18446744073709551617', 'US']) {
      expect(bucketOf(id, 13)).toBe(bucketOf(id, 13));
      expect(bucketOf(id, 13)).toBeGreaterThanOrEqual(0);
      expect(bucketOf(id, 13)).toBeLessThan(13);
    }
    expect(bucketOf('7', 1)).toBe(0);
  });

  test(`bucket files are numbered ${FILES_PER_DIR} a folder, under the list's layout and bucket count, stored gzipped`, () => {
    expect(bucketPath('author', 'L', 2500, 2345)).toBe('author/id/L-2500/2/345.json.gz');
    expect(childBucketPath('division', 'L', 3, 0)).toBe('division/child/L-3/0/0.json.gz');
  });

  test('a layout changes with the page size, the systems and the ranking, and with nothing else', () => {
    const layout = layoutOf(30, ['gbif']);
    expect(layoutOf(30, ['gbif'])).toBe(layout);
    expect(
      new Set([
        layout,
        layoutOf(31, ['gbif']),
        layoutOf(30, ['col']),
        layoutOf(30, undefined),
        layoutOf(30, ['gbif'], { exact: ['code'] }),
      ]).size,
    ).toBe(5);
  });
});

describe('search files', () => {
  const starts = ['', 'b', 'mu', 'muller', 'n'];

  test.each([
    ['a', 0], // before every other start: the first file
    ['b', 1],
    ['ba', 1],
    ['m', 2], // a prefix of the next file's first key belongs to it
    ['mu', 2], // a file that starts with the query itself
    ['mul', 3],
    ['muller', 3], // a large prefix's own file
    ['mullers', 3],
    ['z', 4],
  ])('the query %j is answered by file %i', (q, file) => {
    expect(searchFileFor(q, starts)).toBe(file);
  });

  test('a query before every first key goes to the first file', () => {
    expect(searchFileFor('a', ['b', 'c'])).toBe(0);
  });

  test("a search file's path changes with its own start, the next one's and how much it shares with the previous one, and nothing else", () => {
    const path = searchPath('author', 'L', starts, 2);
    expect(path).toMatch(/^author\/search\/[0-9a-f]{2}\/[0-9a-f]{14}\.json\.gz$/);
    expect(searchPath('author', 'L', ['', 'c', 'mu', 'muller', 'x'], 2)).toBe(path); // the previous start shares as little with it
    expect(searchPath('author', 'L', ['', 'm', 'mu', 'muller', 'n'], 2)).not.toBe(path);
    expect(searchPath('author', 'L', ['', 'b', 'mu', 'mul', 'n'], 2)).not.toBe(path);
    expect(searchPath('author', 'M', starts, 2)).not.toBe(path);
  });
});
