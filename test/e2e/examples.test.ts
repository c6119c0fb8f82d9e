// docs/examples.md's worked example on the full real data (135,233 cities,
// 7,867 languages): its commands run as the page writes them, then the
// requests of its table asked through the client over a static server. The
// slowest test file by design: one full build of the world's cities, twice
// over (every city, and every city under its country).
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { LookupClient } from '../../src/client/client.js';
import { fold } from '../../src/client/fold.js';
import { startServe, tempDir, treeClient, type Running } from '../helpers.js';

type City = { id: number; text: string; name: string; country: string; population: number };
type Page<T> = { total: number; items: T[] };

const root = tempDir('reflist-examples-');
let server: Running;
let cities: LookupClient;
let languages: LookupClient;

const page = readFileSync('docs/examples.md', 'utf8');
/** The page's first sh block: the four commands a reader runs, with this test's folder for /tmp/pickers. */
const commands = /```sh\n([\s\S]*?)```/.exec(page)![1]!.trim().split('\n');

beforeAll(async () => {
  for (const line of commands) execSync(line.replaceAll('/tmp/pickers', root), { stdio: 'pipe' });
  server = await startServe(root);
  cities = await treeClient(`${root}/cities-dist`, { baseUrl: `${server.url}cities-dist/` });
  languages = await treeClient(`${root}/languages-dist`, { baseUrl: `${server.url}languages-dist/` });
}, 300_000);
afterAll(() => server?.stop());

const ask = async <T>(client: LookupClient, url: string) => {
  const answer = await client.request(url);
  expect(answer.status).toBe(200);
  return answer.body as Page<T>;
};
const first = async (url: string) => (await ask<City>(cities, url)).items[0];

test('the page gives the four commands, each a script of the repository or the built CLI', () => {
  expect(commands.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
    'npx tsx scripts/examples/cities.ts',
    'npx tsx scripts/examples/languages.ts',
    'node lib/cli.js build',
    'node lib/cli.js build',
  ]);
});

test('the configs the page shows for these commands are those the scripts wrote', () => {
  // The character picker's further down is its own test file's (characters.test.ts).
  const written = commands.join('\n');
  const shown = [
    ...page.matchAll(/`\/tmp\/pickers\/(\w+)\/reflist\.config\.json`[^\n]*\n\n```json\n([\s\S]*?)```/g),
  ].filter((m) => written.includes(`--out /tmp/pickers/${m[1]}`));
  expect(shown.map((m) => m[1])).toEqual(['cities', 'languages']);
  for (const [, folder, json] of shown)
    expect(JSON.parse(json!)).toEqual(JSON.parse(readFileSync(`${root}/${folder}/reflist.config.json`, 'utf8')));
});

test('san francisco answers San Francisco, US first, of the 153 places whose name holds both words', async () => {
  const page = await ask<City>(cities, '/city.json?Term=san%20francisco');
  expect(page.total).toBe(153);
  expect(page.items[0]).toEqual({
    id: 5391959,
    text: 'San Francisco (US)',
    name: 'San Francisco',
    country: 'US',
    population: 864816,
  });
});

test('san jose answers San Jose, US first, then San José, Costa Rica: the accent folded, the most populous first', async () => {
  const page = await ask<City>(cities, '/city.json?Term=san%20jose');
  expect(page.total).toBe(249);
  expect(page.items.slice(0, 2).map((c) => c.text)).toEqual(['San Jose (US)', 'San José (CR)']);
  expect(page.items[0]!.population).toBe(1026908);
});

test('paris answers Paris, France first, before the Paris of Canada and of the United States', async () => {
  const page = await ask<City>(cities, '/city.json?Term=paris');
  expect(page.items[0]).toMatchObject({ text: 'Paris (FR)', population: 2138551 });
  // Every Paris before any place whose name merely starts with it, most populous first within each.
  const exact = page.items.filter((c) => fold(c.name) === 'paris');
  expect(page.items.slice(0, exact.length)).toEqual(exact);
  expect(exact.map((c) => c.population)).toEqual(exact.map((c) => c.population).sort((a, b) => b - a));
  expect(exact.map((c) => c.country)).toContain('CA');
});

