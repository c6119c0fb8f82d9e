// The Cloudflare adapter (the tree's _worker.js) in Cloudflare's own runtime,
// offline: workerd (wrangler's) with the binding ASSETS to a disk service over
// the tree, then the real local hosts: `wrangler pages dev` (the Pages asset
// server and _routes.json) and `wrangler dev` with docs/deploy/wrangler.jsonc
// (Workers with static assets, run_worker_first). Every service URL answers
// like the reference; everything else is the host's own file answer.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { build } from '../../src/build.js';
import { adapterRouteOf } from '../../src/client/host.js';
import { parseRequest } from '../../src/client/request.js';
import type { Manifest } from '../../src/client/types.js';
import { mulberry32 } from '../../scripts/sources/prng.js';
import { arbRequest, toCsvFiles } from '../arbitraries.js';
import { HOST_FIXTURE } from '../fixtures/hosts.js';
import { buildFrom, freePort, tempDir, type Running } from '../helpers.js';
import {
  assertHostOnDeclaredCases,
  assertHostOnRandomCases,
  expectLikeDeclared,
  expectLikeReference,
  jsonOrText,
  PARAMETER_URLS,
  PRESET_API,
  requestTarget,
  untilAnswers,
  type HostAnswer,
} from '../host-checks.js';
import { startWorkerd } from '../hosts/workerd.js';
import { referenceRequest, type RefResponse, type RefSources } from '../reference.js';

const WRANGLER = join(process.cwd(), 'node_modules/.bin/wrangler');

interface Got extends HostAnswer {
  bytes: Buffer;
}

/**
 * `url` (a path with its query, starting with `/`) from the server at `base`,
 * sent as written (a raw `é` as its UTF-8 bytes, `%2F` as it is, as
 * host-checks' fetchRaw sends it), over a connection of its own (`agent:
 * false`, closed after the answer): no request reuses a keep-alive socket
 * that workerd closes after a few idle seconds, a race that shows as
 * ECONNRESET and is no fault of the worker.
 */
