// Term search from static files: exact on labels that share long prefixes,
// and one request per keystroke for a person typing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ListInfo, Manifest } from '../../src/client/types.js';
import { toCsvFiles } from '../arbitraries.js';
import { buildFrom, startServe, tempDir, treeClient, type Running } from '../helpers.js';
import { checkConfig } from '../../src/config/declaration.js';
import { referenceRequest, type RefSources } from '../reference.js';
import { createDeclaredReference } from '../reference-declared.js';

const GIVEN = ['John', 'Jane', 'Jürgen', 'José', 'Joan', 'J.', 'Johanna', 'Jo', 'Јован', 'Ιωάννης'];

/** 1,200 authors, 900 of them "Smith, J…" (many exact duplicates), plus divisions whose children share prefixes. */
function smiths(): RefSources {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  const author = Array.from({ length: 1200 }, (_, i) => ({
    id: i * 7 + 1,
    text:
      i < 900
        ? `Smith, ${pick(GIVEN)}${i % 3 === 0 ? '' : ` ${pick(GIVEN)}`}`
        : `${pick(['Smithers', 'Jones', 'Müller', 'Ørsted'])}, ${pick(GIVEN)} ${i}`,
  }));
  const division = Array.from({ length: 40 }, (_, i) => ({ id: i, text: i % 2 ? `Smithiales ${i}` : `Division ${i}` }));
  const category = Array.from({ length: 400 }, (_, i) => ({
    id: 1000 + i,
    division_id: i % 40,
    text: `Smith ${pick(GIVEN)} ${i % 9}`,
  }));
  return {
    author,
    division,
    category,
    descriptor: [{ id: 1, text: 'Colour' }],
    country: [{ id: 840, text: 'United States' }],
    state: [],
    county: [],
    system: [{ id: 'gbif', text: 'GBIF' }],
    author_count: author.filter((_, i) => i % 5 === 0).map((a) => ({ system: 'gbif', id: a.id, count: a.id % 11 })),
    division_count: [{ system: 'gbif', id: 3, count: 9 }],
  };
}

const TERMS = [
  'Smith, John Jane',
  'smith j',
  'SMITH JÜRGEN',
  'john',
  'jo',
  'j',
  'ιω',
  'јо',
  'smithers jo',
  'smith, johanna xyz',
  'smith-j',
  'smithiales 1',
  'smith jose 3',
];
const SEARCH_SIZES = [
  {},
  { leafBytes: 0, fileBytes: 0, pagesBytes: 0 },
  { leafBytes: 400, fileBytes: 200, pagesBytes: 900 },
];

let server: Running;
const root = tempDir();
beforeAll(async () => {
  server = await startServe(root);
});
afterAll(() => server.stop());

describe('Term over hundreds of labels sharing a long prefix', () => {
  test.each(SEARCH_SIZES.map((s, i) => [i, s] as const))(
    'answers every prefix of every term exactly (search sizes #%i)',
    async (i, search) => {
      const src = smiths();
      const pageSize = 7;
      await buildFrom(toCsvFiles(src), join(root, `smiths${i}`), pageSize, search);
      const client = await treeClient(join(root, `smiths${i}`), { baseUrl: `${server.url}smiths${i}/` });
      let compared = 0;
      for (const list of ['author', 'division']) {
        for (const term of TERMS) {
          for (let n = 1; n <= term.length; n++) {
            for (const query of ['', '&System=gbif&Page=2', '&Page=40']) {
              const url = `/${list}.json?Term=${encodeURIComponent(term.slice(0, n))}${query}`;
              expect({ url, ...(await client.request(url)) }).toEqual({ url, ...referenceRequest(src, pageSize, url) });
              compared++;
            }
          }
        }
      }
      expect(compared).toBeGreaterThan(600);
    },
    180_000,
  ); // ~800 requests through the client and the reference each: 16–25 s on a quiet machine
});