test('us matches no city by its country code, only names with a word starting "us", most populous first after exact ones', async () => {
  const all: City[] = [];
  for (let page = 1; ; page++) {
    const { total, items } = await ask<City>(cities, `/city.json?Term=us&Page=${page}`);
    all.push(...items);
    if (all.length >= total || items.length === 0) break;
  }
  expect(all.length).toBeLessThan(200); // over the label, 16,838: every city of the United States among them
  for (const c of all)
    expect(
      fold(c.name)
        .split(' ')
        .some((w) => w.startsWith('us')),
    ).toBe(true);
  expect(all[0]).toMatchObject({ name: 'Us', country: 'FR' }); // a village in France, whose name is the Term
  const rest = all.filter((c) => fold(c.name) !== 'us' && fold(c.name).startsWith('us'));
  expect(rest.map((c) => c.population)).toEqual(rest.map((c) => c.population).sort((a, b) => b - a));
});

test("a country's cities are a page at a time under it, most populous first, and its page 2 follows page 1", async () => {
  const [one, two] = [
    await ask<City>(cities, '/country/US/city.json'),
    await ask<City>(cities, '/country/US/city.json?Page=2'),
  ];
  expect([one.total, two.total]).toEqual([16677, 16677]);
  expect(one.items.map((c) => c.text).slice(0, 3)).toEqual(['New York City (US)', 'Los Angeles (US)', 'Chicago (US)']);
  const populations = [...one.items, ...two.items].map((c) => c.population);
  expect(populations).toHaveLength(60);
  expect(populations).toEqual([...populations].sort((a, b) => b - a));
  expect([...one.items, ...two.items].every((c) => c.country === 'US')).toBe(true);
});

test('a Term under a country finds its cities alone: san jose under US is San Jose, then South San Jose Hills; under CR San José first', async () => {
  const us = await ask<City>(cities, '/country/US/city.json?Term=san%20jose');
  expect(us.items.map((c) => c.text)).toEqual(['San Jose (US)', 'South San Jose Hills (US)']);
  expect((await first('/country/CR/city.json?Term=san%20jose'))!.text).toBe('San José (CR)');
  expect(await ask<City>(cities, '/country/US/city.json?Term=san%20francisco')).toMatchObject({
    total: 2,
    items: [{ id: 5391959 }, { name: 'South San Francisco' }],
  });
  const san = await ask<City>(cities, '/country/US/city.json?Term=san&Page=2');
  expect(
    san.items.every(
      (c) =>
        c.country === 'US' &&
        fold(c.name)
          .split(' ')
          .some((w) => w.startsWith('san')),
    ),
  ).toBe(true);
  expect(await ask<City>(cities, '/country/US/city.json?Id=5391959')).toEqual({
    total: 1,
    items: [await first('/city.json?Id=5391959')],
  });
});

test('de answers German first, by its ISO 639-1 code; fra French and eng English by their ISO 639-3 codes', async () => {
  const de = await ask<{ id: string; text: string; code: string }>(languages, '/language.json?Term=de');
  expect(de.items[0]).toEqual({ id: 'deu', text: 'German', iso3: 'deu', code: 'de' });
  expect(de.total).toBe(72);
  expect((await ask<{ text: string }>(languages, '/language.json?Term=fra')).items[0]!.text).toBe('French');
  expect((await ask<{ text: string }>(languages, '/language.json?Term=eng')).items[0]!.text).toBe('English');
  expect((await ask<{ text: string }>(languages, '/language.json?Id=deu')).items.map((l) => l.text)).toEqual([
    'German',
  ]);
});
