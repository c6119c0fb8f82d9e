// Paged lists under a parent (docs/lists.md, Paged lists under a parent),
// built for real and asked through the client over a static server and
// through the compat server: their pages under each parent item, Term and Id
// under a parent, a page past the end, a parent with no items, an unknown
// parent, and large prefixes under a parent when the index's files are cut small.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Manifest, NestedInfo } from '../../src/client/types.js';
import { createCompatServer, listen } from '../../src/commands/serve.js';
import { CITY_FILES, NESTED_CONFIG as CONFIG } from '../fixtures/cities.js';
import { SMALL_SEARCH } from '../host-checks.js';
import { buildFrom, startServe, tempDir, treeClient, type Running } from '../helpers.js';

const names = (...xs: string[]) => xs;
/** [what a user sees, the request, the status, the total and the names answered (or the error)] */
const ANSWERS: [string, string, number, number | string, string[]][] = [
  [
    "page 1 of a parent's cities, most populous first",
    '/country/US/city.json',
    200,
    8,
    names('Los Angeles', 'San Diego'),
  ],
  ['a later page', '/country/US/city.json?Page=4', 200, 8, names('Springfield', 'Springfield')],
  ['a page past the end: no items, and the true total', '/country/US/city.json?Page=5', 200, 8, []],
  ['a page far past the end', '/country/US/city.json?Page=9999999999', 200, 8, []],
  ['a parent with no items: an empty page 1', '/country/AQ/city.json', 200, 0, []],
  ['a parent with no items, past page 1', '/country/AQ/city.json?Page=3', 200, 0, []],
  ['a parent with no items, a Term', '/country/AQ/city.json?Term=san', 200, 0, []],
  ['a parent with no items, an Id', '/country/AQ/city.json?Id=1', 200, 0, []],
  ['an unknown parent, page 1', '/country/XX/city.json', 404, 'not found: /country/XX/city.json', []],
  ['an unknown parent, a later page', '/country/XX/city.json?Page=2', 404, 'not found: /country/XX/city.json', []],
  ['an unknown parent, a Term', '/country/XX/city.json?Term=san', 404, 'not found: /country/XX/city.json', []],
  ['an unknown parent, an Id', '/country/XX/city.json?Id=4', 404, 'not found: /country/XX/city.json', []],
  [
    'a Term under a parent, most populous first',
    '/country/US/city.json?Term=san',
    200,
    3,
    names('San Diego', 'San Jose'),
  ],
  ["a Term's next page under a parent", '/country/US/city.json?Term=san&Page=2', 200, 3, names('San Francisco')],
  ["a Term's page past the end under a parent", '/country/US/city.json?Term=san&Page=3', 200, 3, []],
  ['a Term that matches elsewhere but not under this parent', '/country/AT/city.json?Term=san%20jose', 200, 0, []],
  ['an exact name first under a parent', '/country/US/city.json?Term=san%20jose', 200, 1, names('San Jose')],
  ['a later word under another parent', '/country/GT/city.json?Term=san%20jose', 200, 1, names('Puerto San José')],
  ['a searched column under a parent', '/country/AT/city.json?Term=vienna', 200, 1, names('Wien')],
  ['one letter under a parent', '/country/AT/city.json?Term=s', 200, 2, names('Salzburg', 'Sankt Pölten')],
  ['an Id under its parent', '/country/CL/city.json?Id=4', 200, 1, names('Santiago')],
  ['an Id with leading zeros', '/country/CL/city.json?Id=0004', 200, 1, names('Santiago')],
  ["an Id of another parent's item finds nothing", '/country/US/city.json?Id=4', 200, 0, []],
  ['an Id wins over Term and Page', '/country/US/city.json?Id=18&Term=zz&Page=7', 200, 1, names('Los Angeles')],
  ['a malformed Page', '/country/US/city.json?Page=0', 400, 'Page: expected an integer ≥ 1, got "0"', []],
  ['a malformed Id', '/country/US/city.json?Id=x', 400, 'Id: expected digits, got "x"', []],
  [
    'an unknown parent, a malformed Page: its path is checked first',
    '/country/XX/city.json?Page=0',
    404,
    'not found: /country/XX/city.json',
    [],
  ],
  ['an unknown parent, a malformed Id', '/country/XX/city.json?Id=x', 404, 'not found: /country/XX/city.json', []],
  [
    'two levels down, in list order, by the renamed page parameter',
    '/country/US/region/CA/town.json?p=2',
    200,
    4,
    names('San Francisco', 'San Jose'),
  ],
  ['two levels down, a Term', '/country/US/region/CA/town.json?q=san', 200, 3, names('San Diego', 'San Francisco')],
  ["two levels down, a Term's second page", '/country/US/region/CA/town.json?q=san&p=2', 200, 3, names('San Jose')],
  [
    "a region whose id is a country's: the chain tells them apart",
    '/country/CZ/region/US/town.json?q=us',
    200,
    1,
    names('Ústí nad Labem'),
  ],
  [
    'an unknown region of a known country',
    '/country/US/region/CZ/town.json?q=us',
    404,
    'not found: /country/US/region/CZ/town.json',
    [],
  ],
  ['a region with no towns', '/country/US/region/WY/town.json?q=a', 200, 0, []],
  ['two levels down, an Id', '/country/US/region/TX/town.json?item=11', 200, 1, names('Austin')],
  ['two levels down, a page past the end', '/country/AT/region/W/town.json?p=2', 200, 1, []],
];