function get(base: string, url: string, init: { method?: string; body?: string } = {}): Promise<Got> {
  const { hostname, port } = new URL(base);
  const path = requestTarget(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, path, method: init.method ?? 'GET', agent: false, timeout: 20_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') headers.set(name, value);
          resolve({ status: res.statusCode!, body: jsonOrText(text), text, bytes, headers });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${url} in 20 s`)));
    req.on('error', reject);
    req.end(init.body);
  });
}

/**
 * What the worker answers for `url`: a service path (or a host file, or a
 * path that names no file) like the reference; any other path is no path of
 * the service (the reference says 404) and the worker hands it to ASSETS
 * untouched, so it answers exactly what the host's files answer (`assets`:
 * the same request straight to the assets service), but where there is no
 * such file: the client's JSON 404 then, whatever the host's 404 page says.
 * With `declared` (the tree's lookup.json api), the paths are those lists'
 * and `expected` is the generic reference's, key order included.
 */
function expectWorker(
  url: string,
  actual: Got,
  expected: RefResponse,
  assets: Got | undefined,
  declared?: Manifest['api'],
) {
  if (adapterRouteOf(url, declared ?? PRESET_API) === 'answer' || assets!.status === 404) {
    (declared ? expectLikeDeclared : expectLikeReference)(url, actual, expected);
    expect(actual.headers.get('content-type'), url).toBe('application/json; charset=utf-8');
    return;
  }
  expect({ url, reference: expected.status }).toEqual({ url, reference: 404 });
  expect({ url, status: actual.status, text: actual.text }).toEqual({
    url,
    status: assets!.status,
    text: assets!.text,
  });
}

const root = tempDir('reflist-cloudflare-');
const fixedTree = join(root, 'fixed', 'dist');
let fixedBuilt: Promise<unknown> | undefined;
/** The fixed tree, built once for every describe below. */
const fixed = () => {
  if (!fixedBuilt) {
    mkdirSync(join(root, 'fixed'), { recursive: true });
    fixedBuilt = buildFrom(toCsvFiles(HOST_FIXTURE), fixedTree, 30);
  }
  return fixedBuilt;
};

/** Service URLs with what they show; each answers like the reference. */
const SERVICE_URLS: [string, string][] = [
  ...PARAMETER_URLS,
  ['/author.json', 'the first page'],
  ['/author.json?Page=4', 'the last, short page'],
  ['/author.json?Page=5', 'a page past the end: the true total and no items'],
  ['/author.json?Term=m%C3%BCl', 'a Unicode Term (mül)'],
  ['/author.json?Term=MUL', 'a Term folded: MUL finds Müller'],
  ['/author.json?Term=strasse', 'ß folds to ss'],
  ['/author.json?Term=Stra%C3%9Fe', 'a Term with ß'],
  ['/author.json?Term=%C5%81uk', 'a Term with Ł'],
  ['/author.json?Term=%C3%B8berg', 'a Term with ø'],
  ['/author.json?Term=%E5%B1%B1%E7%94%B0', 'a CJK Term'],
  ['/author.json?Term=nguyen%20van', 'a Term of two words without their diacritics'],
  ['/author.json?Term=o%27brien', 'a Term with an apostrophe'],
  ['/author.json?Term=author&Page=2', 'a Term with a Page'],
  ['/author.json?term=au&page=2&system=gbif', 'Term, Page and System together'],
  ['/author.json?Term=ann&System=col-2', 'a Term with a System'],
  ['/author.json?Term=zzz', 'a Term that matches nothing'],
  ['/author.json?Term=%20', 'a blank Term'],
  ['/author.json?Id=5', 'an Id'],
  ['/author.json?Id=0101&System=gbif', 'a zero-padded Id with a System'],
  ['/author.json?Id=999', 'a missing Id'],
  ['/author.json?Id=5&Term=zzz&Page=9', 'Id hides Term and Page'],
  ['/author.json?Page=-1', 'a negative Page: 400'],
  ['/division.json?Id=10&child=true', 'a child by Id, with its parent'],
  ['/division.json?Id=10&child=false', 'a child by Id, child=false'],
  ['/division.json?Id=1', 'a division by Id'],
  ['/division.json?Id=11&child=1&System=gbif', 'a child by Id with a System'],
  ['/division.json?Term=mam', 'a Term over divisions and their children'],
  ['/descriptor.json?page=2', 'descriptors, page 2'],
  ['/descriptor.json?id=3', 'a descriptor by id'],
  ['/descriptor.json?Term=descriptor%201', 'a Term with a space'],
  ['/country.json', 'the countries'],
  ['/country.json?Term=%C3%A5land', 'a Unicode Term over countries'],
  ['/country.json?Term=aland&Page=7', 'å folds to a; Page ignored'],
  ['/country/840.json', 'a country'],
  ['/country/0840.json', 'a zero-padded country id'],
  ['/country/999.json', 'an unknown country: 404'],
  ['/country/840/state.json', 'the states of a country'],
  ['/country/840/state.json?term=tex', 'a Term over states'],
  ['/country/124/state.json', 'a country without states: an empty list'],
  ['/country/999/state.json?Term=x', 'states of an unknown country: 404 before Term'],
  ['/country/840/state/06.json', 'a zero-padded state id'],
  ['/country/840/state/7.json', 'an unknown state: 404'],
  ['/country/840/state/06/county.json', 'the county grid, zero-padded'],
  ['/country/0840/state/006/county.json?Page=2&System=gbif', 'the county grid ignores Page and System'],
  ['/country/840/state/06/county/06037.json', 'a county by zero-padded FIPS'],
  ['/country/840/state/6/county/6075.json', 'a county by FIPS'],
  ['/country/840/state/6/county/48001.json', 'an unknown county: 404'],
  ['/country/840/state/48/county.json', 'a state without counties'],
];

/** No path of the service: the worker leaves them to the host's files (404 here). */
const OTHER_PATHS = [
  '/nope.json',
  '/authors.json',
  '/Author.json',
  '/author.JSON',
  '/country/abc.json',
  '/country/1/states.json',
  '//x/author.json?Page=2',
  '//x/country/840.json',
];

const HOST_FILES = [
  '/nginx.conf',
  '/_routes.json',
  '/_netlify/reflist.js',
  '/_worker.js',
  '/_headers',
  '/_redirects',
  '/.assetsignore',
];

describe('the Cloudflare _worker.js in workerd', () => {
  let worker: Awaited<ReturnType<typeof startWorkerd>>;
  beforeAll(async () => {
    await fixed();
    worker = await startWorkerd(fixedTree);
  });
  afterAll(() => worker?.stop());

  test.each(SERVICE_URLS)('%s answers like the reference (%s)', async (url) => {
    expectLikeReference(url, await get(worker.url, url), referenceRequest(HOST_FIXTURE, 30, url));
  });

  test.each(OTHER_PATHS)(
    "%s is no service path: the worker hands it to the assets, which have no such file: the client's JSON 404",
    async (url) => {
      expect(adapterRouteOf(url, PRESET_API)).toBe('file');
      const [actual, assets] = await Promise.all([get(worker.url, url), get(worker.assetsUrl, url)]);
      expect(assets.status).toBe(404);
      expectWorker(url, actual, referenceRequest(HOST_FIXTURE, 30, url), assets);
      expect(actual.body).toEqual({ error: `not found: ${url.replace(/\?.*$/s, '')}` });
    },
  );

  test('plain files of the tree are served by the assets service, byte for byte', async () => {
    for (const file of [
      '/author/page/2.json',
      '/author.json',
      '/lookup.json',
      '/lookup-client.js',
      '/country/840/state.json',
    ]) {
      const res = await get(worker.url, file);
      expect({ file, status: res.status }).toEqual({ file, status: 200 });
      expect(res.bytes.equals(readFileSync(join(fixedTree, file))), file).toBe(true);
    }
    // The file /author.json is page 1 whatever the query; the worker, not the file, answers Page=2.
    const page2 = await get(worker.url, '/author.json?Page=2');
    expect(page2.text).not.toBe(readFileSync(join(fixedTree, 'author.json'), 'utf8'));
  });

  test('host files answer a JSON 404 from the worker, never their content', async () => {
    for (const file of HOST_FILES) {
      const res = await get(worker.url, file);
      expect({ file, status: res.status, body: res.body }).toEqual({
        file,
        status: 404,
        body: { error: `not found: ${file}` },
      });
      // ... though the assets service would serve them: the worker is what hides them.
      if (file !== '/.assetsignore')
        expect({ file, status: (await get(worker.assetsUrl, file)).status }).toEqual({ file, status: 200 });
    }
  });

  test('answers JSON with CORS and a short Cache-Control; HEAD sends no body; POST answers 405', async () => {
    for (const url of ['/author.json?Term=m%C3%BCl', '/author.json?Page=0', '/country/0840.json', '/nginx.conf']) {
      const res = await get(worker.url, url);
      expect(res.headers.get('content-type'), url).toBe('application/json; charset=utf-8');
      expect(res.headers.get('access-control-allow-origin'), url).toBe('*');
      expect(res.headers.get('cache-control'), url).toMatch(/max-age=\d+/);
    }
    const head = await get(worker.url, '/author.json?Page=2', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await get(worker.url, '/author.json?Term=smi', {
        method,
        body: method === 'DELETE' ? undefined : 'x',
      });
      expect({ method, status: res.status, allow: res.headers.get('allow') }).toEqual({
        method,
        status: 405,
        allow: 'GET, HEAD',
      });
      expect(typeof (res.body as { error: unknown }).error).toBe('string');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  test('random sources and random requests straight to workerd answer like the reference', async () => {
    await assertHostOnRandomCases({
      root,
      treeIn: (dir) => join(dir, 'dist'),
      start: (tree) => startWorkerd(tree),
      check: async (server, { src, pageSize, urls }) => {
        // All at once: one isolate answers them together, as it does on Cloudflare.
        const answers = await Promise.all(
          urls.map(
            async (url) =>
              [
                await get(server.url, url),
                adapterRouteOf(url, PRESET_API) === 'file' ? await get(server.assetsUrl, url) : undefined,
              ] as const,
          ),
        );
        urls.forEach((url, i) =>
          expectWorker(url, answers[i]![0], referenceRequest(src, pageSize, url), answers[i]![1]),
        );
      },
    });
  }, 120_000);

  test('over random declarations, _worker.js in workerd answers like the generic reference', async () => {
    await assertHostOnDeclaredCases({
      root,
      treeIn: (dir) => join(dir, 'dist'),
      start: (tree) => startWorkerd(tree),
      check: async (server, urls, { api, reference }) => {
        const answers = await Promise.all(
          urls.map(
            async (url) =>
              [
                await get(server.url, url),
                adapterRouteOf(url, api) === 'file' ? await get(server.assetsUrl, url) : undefined,
              ] as const,
          ),
        );
        urls.forEach((url, i) => expectWorker(url, answers[i]![0], reference(url), answers[i]![1], api));
      },
    });
  }, 300_000);
});

// ---------------------------------------------------------------- bursts

// Every draw below comes from a seeded mulberry32 (scripts/sources/prng.ts): the same bursts on every run.

const SURNAMES = [
  'Müller',
  'Łukasiewicz',
  'Straße',
  'Ångström',
  'Øberg',
  'Smith',
  'Smyth',
  'García',
  'Nguyễn',
  "O'Brien",
  'Dvořák',
  'Şahin',
  '山田',
  'Kowalski',
  'Ødegård',
  'Peña',
  'Ibáñez',
  'Zürcher',
  'Æsir',
  'Björk',
];
const GIVEN = ['Anna', 'Jürgen', 'Åsa', 'Seán', 'José', 'Zoë', 'Łucja', 'Ib', 'Chloé', 'Václav', 'Taro', 'Ana María'];

/** 200 authors (50 pages of 4, 200 page files with the three systems), divisions, descriptors and some geography. */
const BURST: RefSources = (() => {
  const rnd = mulberry32(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const author = Array.from({ length: 200 }, (_, i) => ({
    id: 1000 + i * 3,
    text: `${pick(SURNAMES)}, ${pick(GIVEN)}`,
  }));
  const system = [
    { id: 'gbif', text: 'GBIF' },
    { id: 'col', text: 'Catalogue of Life' },
    { id: 'idig-bio', text: 'iDigBio' },
  ];
  const division = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, text: `${pick(SURNAMES)} division ${i}` }));
  const category = Array.from({ length: 40 }, (_, i) => ({
    id: 100 + i,
    division_id: 1 + (i % 8),
    text: `${pick(GIVEN)} group ${i}`,
  }));
  return {
    author,
    country: [
      { id: 840, text: 'United States' },
      { id: 124, text: 'Canada' },
      { id: 248, text: 'Åland Islands' },
    ],
    state: [
      { id: 6, country_id: 840, text: 'California' },
      { id: 48, country_id: 840, text: 'Texas' },
      { id: 1, country_id: 124, text: 'Québec' },
    ],
    county: Array.from({ length: 12 }, (_, i) => ({
      country_id: 840,
      state_id: 6,
      FIPS: 6001 + 2 * i,
      county: `${pick(SURNAMES)} County`,
      latitudeCenter: 34 + i / 10,
      LongitudeCenter: -118 - i / 10,
    })),
    division,
    category,
    descriptor: Array.from({ length: 120 }, (_, i) => ({ id: i, text: `${pick(GIVEN)} descriptor ${i}` })),
    system,
    author_count: author
      .filter((_, i) => i % 3 === 0)
      .map((a, i) => ({ system: system[i % 3]!.id, id: a.id, count: 1 + (i % 7) })),
    division_count: division
      .filter((_, i) => i % 2 === 0)
      .map((d, i) => ({ system: system[i % 3]!.id, id: d.id, count: i })),
  };
})();
const BURST_PAGE_SIZE = 4;

/**
 * The bursts' URLs: Terms (Unicode prefixes, in any case), Pages, Systems and
 * Ids, plus arbRequest's variety. A pool of `size` (the reference is brute
 * force: it is asked once a URL), from which each round draws its own mix.
 */
function burstPool(size: number): string[] {
  const rnd = mulberry32(1000);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const enc = encodeURIComponent;
  const terms = [...SURNAMES, ...GIVEN].map((w) => w.slice(0, 2 + Math.floor(rnd() * 3)));
  const systems = [...BURST.system.map((s) => s.id), 'nope'];
  const made: (() => string)[] = [
    () => `/author.json?Term=${enc(pick(terms))}&Page=${1 + Math.floor(rnd() * 6)}`,
    () => `/author.json?term=${enc(pick(terms).toUpperCase())}&system=${pick(systems)}`,
    () => `/author.json?Page=${1 + Math.floor(rnd() * 55)}`,
    () => `/author.json?Page=${1 + Math.floor(rnd() * 55)}&System=${pick(systems)}`,
    () => `/author.json?Id=${pick(BURST.author).id + (rnd() < 0.2 ? 1 : 0)}&System=${pick(systems)}`,
    () => `/division.json?Id=${pick(BURST.category).id}&child=${pick(['true', 'false'])}`,
    () => `/division.json?Term=${enc(pick(terms))}&System=${pick(systems)}`,
    () => `/descriptor.json?Page=${1 + Math.floor(rnd() * 32)}`,
    () => `/descriptor.json?Term=${enc(pick(GIVEN).slice(0, 3))}&Page=${1 + Math.floor(rnd() * 3)}`,
    () => `/country/${pick(['840', '0840'])}/state/${pick(['6', '06'])}/county/${pick(BURST.county).FIPS}.json`,
  ];
  const urls = new Set<string>();
  for (let i = 0; urls.size < size / 2 && i < 10 * size; i++) urls.add(pick(made)());
  for (const url of fc.sample(arbRequest(BURST, BURST_PAGE_SIZE), { seed: 42, numRuns: 2 * size })) {
    if (urls.size >= size) break;
    urls.add(url);
  }
  return [...urls];
}

/** Round `round`'s burst: `count` URLs of the pool in a random order, some of them twice. */
function burstOf(pool: readonly string[], round: number, count: number): string[] {
  const rnd = mulberry32(round);
  return Array.from({ length: count }, () => pool[Math.floor(rnd() * pool.length)]!);
}

describe('concurrent bursts against one workerd (one isolate, one client)', () => {
  const ROUNDS = 5;
  const PER_ROUND = 320;
  const tree = join(root, 'burst', 'dist');
  const pool = burstPool(400);
  const expected = new Map<string, RefResponse>();
  let worker: Awaited<ReturnType<typeof startWorkerd>>;
  beforeAll(async () => {
    mkdirSync(join(root, 'burst'), { recursive: true });
    await buildFrom(toCsvFiles(BURST), tree, BURST_PAGE_SIZE);
    worker = await startWorkerd(tree);
    for (const url of pool) expected.set(url, referenceRequest(BURST, BURST_PAGE_SIZE, url));
  }, 60_000);
  afterAll(() => worker?.stop());

  test(`${ROUNDS} rounds of ${PER_ROUND} requests at once (Terms, Pages, Systems, Ids) all answer like the reference`, async () => {
    // For the paths that are no service path: what the host's files answer.
    const assets = new Map<string, Got>();
    for (const url of pool)
      if (adapterRouteOf(url, PRESET_API) === 'file') assets.set(url, await get(worker.assetsUrl, url));
    expect(pool.filter((url) => adapterRouteOf(url, PRESET_API) === 'answer').length).toBeGreaterThan(300);
    const failures: string[] = [];
    const summary: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const urls = burstOf(pool, round, PER_ROUND);
      const t0 = performance.now();
      const answers = await Promise.all(urls.map((url) => get(worker.url, url).catch((err: unknown) => err as Error)));
      const ms = performance.now() - t0;
      let failed = 0;
      answers.forEach((actual, i) => {
        const url = urls[i]!;
        if (actual instanceof Error) {
          failed++;
          failures.push(`round ${round} ${url}: ${actual.message}`);
          return;
        }
        try {
          expectWorker(url, actual, expected.get(url)!, assets.get(url));
        } catch {
          failed++;
          failures.push(`round ${round} ${url}: ${actual.status} ${actual.text.slice(0, 160)}`);
        }
      });
      summary.push(
        `round ${round}: ${urls.length} requests (${new Set(urls).size} distinct) in ${ms.toFixed(0)} ms, ${failed} failed`,
      );
    }
    expect(failures.slice(0, 20), summary.join('\n')).toEqual([]);
    expect(failures.length).toBe(0);
  }, 60_000);
});

// ---------------------------------------------------------------- wrangler

/** wrangler, offline: no metrics, no Cloudflare fetches, its config, logs and state in `home`. */
function wranglerEnv(home: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_LOG_PATH: join(home, 'logs'),
    XDG_CONFIG_HOME: join(home, 'config'),
    NO_COLOR: '1',
  };
}

/**
 * `wrangler <args> --port P` (pages dev or dev) in its own process group, on
 * loopback ports, until it answers /lookup.json; stop() ends the whole group
 * (wrangler and its workerd). Both start offline in a few seconds. Two things
 * they need: an --inspector-port of their own (the default 9229 makes a second
 * wrangler's workerd fail to start: Address already in use), and a
 * compatibility date no later than its workerd's newest (2026-05-03 in
 * wrangler 4.86.0): `pages dev` without one takes today's date and fails to start.
 */
async function startWrangler(args: string[], home: string): Promise<Running> {
  const [port, inspector] = await Promise.all([freePort(), freePort()]);
  const child = spawn(
    WRANGLER,
    [
      ...args,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      '--persist-to',
      join(home, 'state'),
      '--show-interactive-dev-session=false',
      '--log-level',
      'warn',
    ],
    { cwd: home, env: wranglerEnv(home), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      const killer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 5_000);
      await exited;
      clearTimeout(killer);
    }
  };
  const url = `http://127.0.0.1:${port}/`;
  try {
    await untilAnswers(`wrangler ${args[0]} on ${url}`, async () => (await get(url, '/lookup.json')).status === 200, {
      exited,
      output: () => output,
      timeoutMs: 40_000,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

/** A few service URLs, a plain file and the host files through a real local Cloudflare host of the fixed tree. */
async function expectHostServesTree(host: Running) {
  for (const url of [
    '/author.json?Term=m%C3%BCl',
    '/author.json?page=2&system=gbif',
    '/division.json?Id=10&child=true',
    '/country/0840/state/06/county/06037.json',
    '/country.json?Term=%C3%A5land',
    '/author.json?Page=0',
    '/author.json?System=nope',
  ]) {
    expectLikeReference(url, await get(host.url, url), referenceRequest(HOST_FIXTURE, 30, url));
  }
  for (const file of ['/author/page/2.json', '/lookup-client.js']) {
    const res = await get(host.url, file);
    expect({ file, status: res.status }).toEqual({ file, status: 200 });
    expect(res.bytes.equals(readFileSync(join(fixedTree, file))), file).toBe(true);
  }
  for (const file of ['/nginx.conf', '/_routes.json', '/_netlify/reflist.js', '/_worker.js']) {
    const res = await get(host.url, file);
    expect({ file, status: res.status }).toEqual({ file, status: 404 });
    expect(res.text).not.toContain(readFileSync(join(fixedTree, file), 'utf8').slice(0, 40));
  }
  // The worker's paths that name no file: the client's JSON 404, not the host's 404.html (which _headers would label JSON),
  // and not the file an escaped / decodes to. (`/country%2F840/…` is no path of _routes.json: the host answers it.)
  for (const url of ['/country/abc.json', '/country/840/states.json', '/country/840%2Fstate.json']) {
    const res = await get(host.url, url);
    expect({ url, status: res.status, body: res.body }).toEqual({
      url,
      ...referenceRequest(HOST_FIXTURE, 30, url),
      body: { error: `not found: ${decodeURIComponent(url)}` },
    });
  }
  const head = await get(host.url, '/author.json?Page=2', { method: 'HEAD' });
  expect({
    status: head.status,
    type: head.headers.get('content-type'),
    cors: head.headers.get('access-control-allow-origin'),
  }).toEqual({ status: 200, type: 'application/json; charset=utf-8', cors: '*' });
  expect((await get(host.url, '/author.json', { method: 'POST', body: 'x' })).status).toBe(405);
}

/** docs/deploy/wrangler.jsonc (comment lines dropped: no string in it holds `//`). */
function deployConfig(): Record<string, unknown> & { assets: Record<string, unknown> } {
  const text = readFileSync('docs/deploy/wrangler.jsonc', 'utf8');
  return JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as ReturnType<typeof deployConfig>;
}

describe('wrangler, offline', () => {
  beforeAll(() => fixed());

  test('wrangler pages project validate passes on a tree of the shipped sources, and fails on a file over 25 MiB', async () => {
    const home = tempDir('reflist-wrangler-');
    const shipped = join(home, 'shipped', 'dist');
    mkdirSync(join(home, 'shipped'));
    await build({ sources: 'sources', out: shipped, pageSize: 30 });
    const tooBig = join(home, 'too-big');
    mkdirSync(tooBig);
    writeFileSync(join(tooBig, 'index.html'), '');
    truncateSync(join(tooBig, 'index.html'), 26 * 1024 * 1024);
    const validate = (dir: string) =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(WRANGLER, ['pages', 'project', 'validate', dir], {
          cwd: home,
          env: wranglerEnv(home),
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 60_000,
        });
        let output = '';
        child.stdout!.on('data', (c) => (output += c));
        child.stderr!.on('data', (c) => (output += c));
        child.once('exit', (code) => resolve({ code, output }));
      });
    const [good, bad] = await Promise.all([validate(shipped), validate(tooBig)]);
    expect(good, good.output).toMatchObject({ code: 0 });
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/25 MiB|too large/i);
  }, 60_000);

  test('wrangler pages dev (the Pages asset server and _routes.json) serves the tree through its _worker.js', async () => {
    const home = tempDir('reflist-pages-dev-');
    const host = await startWrangler(
      ['pages', 'dev', realpathSync(fixedTree), '--compatibility-date', deployConfig()['compatibility_date'] as string],
      home,
    );
    try {
      await expectHostServesTree(host);
      // _routes.json keeps the worker from every path that is no service path: the asset server answers them.
      expect((await get(host.url, '//x/author.json?Page=2')).status).toBe(404);
    } finally {
      await host.stop();
    }
  }, 60_000);

  test('docs/deploy/wrangler.jsonc runs the same _worker.js as a Worker with static assets (wrangler dev)', async () => {
    const config = deployConfig();
    const routes = JSON.parse(readFileSync(join(fixedTree, '_routes.json'), 'utf8')) as { include: string[] };
    expect(config.assets['run_worker_first']).toEqual(routes.include);
    expect(config.assets['binding']).toBe('ASSETS');
    expect(config['main']).toBe(`${config.assets['directory'] as string}/_worker.js`);
    const home = tempDir('reflist-wrangler-dev-');
    const tree = realpathSync(fixedTree);
    const { $schema: _, ...rest } = config;
    writeFileSync(
      join(home, 'wrangler.json'),
      JSON.stringify({ ...rest, main: join(tree, '_worker.js'), assets: { ...config.assets, directory: tree } }),
    );
    const host = await startWrangler(['dev', '-c', join(home, 'wrangler.json')], home);
    try {
      await expectHostServesTree(host);
      // Every path with no asset reaches the worker here: one that is no service path stays a 404.
      for (const url of OTHER_PATHS)
        expect({ url, status: (await get(host.url, url)).status }).toEqual({ url, status: 404 });
    } finally {
      await host.stop();
    }
  }, 60_000);
});

// Plain files exist where the tests say so.
test('the fixed tree has the files the tests above take as plain files and host files', async () => {
  await fixed();
  for (const file of ['author/page/2.json', 'lookup-client.js', ...HOST_FILES.map((f) => f.slice(1))]) {
    expect(existsSync(join(fixedTree, file)) && statSync(join(fixedTree, file)).isFile(), file).toBe(true);
  }
  expect(parseRequest('/author/page/2.json', PRESET_API)).toMatchObject({ status: 404 });
});
