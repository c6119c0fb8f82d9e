// The service's answers from a route, a manifest and a reader of files alone:
// a tree held in memory, with no fetch, no cache and no server (answer.ts).
import { describe, expect, test } from 'vitest';
import { answerRequest, lookupItems, Stale } from '../../src/client/answer.js';
import { bucketOf, bucketPath, childBucketPath, pagePath, searchPath } from '../../src/client/paths.js';
import type { ChildRecord, EntryRecord, Manifest } from '../../src/client/types.js';
import { apiOf } from '../../src/config/api.js';
import { checkConfig } from '../../src/config/declaration.js';
import { LOOKUP_SERVICE_CONFIG } from '../../src/config/preset.js';

const api = apiOf(checkConfig(structuredClone(LOOKUP_SERVICE_CONFIG), 'reflist.config.json').declaration!);
const LAYOUT = 'L';
const AUTHORS: EntryRecord[] = [
  [3, 'Jones, A.', [0, 4]],
  [7, 'Smith, J.', [2]],
  [9, 'Smithers, K.'],
];
const SEARCH = ['', 's'];
const manifest: Manifest = {
  format: 4,
  pageSize: 2,
  systems: [
    { id: 'col', text: 'Catalogue of Life' },
    { id: 'gbif', text: 'GBIF' },
  ],
  lists: {
    author: { layout: LAYOUT, total: 3, pages: 2, buckets: 2, search: SEARCH },
    division: { layout: LAYOUT, total: 1, pages: 1, buckets: 1, childBuckets: 1, search: [''] },
  },
  api,
};

/** The tree's files, parsed, by path: the authors in their two id buckets, the authors in two search files by first key. */
function files(): Map<string, unknown> {
  const tree = new Map<string, unknown>();
  for (const b of [0, 1])
    tree.set(
      bucketPath('author', LAYOUT, 2, b),
      AUTHORS.filter(([id]) => bucketOf(String(id), 2) === b),
    );
  tree.set(searchPath('author', LAYOUT, SEARCH, 0), { records: [AUTHORS[0]] });
  tree.set(searchPath('author', LAYOUT, SEARCH, 1), { records: [AUTHORS[1], AUTHORS[2]] });
  tree.set(pagePath('author', 2), { total: 3, items: [{ id: 9, text: 'Smithers, K.' }] });
  const child: ChildRecord = [12, 'Beetles', [5, 'Zoology']];
  tree.set(childBucketPath('division', LAYOUT, 1, 0), [child]);
  return tree;
}

/** A reader over the files in memory that notes each path it is asked for. */
function reader(tree = files()) {
  const asked: string[] = [];
  const read = async <T>(path: string) => {
    asked.push(path);
    return tree.get(path) as T | undefined;
  };
  return { read, asked };
}

describe('a paged list answered from files in memory', () => {
  test('a page is its page file as stored, read once', async () => {
    const { read, asked } = reader();
    expect(await answerRequest(read, '/author.json?Page=2', manifest)).toEqual({
      status: 200,
      body: { total: 3, items: [{ id: 9, text: 'Smithers, K.' }] },
    });
    expect(asked).toEqual([pagePath('author', 2)]);
  });

  test('an Id is found in its id bucket alone, with the count of the System asked for', async () => {
    const { read, asked } = reader();
    expect(await answerRequest(read, '/author.json?Id=007&System=col', manifest)).toEqual({
      status: 200,
      body: { total: 1, items: [{ id: 7, text: 'Smith, J.', count: 2 }] },
    });
    expect(asked).toEqual([bucketPath('author', LAYOUT, 2, bucketOf('7', 2))]);
  });

  test('a Term ranks the records of the one search file that holds its range, a page at a time', async () => {
    const { read, asked } = reader();
    expect(await answerRequest(read, '/author.json?Term=smi', manifest)).toEqual({
      status: 200,
      body: {
        total: 2,
        items: [
          { id: 7, text: 'Smith, J.' },
          { id: 9, text: 'Smithers, K.' },
        ],
      },
    });
    expect(asked).toEqual([searchPath('author', LAYOUT, SEARCH, 1)]);
  });

  test('a child Id answers its parent carrying that child alone', async () => {
    const { read } = reader();
    expect(await answerRequest(read, '/division.json?child=true&Id=12', manifest)).toEqual({
      status: 200,
      body: { total: 1, items: [{ id: 5, text: 'Zoology', children: [{ id: 12, text: 'Beetles' }] }] },
    });
  });

  test('a malformed parameter answers 400 without reading a file', async () => {
    const { read, asked } = reader();
    expect(await answerRequest(read, '/author.json?Page=0', manifest)).toEqual({
      status: 400,
      body: { error: 'Page: expected an integer ≥ 1, got "0"' },
    });
    expect(asked).toEqual([]);
  });
});

describe('what tells the reader its manifest is older than the tree', () => {
  test('a file the manifest routes to that is missing rejects with Stale, naming the file', async () => {
    const tree = files();
    const page = pagePath('author', 2);
    tree.delete(page);
    const answer = answerRequest(reader(tree).read, '/author.json?Page=2', manifest);
    await expect(answer).rejects.toBeInstanceOf(Stale);
    await expect(answer).rejects.toThrow(`missing file ${page}`);
  });

  test('a page whose total is not the manifest’s rejects with Stale, carrying the page to answer if the manifest is current', async () => {
    const tree = files();
    tree.set(pagePath('author', 2), { total: 4, items: [] });
    const err = await answerRequest(reader(tree).read, '/author.json?Page=2', manifest).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stale);
    expect((err as Stale).fallback).toEqual({ status: 200, body: { total: 4, items: [] } });
  });
});

test('lookup reads each id bucket once, answers items in the order asked, and names the ids that are no item', async () => {
  const { read, asked } = reader();
  expect(await lookupItems(read, manifest, 'author', [9, '3', 'x', 4, '09'], { group: 'gbif' })).toEqual({
    items: [
      { id: 9, text: 'Smithers, K.', count: 0 },
      { id: 3, text: 'Jones, A.', count: 4 },
    ],
    unknown: ['x', '4'],
  });
  expect(asked.length).toBe(new Set(asked).size);
});