let server: Running;
const root = tempDir();
beforeAll(async () => {
  server = await startServe(root);
});
afterAll(() => server.stop());

const SIZES: [string, object | undefined][] = [
  ['default', undefined],
  ['small', SMALL_SEARCH],
  ['tiny', { leafBytes: 0, fileBytes: 0, pagesBytes: 0 }],
];

describe.each(SIZES)('a paged list under a parent, with %s search files', (size, search) => {
  const out = join(root, size);
  let compat: ReturnType<typeof createCompatServer>;
  let port: number;
  beforeAll(async () => {
    await buildFrom({ ...CITY_FILES, 'reflist.config.json': JSON.stringify(CONFIG) }, out, 2, search);
    compat = createCompatServer({ dir: out });
    port = await listen(compat, 0, '127.0.0.1');
  });
  afterAll(() => compat.close());

  test.each(ANSWERS)('%s: %s', async (_what, url, status, total, expected) => {
    const client = await treeClient(out, { baseUrl: `${server.url}${size}/` });
    const answer = await client.request(url);
    if (status === 200) {
      const body = answer.body as { total: number; items: { text: string }[] };
      expect({ status: answer.status, total: body.total, names: body.items.map((it) => it.text) }).toEqual({
        status,
        total,
        names: expected,
      });
    } else expect(answer).toEqual({ status, body: { error: total } });
    const res = await fetch(`http://127.0.0.1:${port}${url}`);
    expect({ status: res.status, body: await res.json() }).toEqual(answer);
  });

  test('each page and item is a public file a static host serves as it is', async () => {
    const read = async (path: string) => (await fetch(`${server.url}${size}/${path}`)).json();
    expect(await read('country/US/city/page/2.json')).toEqual(
      await (await fetch(`http://127.0.0.1:${port}/country/US/city.json?Page=2`)).json(),
    );
    expect(await read('country/US/city/page/1.json')).toEqual(await read('country/US/city.json'));
    expect(await read('country/CL/city/4.json')).toEqual({
      id: 4,
      text: 'Santiago',
      name: 'Santiago',
      ascii: 'Santiago',
      country: 'CL',
      population: 6257516,
    });
    expect(await read('country/AQ/city.json')).toEqual({ total: 0, items: [] });
  });

  test('lookup() of many ids is for lists without a parent: under one, the error says to ask Id under the parent', async () => {
    const client = await treeClient(out, { baseUrl: `${server.url}${size}/` });
    await expect(client.lookup('city', [4])).rejects.toThrow(
      'lookup: "city" is a list under a parent, whose ids name an item only under their parent; request its Id under the parent\'s path',
    );
  });

  test('one Id bucket set and one Term index serve every parent, in a folder no id can name', () => {
    const manifest = JSON.parse(readFileSync(join(out, 'lookup.json'), 'utf8')) as Manifest;
    const city = manifest.lists['city'] as NestedInfo;
    expect(city.total).toBe(22);
    // Small search files make many: the list is listed in two levels, its heads' directories named in lookup.json.
    // The words rule's typo vocabulary has buckets.
    expect(Object.keys(city).sort()).toEqual([
      'buckets',
      ...(size === 'small' ? ['heads'] : []),
      'layout',
      'search',
      'total',
      'vocab',
    ]);
    expect(
      readdirSync(join(out, 'country'))
        .filter((f) => f.startsWith('~'))
        .sort(),
    ).toEqual(['~big', '~city', '~region~town']);
    expect(readdirSync(join(out, 'country', 'US', 'city')).filter((f) => !/^\d+\.json$/.test(f))).toEqual(['page']);
  });
});

test("under a parent, a large prefix's results are stored, and no prefix that cannot be a query has any", async () => {
  const out = join(root, 'large');
  await buildFrom({ ...CITY_FILES, 'reflist.config.json': JSON.stringify(CONFIG) }, out, 2, SMALL_SEARCH);
  const search = join(out, 'country', '~city', 'search');
  const large = readdirSync(search, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.json.gz'))
    .flatMap((f) =>
      Object.keys((JSON.parse(gunzipSync(readFileSync(join(search, f))).toString()) as { large?: object }).large ?? {}),
    );
  expect(large).toContain('US/san');
  // Each is a parent's id, `/`, and a Term: never a part of an id, a bare `/` or a trailing space.
  for (const prefix of large) expect(prefix).toMatch(/^[A-Z]{2}\/[^/ ](.*[^ ])?$/);
});
