// npm run bench -- cities: docs/examples.md's pickers over the full real data
// (scripts/examples/cities.ts and languages.ts), each built with its `plain`
// config (list order, Term over the label) and its `picker` config (most
// populous first, Term over the name, exact matches first):
// - the tree's files and bytes, the whole tree and each list's part (the
//   paged cities at the root, the same cities paged under their country);
// - real names typed a key at a time through the client over each tree, at
//   the root and under the city's country: requests a keystroke and the
//   bytes each answer read;
// - the requests of docs/examples.md's table: where the item a person looks
//   for comes in each tree.
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import { createLookupClient, fileAnswer, type LookupClient } from '../src/client/client.js';
import { fold } from '../src/client/fold.js';
import { tempDir } from '../test/helpers.js';
import { parseCsv } from '../test/reference-declared.js';
import { buildWith } from './bench-size.js';
import { writeCityConfig, writeCitySources } from './examples/cities.js';
import { writeLanguageConfig, writeLanguageSources } from './examples/languages.js';
import { mulberry32 } from './sources/prng.js';
import { int, kb, quantile } from './format.js';

const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
const PAGE_SIZE = 30;
const CONFIGS = ['plain', 'picker'] as const;

/** A tree's files by part: the cities at the root, under their country, the countries, the rest. */
const PARTS: [string, (path: string) => boolean][] = [
  ['/city.json (root)', (p) => p === 'city.json' || p.startsWith('city/')],
  ['/country/{code}/city.json', (p) => /^country\/([A-Z]{2}\/city(\.json|\/)|~city\/)/.test(p)],
  ['/country.json', (p) => /^country(\.json|\/[A-Z]{2}\.json)$/.test(p)],
];

function measure(out: string): { files: number; bytes: number }[] {
  const totals = [...PARTS.map(() => ({ files: 0, bytes: 0 })), { files: 0, bytes: 0 }, { files: 0, bytes: 0 }];
  for (const path of fg.sync('**/*', { cwd: out })) {
    const size = statSync(join(out, path)).size;
    const i = PARTS.findIndex(([, test]) => test(path));
    for (const t of [totals[i < 0 ? PARTS.length : i]!, totals[PARTS.length + 1]!]) {
      t.files++;
      t.bytes += size;
    }
  }
  return totals;
}

/** A client over the tree at `out` read from disk, counting the requests and bytes after lookup.json. */
function diskClient(out: string, counter: { requests: number; bytes: number }): LookupClient {
  return createLookupClient({
    baseUrl: 'bench:/',
    fetch: async (url: string) => {
      const path = url.slice('bench:/'.length).split('?')[0]!;
      let data: Uint8Array | undefined;
      try {
        data = readFileSync(join(out, path));
      } catch {
        data = undefined;
      }
      if (path !== 'lookup.json') {
        counter.requests++;
        counter.bytes += data?.length ?? 0;
      }
      return fileAnswer(data);
    },
  });
}

interface Typing {
  keystrokes: number;
  maxRequests: number;
  meanRequests: number;
  bytes: number[];
}

/** `names` ([name, country]) typed a key at a time, each in a fresh client (a page visit), at `path(country)`. */
async function typing(out: string, names: [string, string][], path: (country: string) => string): Promise<Typing> {
  const perKey: number[] = [];
  const bytes: number[] = [];
  for (const [name, country] of names) {
    const counter = { requests: 0, bytes: 0 };
    const client = diskClient(out, counter);
    for (let i = 1; i <= name.length; i++) {
      const [r0, b0] = [counter.requests, counter.bytes];
      const { status } = await client.request(`${path(country)}?Term=${encodeURIComponent(name.slice(0, i))}`);
      if (status !== 200) throw new Error(`${path(country)}?Term=${name.slice(0, i)}: ${status}`);
      perKey.push(counter.requests - r0);
      if (counter.requests > r0) bytes.push(counter.bytes - b0);
    }
  }
  return {
    keystrokes: perKey.length,
    maxRequests: Math.max(...perKey),
    meanRequests: perKey.reduce((a, b) => a + b, 0) / perKey.length,
    bytes,
  };
}

