// Term search from static files: exact on labels that share long prefixes,
// and one request per keystroke for a person typing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { toCsvFiles } from './arbitraries.js';
import { buildFrom, startServe, tempDir, treeClient, type Running } from './helpers.js';
import { referenceRequest, type RefSources } from './reference.js';

const GIVEN = ['John', 'Jane', 'Jürgen', 'José', 'Joan', 'J.', 'Johanna', 'Jo', 'Јован', 'Ιωάννης'];

/** 1,200 authors, 900 of them "Smith, J…" (many exact duplicates), plus divisions whose children share prefixes. */
function smiths(): RefSources {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  const author = Array.from({ length: 1200 }, (_, i) => ({
    id: i * 7 + 1,
    text: i < 900 ? `Smith, ${pick(GIVEN)}${i % 3 === 0 ? '' : ` ${pick(GIVEN)}`}` : `${pick(['Smithers', 'Jones', 'Müller', 'Ørsted'])}, ${pick(GIVEN)} ${i}`,
  }));
  const division = Array.from({ length: 40 }, (_, i) => ({ id: i, text: i % 2 ? `Smithiales ${i}` : `Division ${i}` }));
  const category = Array.from({ length: 400 }, (_, i) => ({ id: 1000 + i, division_id: i % 40, text: `Smith ${pick(GIVEN)} ${i % 9}` }));
  return {
    author, division, category,
    descriptor: [{ id: 1, text: 'Colour' }],
    country: [{ id: 840, text: 'United States' }], state: [], county: [],
    system: [{ id: 'gbif', text: 'GBIF' }],
    author_count: author.filter((_, i) => i % 5 === 0).map((a) => ({ system: 'gbif', id: a.id, count: a.id % 11 })),
    division_count: [{ system: 'gbif', id: 3, count: 9 }],
  };
}

const TERMS = ['Smith, John Jane', 'smith j', 'SMITH JÜRGEN', 'john', 'jo', 'j', 'ιω', 'јо', 'smithers jo', 'smith, johanna xyz', 'smith-j', 'smithiales 1', 'smith jose 3'];
const SEARCH_SIZES = [{}, { leafBytes: 0, fileBytes: 0, pagesBytes: 0 }, { leafBytes: 400, fileBytes: 200, pagesBytes: 900 }];

let server: Running;
const root = tempDir();
beforeAll(async () => {
  server = await startServe(root);
});
afterAll(() => server.stop());

describe('Term over hundreds of labels sharing a long prefix', () => {
  test.each(SEARCH_SIZES.map((s, i) => [i, s] as const))('answers every prefix of every term exactly (search sizes #%i)', async (i, search) => {
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
  }, 180_000); // ~800 requests through the client and the reference each: 16–25 s on a quiet machine
});

describe('a person typing', () => {
  test('costs at most one request per keystroke, after lookup.json once', async () => {
    const out = join(root, 'typing');
    await buildFrom(toCsvFiles(smiths()), out, 30);
    const requested: string[] = [];
    const client = await treeClient(out, {
      baseUrl: `${server.url}typing/`,
      fetch: (url) => (requested.push(url.slice(`${server.url}typing/`.length)), fetch(url)),
    });
    const perKeystroke: number[] = [];
    for (const term of ['Smith, Johanna', 'jürgen', 'smithers jo', 'ιωάννης']) {
      for (let n = 1; n <= term.length; n++) {
        const before = requested.length;
        const { status } = await client.request(`/author.json?term=${encodeURIComponent(term.slice(0, n))}&page=1&_type=query&q=x`);
        expect(status).toBe(200);
        perKeystroke.push(requested.slice(before).filter((path) => path !== 'lookup.json').length);
      }
    }
    expect(Math.max(...perKeystroke)).toBe(1);
    expect(requested.filter((path) => path === 'lookup.json')).toHaveLength(1);
  });
});