describe('a person typing', () => {
  test('costs at most one request per keystroke, after lookup.json once', async () => {
    const out = join(root, 'typing');
    await buildFrom(toCsvFiles(smiths()), out, 30);
    const requested: string[] = [];
    const client = await treeClient(out, {
      baseUrl: `${server.url}typing/`,
      fetch: (url) => {
        requested.push(url.slice(`${server.url}typing/`.length));
        return fetch(url);
      },
    });
    const perKeystroke: number[] = [];
    for (const term of ['Smith, Johanna', 'jürgen', 'smithers jo', 'ιωάννης']) {
      for (let n = 1; n <= term.length; n++) {
        const before = requested.length;
        const { status } = await client.request(
          `/author.json?term=${encodeURIComponent(term.slice(0, n))}&page=1&_type=query&q=x`,
        );
        expect(status).toBe(200);
        perKeystroke.push(requested.slice(before).filter((path) => path !== 'lookup.json').length);
      }
    }
    expect(Math.max(...perKeystroke)).toBe(1);
    expect(requested.filter((path) => path === 'lookup.json')).toHaveLength(1);
  });
});

describe('a later page of a large prefix', () => {
  // 900 "Smith, J…" 7 a page: "smith" has some 130 pages, in page files of 2 or 3 pages.
  const SIZES = [
    ['one level', 2, { leafBytes: 400, fileBytes: 200, pagesBytes: 900 }],
    ['two levels', 3, { leafBytes: 400, fileBytes: 200, pagesBytes: 900, directoryStarts: 2 }],
  ] as const;
  // Listed in two levels, a fresh visit reads the head's file first: it names the search file.
  test.each(SIZES)(
    "listed in %s, costs a fresh visit at most %i requests after lookup.json, one after the Term's page 1, and equals the reference",
    async (name, cold, search) => {
      const src = smiths();
      const pageSize = 7;
      const dir = `later-${name.replace(' ', '-')}`;
      const out = join(root, dir);
      await buildFrom(toCsvFiles(src), out, pageSize, search);
      const info = (JSON.parse(readFileSync(join(out, 'lookup.json'), 'utf8')) as Manifest).lists['author'] as ListInfo;
      expect(info.heads !== undefined).toBe(name === 'two levels');
      const requested: string[] = [];
      const visit = () =>
        treeClient(out, {
          baseUrl: `${server.url}${dir}/`,
          fetch: (url) => {
            requested.push(url.slice(`${server.url}${dir}/`.length));
            return fetch(url);
          },
        });
      for (const [term, page] of [
        ['smith', 2],
        ['smith', 20],
        ['smith j', 20],
        ['smith', 129],
        ['smi', 130],
      ] as const) {
        const url = `/author.json?Term=${encodeURIComponent(term)}&Page=${page}`;
        const client = await visit();
        await client.manifest();
        requested.length = 0;
        expect({ url, ...(await client.request(url)) }).toEqual({ url, ...referenceRequest(src, pageSize, url) });
        expect(requested.length, `${url}: ${requested.join(' ')}`).toBeLessThanOrEqual(cold);
        // The page was read from a page file: the test is void otherwise.
        if (page < 129) expect(requested.at(-1)).toMatch(/^author\/pages\//);
        // Scrolled to after the Term's page 1: the page file alone.
        const scrolled = await visit();
        await scrolled.request(`/author.json?Term=${encodeURIComponent(term)}`);
        requested.length = 0;
        expect({ url, ...(await scrolled.request(url)) }).toEqual({ url, ...referenceRequest(src, pageSize, url) });
        expect(requested.length, `${url}: ${requested.join(' ')}`).toBeLessThanOrEqual(1);
      }
    },
  );
});

/**
 * 500 plants whose names, common names and codes draw on the same few words,
 * so one Term finds some plants by the start of their name (tier 1), some by a
 * later word of it (tier 2) and others by a common name or code alone (tier 3).
 */
function plants(): { config: object; files: Record<string, string> } {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  const WORDS = ['Oak', 'Red', 'Redwood', 'White', 'Holm', 'Cork', 'Sessile', 'Öak', 'Rosa', 'Rose'];
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const rows = Array.from(
    { length: 500 },
    (_, i) =>
      `${i + 1},${words(1 + Math.floor(random() * 3))},${words(Math.floor(random() * 3))},${pick(['RO', 'OA', 'QR'])}-${i % 13}`,
  );
  return {
    config: {
      lists: {
        plant: { label: 'name', fields: { common: 'string', code: 'string' }, search: { columns: ['common', 'code'] } },
        shrub: {
          source: 'plant.csv',
          label: 'name',
          fields: { common: 'string' },
          shape: 'whole',
          search: { columns: ['common'] },
        },
      },
    },
    files: { 'plant.csv': `id,name,common,code\n${rows.join('\n')}\n` },
  };
}

describe('Term over a list that also searches fields', () => {
  test.each(SEARCH_SIZES.map((s, i) => [i, s] as const))(
    'label matches come first, then those on a searched field alone, each in list order, for every prefix (search sizes #%i)',
    async (i, search) => {
      const { config, files } = plants();
      const out = join(root, `plants${i}`);
      const pageSize = 7;
      await buildFrom({ ...files, 'reflist.config.json': JSON.stringify(config) }, out, pageSize, search);
      const client = await treeClient(out, { baseUrl: `${server.url}plants${i}/` });
      const reference = createDeclaredReference(checkConfig(config, 'x').declaration!, files, pageSize);
      const tiers = new Set<string>();
      for (const term of ['red oak', 'redwood rose', 'öak holm', 'ro-1', 'qr 12', 'cork sessile white']) {
        for (let n = 1; n <= term.length; n++) {
          for (const url of [
            `/plant.json?Term=${encodeURIComponent(term.slice(0, n))}`,
            `/plant.json?Term=${encodeURIComponent(term.slice(0, n))}&Page=3`,
            `/shrub.json?Term=${encodeURIComponent(term.slice(0, n))}`,
          ]) {
            const expected = reference(url);
            expect({ url, ...(await client.request(url)) }).toEqual({ url, ...expected });
            // Which tiers the answer mixes, from the reference's own bodies: the test is void unless tier 3 follows tier 2.
            const items = (expected.body as { items: { text: string }[] }).items;
            const q = term.slice(0, n).toLowerCase().replace('ö', 'o').replace('-', ' ');
            tiers.add(
              items
                .map((it) => (` ${it.text.toLowerCase().replace('ö', 'o')}`.includes(` ${q}`) ? 'L' : 'F'))
                .join('')
                .replace(/(.)\1+/g, '$1'),
            );
          }
        }
      }
      expect(tiers).toContain('LF');
    },
    60_000,
  );
});

test('a list declared without search writes no index files, and its Term parameter is unknown', async () => {
  const { files } = plants();
  const out = join(root, 'unsearched');
  const config = { lists: { plant: { label: 'name', search: false }, herb: { source: 'plant.csv', label: 'name' } } };
  await buildFrom({ ...files, 'reflist.config.json': JSON.stringify(config) }, out, 7);
  const manifest = JSON.parse(readFileSync(join(out, 'lookup.json'), 'utf8')) as Manifest;
  expect((manifest.lists['plant'] as ListInfo).search).toEqual([]);
  expect((manifest.lists['herb'] as ListInfo).search.length).toBeGreaterThan(0);
  const folders = (list: string) => readdirSync(join(out, list), { recursive: true }).map(String);
  expect(folders('plant').filter((path) => /^(search|pages)\b/.test(path))).toEqual([]);
  expect(folders('herb').filter((path) => /search/.test(path)).length).toBeGreaterThan(0);
});