/** Where the item `id` comes in the answers to `url`: its rank, the total, and its page; paged through the client. */
async function rankOf(
  client: LookupClient,
  url: string,
  id: string | number,
): Promise<{ rank: number; total: number }> {
  for (let page = 1; ; page++) {
    const { body } = await client.request(`${url}&Page=${page}`);
    const { total, items } = body as { total: number; items: { id: string | number }[] };
    const at = items.findIndex((it) => it.id === id);
    if (at >= 0) return { rank: (page - 1) * PAGE_SIZE + at + 1, total };
    if (items.length === 0) return { rank: 0, total };
  }
}

const where = ({ rank, total }: { rank: number; total: number }) =>
  rank === 0 ? `not among ${int(total)}` : `${int(rank)} of ${int(total)}, page ${Math.ceil(rank / PAGE_SIZE)}`;

export async function citiesBench(toDocs: (name: string, lines: string[], file: string) => void): Promise<void> {
  const work = tempDir('reflist-cities-');
  const trees: Record<string, { cities: string; languages: string }> = {};
  const sizes: string[] = [];
  const [citySources, languageSources] = [join(work, 'cities'), join(work, 'languages')];
  writeCitySources(citySources);
  writeLanguageSources(languageSources);
  const cities = parseCsv(readFileSync(join(citySources, 'city.csv'), 'utf8'), ',').slice(1); // id, name, alt, country, population, feature
  for (const config of CONFIGS) {
    writeCityConfig(citySources, config);
    writeLanguageConfig(languageSources, config);
    trees[config] = { cities: join(work, `${config}-cities-dist`), languages: join(work, `${config}-languages-dist`) };
    const started = performance.now();
    buildWith('lib/cli.js', citySources, trees[config]!.cities);
    const seconds = (performance.now() - started) / 1000;
    buildWith('lib/cli.js', languageSources, trees[config]!.languages);
    const parts = measure(trees[config]!.cities);
    const cell = (t: { files: number; bytes: number }) => `${int(t.files)} / ${mb(t.bytes)}`;
    sizes.push(
      `| ${config} | ${cell(parts.at(-1)!)} | ${parts.slice(0, -1).map(cell).join(' | ')} | ${seconds.toFixed(0)} s |`,
    );
    console.log(sizes.at(-1));
  }
  const sizeTable = [
    `The cities (${int(cities.length)}), each config built with \`reflist build\`: files / bytes of the whole tree and of each list's part, ${PAGE_SIZE} items a page.`,
    '',
    `| config | whole tree | ${PARTS.map(([name]) => name).join(' | ')} | other | build |`,
    `|---|---|${PARTS.map(() => '---|').join('')}---|---|`,
    ...sizes,
  ];

  // Real names, typed as written (the client folds them), the most populous most often: a city drawn by population.
  const random = mulberry32(32);
  const weights = cities.map((c) => Math.sqrt(Number(c[4]) + 1));
  const sum = weights.reduce((a, b) => a + b, 0);
  const draw = () => {
    let r = random() * sum;
    for (let i = 0; i < cities.length; i++) if ((r -= weights[i]!) <= 0) return cities[i]!;
    return cities.at(-1)!;
  };
  const names: [string, string][] = Array.from({ length: 300 }, () => draw()).map((c) => [c[1]!, c[3]!]);
  const typed = [
    '',
    '| config | where | keystrokes | requests a keystroke, max (mean) | bytes an answer read: median / p95 / max |',
    '|---|---|---|---|---|',
  ];
  for (const config of CONFIGS) {
    for (const [at, path] of [
      ['/city.json', () => '/city.json'],
      ['/country/{code}/city.json', (c: string) => `/country/${c}/city.json`],
    ] as const) {
      const t = await typing(trees[config]!.cities, names, path);
      typed.push(
        `| ${config} | ${at} | ${int(t.keystrokes)} | ${t.maxRequests} (${t.meanRequests.toFixed(2)}) | ${kb(quantile(t.bytes, 0.5))} / ${kb(quantile(t.bytes, 0.95))} / ${kb(Math.max(...t.bytes))} |`,
      );
      console.log(typed.at(-1));
    }
  }
  typed.splice(
    0,
    0,
    `Typing ${names.length} real city names (drawn by the square root of their population, ${int(names.reduce((n, [name]) => n + name.length, 0))} keystrokes) a key at a time, each in a fresh client, through the client reading the built tree:`,
  );

  // docs/examples.md's table: where the item a person looks for comes, over the label in list order and with the picker config.
  const city = (name: string, country: string) => {
    const all = cities.filter((c) => c[1] === name && c[3] === country).sort((a, b) => Number(b[4]) - Number(a[4]));
    return { id: Number(all[0]![0]), population: Number(all[0]![4]) };
  };
  const clients = Object.fromEntries(
    CONFIGS.map((config) => {
      const counter = { requests: 0, bytes: 0 };
      return [
        config,
        {
          cities: diskClient(trees[config]!.cities, counter),
          languages: diskClient(trees[config]!.languages, counter),
        },
      ];
    }),
  );
  const rows: [string, string, 'cities' | 'languages', string | number][] = [];
  for (const [name, country, term] of [
    ['San Francisco', 'US', 'san francisco'],
    ['San Jose', 'US', 'san jose'],
    ['Paris', 'FR', 'paris'],
  ] as const) {
    const c = city(name, country);
    rows.push([`/city.json?Term=${term}`, `${name}, ${country} (${int(c.population)} people)`, 'cities', c.id]);
  }
  const sf = city('San Francisco', 'US');
  rows.push([
    '/country/US/city.json?Term=san francisco',
    `San Francisco (${int(sf.population)} people)`,
    'cities',
    sf.id,
  ]);
  rows.push(['/language.json?Term=de', 'German (its ISO 639-1 code is `de`)', 'languages', 'deu']);
  rows.push(['/language.json?Term=fra', 'French (its ISO 639-3 code is `fra`)', 'languages', 'fra']);
  const table = [
    '| request | what a person expects first | before: over the label, list order | after: the picker config |',
    '|---|---|---|---|',
  ];
  for (const [url, expected, tree, id] of rows) {
    const [before, after] = await Promise.all(
      CONFIGS.map((config) => rankOf(clients[config]![tree], `${url.replace(' ', '%20')}`, id)),
    );
    table.push(`| \`${url}\` | ${expected} | ${where(before!)} | ${where(after!)} |`);
    console.log(table.at(-1));
  }
  // `us`: the cities it finds, and those of them whose name has no word starting with it (the country code in the label).
  const us = await Promise.all(
    CONFIGS.map(async (config) => {
      const found: { text: string }[] = [];
      for (let page = 1; ; page++) {
        const { body } = await clients[config]!.cities.request(`/city.json?Term=us&Page=${page}`);
        const { total, items } = body as { total: number; items: { text: string }[] };
        found.push(...items);
        if (found.length >= total || items.length === 0) break;
      }
      const byCode = found.filter(
        (c) =>
          !fold(c.text.replace(/ \([A-Z]{2}\)$/, ''))
            .split(' ')
            .some((w) => w.startsWith('us')),
      ).length;
      return `${int(found.length)} cities, ${int(byCode)} of them by the "(US)" of their label alone`;
    }),
  );
  table.push(`| \`/city.json?Term=us\` | nothing, or a city whose name starts with "us" | ${us[0]} | ${us[1]} |`);
  console.log(table.at(-1));

  rmSync(work, { recursive: true, force: true });
  const date = new Date().toISOString().slice(0, 10);
  console.log(`\n${[...sizeTable, '', ...typed].join('\n')}\n\n${table.join('\n')}`);
  toDocs('cities', [`\`npm run bench -- cities\`, ${date}:`, '', ...sizeTable, '', ...typed], 'docs/examples.md');
  toDocs('cities-table', [`\`npm run bench -- cities\`, ${date}:`, '', ...table], 'docs/examples.md');
}
