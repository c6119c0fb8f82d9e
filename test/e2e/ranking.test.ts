// A declared order, a search text apart from the label, and exact matches
// first (docs/lists.md, Order and Term search), built for real and asked
// through the client over a static server and through the compat server, with
// the index's files cut small enough that large prefixes answer some Terms.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { layoutOf } from '../../src/client/paths.js';
import type { ListInfo, Manifest } from '../../src/client/types.js';
import { createCompatServer, listen } from '../../src/commands/serve.js';
import { CITY_FIELDS, CITY_FILES } from '../fixtures/cities.js';
import { SMALL_SEARCH } from '../host-checks.js';
import { buildFrom, startServe, tempDir, treeClient, type Running } from '../helpers.js';

const LANGUAGE_FIELDS = { code: 'string', iso3: 'string', speakers: 'integer' };

const CONFIG = {
  lists: {
    // Most populous first; Term matches the name (not the country in the label), its ASCII spelling in tier 3, and exact names first.
    city: {
      label: '{name} ({country})',
      fields: CITY_FIELDS,
      order: ['-population'],
      search: { text: 'name', columns: ['ascii'], exact: true },
    },
    // The same cities as a list declares them without any of it: list order, Term over the label.
    place: { source: 'city.csv', label: '{name} ({country})', fields: CITY_FIELDS },
    language: {
      label: 'name',
      fields: LANGUAGE_FIELDS,
      order: ['-speakers'],
      shape: 'whole',
      search: { columns: ['code', 'iso3'], exact: true },
    },
    languageByName: {
      source: 'language.csv',
      label: 'name',
      fields: LANGUAGE_FIELDS,
      shape: 'whole',
      search: { columns: ['code', 'iso3'] },
    },
  },
};

/** [what a user sees, the request, the total, the names answered] */
const ANSWERS: [string, string, number, string[]][] = [
  ['pages follow the declared order, most populous first', '/city.json', 22, ['São Paulo', 'Santiago', 'Los Angeles']],
  [
    'cities of one population follow the default order: by label',
    '/city.json?Page=5',
    22,
    ['Graz', 'Salem', 'Springfield'],
  ],
  [
    'tier 1 keeps the declared order across pages',
    '/city.json?Term=san&Page=3',
    11,
    ['San Francisco', 'San José', 'Sankt Pölten'],
  ],
  ['the last page of a Term ends with its tier 2', '/city.json?Term=san&Page=4', 11, ['Santa', 'Puerto San José']],
  ['the exact name first, before the most populous of tier 1', '/city.json?Term=san', 11, ['San', 'Santiago', 'Sanaa']],
  [
    'exact names come first, in the declared order, then later words',
    '/city.json?Term=san%20jose',
    3,
    ['San Jose', 'San José', 'Puerto San José'],
  ],
  [
    'a list without exact or order answers the same Term by label, in list order',
    '/place.json?Term=san%20jose',
    3,
    ['San José', 'San Jose', 'Puerto San José'],
  ],
  [
    'an exact match comes before a more populous prefix match',
    '/city.json?Term=santa',
    2,
    ['Santa', 'Santa Cruz de la Sierra'],
  ],
  [
    'without exact, both start with the Term and keep list order',
    '/place.json?Term=santa',
    2,
    ['Santa Cruz de la Sierra', 'Santa'],
  ],
  [
    '"(US)" in the label no longer matches us when the search text is the name',
    '/city.json?Term=us',
    1,
    ['Ústí nad Labem'],
  ],
  [
    'over the label, us finds every "(US)" city in tier 2',
    '/place.json?Term=us',
    9,
    ['Ústí nad Labem', 'Austin', 'Los Angeles'],
  ],
  ['a searched column finds what the search text does not, in tier 3', '/city.json?Term=poelten', 1, ['Sankt Pölten']],
  ['a searched column that is the Term is exact', '/city.json?Term=vienna', 1, ['Wien']],
  ['a later word of the search text is tier 2', '/city.json?Term=francisco', 1, ['San Francisco']],
  [
    'a whole list keeps its declared order',
    '/language.json',
    8,
    ['English', 'German', 'Dutch', 'Danish', 'Swiss German', 'Dhivehi', 'Dendi', 'Lenape'],
  ],
  [
    'a whole list puts an exact code first, then names, then other codes',
    '/language.json?Term=de',
    3,
    ['German', 'Dendi', 'Lenape'],
  ],
  ['without exact, a code ranks after every name', '/languageByName.json?Term=de', 3, ['Dendi', 'German', 'Lenape']],
  ['an ISO 639-3 code that is the Term is exact', '/language.json?Term=deu', 1, ['German']],
  [
    'each tier of a whole list keeps the declared order',
    '/language.json?Term=d',
    6,
    ['Dutch', 'Danish', 'Dhivehi', 'Dendi', 'German', 'Lenape'],
  ],
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

describe.each(SIZES)('a declared order, a search text and exact matches, with %s search files', (size, search) => {
  const out = join(root, size);
  let compat: ReturnType<typeof createCompatServer>;
  let port: number;
  beforeAll(async () => {
    await buildFrom({ ...CITY_FILES, 'reflist.config.json': JSON.stringify(CONFIG) }, out, 3, search);
    compat = createCompatServer({ dir: out });
    port = await listen(compat, 0, '127.0.0.1');
  });
  afterAll(() => compat.close());

  test.each(ANSWERS)('%s: %s', async (_what, url, total, names) => {
    const client = await treeClient(out, { baseUrl: `${server.url}${size}/` });
    const answer = await client.request(url);
    const body = answer.body as { total: number; items: { text: string }[] };
    const label = url.startsWith('/language') ? (t: string) => t : (t: string) => t.replace(/ \([A-Z]{2}\)$/, '');
    expect({ status: answer.status, total: body.total, names: body.items.map((it) => label(it.text)) }).toEqual({
      status: 200,
      total,
      names,
    });
    const res = await fetch(`http://127.0.0.1:${port}${url}`);
    expect({ status: res.status, body: await res.json() }).toEqual(answer);
  });

  test("a list's internal paths change with its rule, search text and exact, so a page holding an older lookup.json reads it again", () => {
    const manifest = JSON.parse(readFileSync(join(out, 'lookup.json'), 'utf8')) as Manifest;
    const layout = (list: string) => (manifest.lists[list] as ListInfo).layout;
    expect(layout('place')).toBe(layoutOf(3, undefined, { text: null, exact: false, words: true }));
    expect(layout('place')).not.toBe(layoutOf(3, undefined));
    expect(layout('city')).not.toBe(layout('place'));
  });

  test('two cities of one population and one label follow their ids, across a page break', async () => {
    const client = await treeClient(out, { baseUrl: `${server.url}${size}/` });
    const ids = async (url: string) =>
      ((await client.request(url)).body as { items: { id: number }[] }).items.map((it) => it.id);
    expect([...(await ids('/city.json?Page=5')), ...(await ids('/city.json?Page=6'))]).toEqual([
      20, 13, 14, 15, 19, 10,
    ]);
  });
});
