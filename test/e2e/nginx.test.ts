// A real nginx serving built trees through the generated nginx.conf: the
// client over it agrees with the reference, and the legacy query URLs answer
// through the config's rewrites exactly as the reference does (or 501 where
// only the client can answer: Term and Id), and exactly in every case when
// the tree is built with --nginx-upstream and a reflist serve stands behind it,
// for declared lists too, escaped and raw paths among the requests.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseQuery, splitUrl } from '../../src/client/request.js';
import { toCsvFiles } from '../arbitraries.js';
import { build } from '../../src/build.js';
import { createCompatServer } from '../../src/commands/serve.js';
import { buildFrom, freePort, nginxMainConf, tempDir, treeClient, writeSources, type Running } from '../helpers.js';
import fc from 'fast-check';
import { arbDeclaredRequest, type Declared } from '../declarations.js';
import {
  assertHostOnDeclaredCases,
  assertHostOnRandomCases,
  buildDeclaredTree,
  exchangeBytes,
  expectLikeDeclared,
  expectLikeReference,
  fetchAnswer,
  fetchRaw,
  isStaticTreeFile,
  PARAMETER_URLS,
  staticTreeFile,
  untilAnswers,
  type DeclaredTree,
  type HostAnswer,
} from '../host-checks.js';
import { referenceRequest, type RefResponse, type RefSources } from '../reference.js';
import { CITY_FILES, NESTED_CONFIG } from '../fixtures/cities.js';
import { HOST_FIXTURE } from '../fixtures/hosts.js';

const NGINX = process.env['NGINX'] ?? '/usr/sbin/nginx';
const haveNginx = existsSync(NGINX);
if (!haveNginx)
  console.warn(
    `test/e2e/nginx.test.ts skipped: ${NGINX} is missing (apt-get install nginx, or set NGINX=/path/to/nginx)`,
  );

/**
 * nginx on a free loopback port serving `tree` with the tree's own nginx.conf,
 * as docs/hosts.md tells users to include it. Everything it writes stays in a temp dir.
 */
async function startNginx(tree: string): Promise<Running> {
  const prefix = tempDir('reflist-nginx-');
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(conf, nginxMainConf(prefix, tree, port));
  const child = spawn(NGINX, ['-c', conf, '-p', prefix, '-e', join(prefix, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}/`;
  await untilAnswers(
    `nginx on ${url}`,
    async () => {
      await (await fetch(url)).arrayBuffer();
      return true;
    },
    { exited, output: () => stderr, timeoutMs: 10_000 },
  );
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/** Requests nginx leaves to the client: a Term or an Id on a path that takes it (docs/contract.md §1). */
function needsClient(url: string): boolean {
  const { path, search } = splitUrl(url);
  const params = parseQuery(search);
  if (/^\/(author|division|descriptor)\.json$/.test(path)) return params.has('id') || params.has('term');
  return (path === '/country.json' || /^\/country\/\d+\/state\.json$/.test(path)) && params.has('term');
}

/** What nginx should answer for a request of the original service. */
function expectNginx(root: string, url: string, actual: RefResponse, expected: RefResponse) {
  if (isStaticTreeFile(root, url)) expect({ url, status: actual.status }).toEqual({ url, status: 200 });
  else if (expected.status === 200 && needsClient(url)) {
    expect({ url, status: actual.status }).toEqual({ url, status: 501 });
    expect((actual.body as { error: string }).error, url).toMatch(/lookup-client\.js/);
  } else expectLikeReference(url, actual, expected);
}

describe.skipIf(!haveNginx)('nginx with the generated nginx.conf', () => {
  const root = tempDir('reflist-nginx-tree-');
  const tree = join(root, 'fixed');
  let nginx: Running;
  beforeAll(async () => {
    mkdirSync(root, { recursive: true });
    await buildFrom(toCsvFiles(HOST_FIXTURE), tree, 30);
    nginx = await startNginx(tree);
  });
  afterAll(() => nginx?.stop());

  test.each([
    ...PARAMETER_URLS,
    ['/author.json?Page=5', 'a page past the end: the true total and no items'],
    ['/country/0840/state/006/county/06037.json', 'zero-padded path ids'],
    ['/country/840/state/6/county.json', 'the county grid'],
    ['/country/124/state.json', 'a country without states: an empty list'],
    ['/country/999/state.json?Term=x', 'states of an unknown country: 404 before Term'],
    ['/country/840/state/7.json', 'an unknown state: 404'],
    ['/country/840%2Fstate.json', 'an escaped / names nothing: 404, though country/840/state.json is a file'],
    ['/country/%zz.json', 'a malformed escape names nothing: 404'],
  ])('%s answers like the reference (%s)', async (url) => {
    expectLikeReference(url, await fetchAnswer(nginx.url, url), referenceRequest(HOST_FIXTURE, 30, url));
  });

  test('an unknown System answers the message of every host, unknown system "nope", in JSON whatever the value', async () => {
    expect(await fetchAnswer(nginx.url, '/author.json?System=nope')).toMatchObject({
      status: 404,
      body: { error: 'unknown system "nope"' },
    });
    for (const url of ['/author.json?System=a"b', '/author.json?System=a\\b', '/author.json?System=%22']) {
      const got = await fetchRaw(nginx.url, url);
      expect({ url, status: got.status, error: typeof (got.body as { error?: unknown }).error }).toEqual({
        url,
        status: 404,
        error: 'string',
      });
    }
  });

  test('a request nginx cannot read answers JSON: a malformed escape in the path a 404, anything else a 400', async () => {
    for (const url of ['/author/%%34/x.json', '/country/%00.json']) {
      expect({ url, ...(await fetchRaw(nginx.url, url)) }).toMatchObject({
        url,
        status: 404,
        body: { error: expect.any(String) },
      });
    }
    const [head, body] = (
      await exchangeBytes(nginx.url, 'GET /author.json HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n')
    ).split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    expect(JSON.parse(body!)).toEqual({ error: expect.any(String) });
  });

  test.each([
    '/author.json?Term=au',
    '/author.json?term=au&page=2',
    '/author.json?Id=5',
    '/division.json?Id=10&child=true',
    '/descriptor.json?id=3',
    '/country.json?Term=can',
    '/country/840/state.json?term=ca',
  ])('%s answers 501 with a JSON error: only the client answers Term and Id', async (url) => {
    const { status, body } = await fetchAnswer(nginx.url, url);
    expect(status).toBe(501);
    expect((body as { error: string }).error).toMatch(/lookup-client\.js or reflist serve/);
  });

  test('answers JSON with CORS, gzip and a short Cache-Control, and a JSON 404', async () => {
    const page = await fetch(nginx.url + 'author.json?Page=2', { headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(page.headers.get('access-control-allow-origin')).toBe('*');
    expect(page.headers.get('content-encoding')).toBe('gzip');
    expect(page.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const js = await fetch(nginx.url + 'lookup-client.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const missing = await fetchAnswer(nginx.url, '/nope/x.json');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'not found: /nope/x.json' });
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    for (const hidden of ['/nginx.conf', '/_headers', '/_redirects'])
      expect((await fetchAnswer(nginx.url, hidden)).status).toBe(404);
    expect((await fetch(nginx.url + 'author.json', { method: 'POST' })).status).toBe(405);
  });

  test('the client over nginx and the legacy URLs straight to nginx both agree with the reference on random sources', async () => {
    await assertHostOnRandomCases({
      root,
      start: startNginx,
      check: async (server, { src, pageSize, urls }, tree) => {
        const client = await treeClient(tree, { baseUrl: server.url });
        for (const url of urls) {
          const expected = referenceRequest(src, pageSize, url);
          expectLikeReference(url, await client.request(url), expected);
          expectNginx(tree, url, await fetchAnswer(server.url, url), expected);
        }
      },
    });
  }, 300_000);
});

/** A compat server (`reflist serve`) on a free loopback port. */
async function startCompat(tree: string): Promise<Running & { origin: string }> {
  const server = createCompatServer({ dir: tree });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: origin + '/', origin, stop: () => new Promise<void>((done) => server.close(() => done())) };
}

/** A tree built with --nginx-upstream pointing at a compat server over it, and nginx in front. */
async function nginxWithUpstream(src: RefSources, pageSize: number, out: string): Promise<Running> {
  const sources = writeSources(tempDir('reflist-src-'), toCsvFiles(src));
  // The server reads the tree per request, so it can listen (and name its port) before the build.
  const compat = await startCompat(out);
  await build({ sources, out, pageSize, nginxUpstream: compat.origin });
  const nginx = await startNginx(out);
  return { url: nginx.url, stop: async () => void (await Promise.all([nginx.stop(), compat.stop()])) };
}

describe.skipIf(!haveNginx)('nginx with --nginx-upstream and reflist serve behind it', () => {
  const root = tempDir('reflist-nginx-upstream-');
  let nginx: Running;
  beforeAll(async () => {
    nginx = await nginxWithUpstream(HOST_FIXTURE, 30, join(root, 'fixed'));
  });
  afterAll(() => nginx?.stop());

  test.each([
    '/author.json?Term=au',
    '/author.json?term=au&page=2',
    '/author.json?Term=AUTHOR%2006&System=gbif',
    '/author.json?Id=5',
    '/author.json?Id=0031&System=gbif',
    '/division.json?Id=10&child=true',
    '/division.json?Id=10&child=1&System=col-2',
    '/descriptor.json?id=3',
    '/country.json?Term=can',
    '/country/0840/state.json?term=ca',
    '/country/999/state.json?Term=x',
  ])('%s answers like the reference, through reflist serve', async (url) => {
    expectLikeReference(url, await fetchAnswer(nginx.url, url), referenceRequest(HOST_FIXTURE, 30, url));
  });

  test("an answer from reflist serve carries one CORS header and nginx's Cache-Control", async () => {
    const res = await fetch(nginx.url + 'author.json?Term=au');
    expect(res.headers.get('access-control-allow-origin')).toBe('*'); // two headers would read "*, *"
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=300\b/);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  test('every legacy URL straight to nginx agrees with the reference on random sources, Term and Id included', async () => {
    await assertHostOnRandomCases({
      root,
      // The build names the upstream's port, so the upstream starts first.
      buildsTree: true,
      start: (tree, { src, pageSize }) => nginxWithUpstream(src, pageSize, tree),
      check: async (server, { src, pageSize, urls }, tree) => {
        for (const url of urls) {
          const actual = await fetchAnswer(server.url, url);
          if (isStaticTreeFile(tree, url)) expect({ url, status: actual.status }).toEqual({ url, status: 200 });
          else expectLikeReference(url, actual, referenceRequest(src, pageSize, url));
        }
      },
    });
  }, 300_000);
});

// ---------------------------------------------------------------- declared lists

/**
 * Lists that name parameters apart and reach items through paths: journal
 * calls its page P; subject has integer ids, items, children and counts per
 * collection; region has string ids and items, with languages under each.
 */
const DECLARED: Declared = {
  config: {
    groups: { source: 'collection.csv', param: 'Collection' },
    lists: {
      journal: { params: { page: 'P' } },
      subject: { items: true, children: 'topic', counts: { source: 'subject_count.csv' } },
      topic: { parent: { list: 'subject', column: 'subject_id' } },
      region: { id: { column: 'id', type: 'string' }, shape: 'whole', items: true },
      language: { parent: { list: 'region', column: 'region_id' }, shape: 'whole' },
    },
  },
  files: {
    'collection.csv': 'id,text\nherb,Herbarium\nzoo,Zoo\n',
    'journal.csv': 'id,text\n' + Array.from({ length: 7 }, (_, i) => `${i + 1},Journal ${i + 1} of Straße\n`).join(''),
    'subject.csv': 'id,text\n619,Botany\n7,Zoology\n31,Mycology\n',
    'topic.csv': 'id,text,subject_id\n1,Ferns,619\n2,Mammals,7\n',
    'subject_count.csv': 'group,id,count\nherb,619,3\n',
    'region.csv': 'id,text\nEU,Europe\nUS,United States\n',
    'language.csv': 'id,text,region_id\n1,English,EU\n2,Deutsch,EU\n3,Español,US\n',
  },
  pageSize: 2,
};

/**
 * What nginx with reflist serve behind it answers for a request of declared
 * lists: a path of a list as the client does (the generic reference); any
 * other path the tree's file it names (filePathOf, `//` merged), or a JSON 404.
 */
function expectNginxDeclared(
  tree: string,
  api: DeclaredTree['api'],
  url: string,
  actual: HostAnswer,
  expected: { status: number; body: unknown },
) {
  const file = staticTreeFile(tree, url, api);
  if (file)
    expect({ url, status: actual.status, text: actual.text }).toEqual({
      url,
      status: 200,
      text: readFileSync(file, 'utf8'),
    });
  else expectLikeDeclared(url, actual, expected);
}

/** A reflist serve over `tree` started before the build that names it, as nginx's upstream. */
async function upstreamFor(tree: string) {
  const compat = await startCompat(tree);
  return { options: { nginxUpstream: compat.origin }, stop: compat.stop };
}

describe.skipIf(!haveNginx)('nginx over declared lists, with reflist serve behind it', () => {
  const root = tempDir('reflist-nginx-declared-');
  const tree = join(root, 'fixed');
  let nginx: Running;
  let built: DeclaredTree;
  let stopUpstream: () => Promise<void>;
  beforeAll(async () => {
    const upstream = await upstreamFor(tree);
    stopUpstream = upstream.stop;
    built = (await buildDeclaredTree(DECLARED, tree, upstream.options))!;
    nginx = await startNginx(tree);
  });
  afterAll(async () => {
    await nginx?.stop();
    await stopUpstream?.();
  });

  test.each([
    ['/journal.json?P=2', 'journal reads its page from P'],
    ['/journal.json?p=4', 'P in any case, past the end'],
    ['/journal.json?Page=2', 'journal calls its page P: Page means nothing to it, page 1'],
    ['/subject.json?P=2', 'P means nothing to subject, page 1'],
    ['/subject.json?Page=2', 'subject still reads its page from Page'],
    ['/subject.json?Page=2&P=1', 'and from Page alone, whatever P says'],
    ['/journal.json?P=%32', 'an escaped page number, read by the client'],
    ['/subject/0619.json', 'a zero-padded id of a paged list with items'],
    ['/subject/00007.json', 'any number of zeros'],
    ['/subject/0620.json', 'a zero-padded id of no item: 404'],
    ['/subject.json?Collection=herb&Page=1', 'a collection, with its counts'],
    ['/subject.json?Id=1&child=true', 'a topic by id, with its subject, through reflist serve'],
    [
      '/region/EU%2Flanguage.json',
      'an escaped / between an id and a list: 404, though region/EU/language.json is a file',
    ],
    ['/region%2FEU/language.json', 'an escaped / after the list: 404'],
    ['/region/%45U.json', 'a percent-encoded letter of an id'],
    ['/region/%45U/language.json?Term=esp', 'a percent-encoded letter on the way to a list, with a Term'],
  ])('%s answers like the client (%s)', async (url) => {
    expectLikeDeclared(url, await fetchRaw(nginx.url, url), built.reference(url));
  });

  test('an unknown collection answers the message of every host: unknown collection "nope"', async () => {
    const url = '/subject.json?collection=nope';
    expect(await fetchRaw(nginx.url, url)).toMatchObject({ status: 404, body: { error: 'unknown collection "nope"' } });
    expect(built.reference(url)).toEqual({ status: 404, body: { error: 'unknown collection "nope"' } });
  });

  test.each([
    ['/journal%2Ejson?P=2', "an escaped .json is no list's path: the file, page 1"],
    ['//journal.json?P=2', "a doubled / is no list's path: the file"],
    ['/subject/0619%2Ejson', "no zeros dropped where the path is no list's: 404, there is no such file"],
  ])("%s answers the tree's file or a 404, as the client reads the path (%s)", async (url) => {
    expectNginxDeclared(tree, built.api, url, await fetchRaw(nginx.url, url), built.reference(url));
  });

  test('a raw UTF-8 query answers what its percent-encoded form answers, through reflist serve', async () => {
    for (const [raw, encoded] of [
      ['/journal.json?Term=straße', '/journal.json?Term=stra%C3%9Fe'],
      ['/region/US/language.json?Term=ESPAÑ', '/region/US/language.json?Term=ESPA%C3%91'],
    ]) {
      const got = await fetchRaw(nginx.url, raw!);
      expect({ raw, status: got.status, body: got.body }).toEqual({ raw, ...built.reference(encoded!) });
      expect(got.body).toEqual((await fetchRaw(nginx.url, encoded!)).body);
    }
  });

  test('random requests over these lists, parameters named for the other list among them, answer like the client', async () => {
    for (const url of fc.sample(arbDeclaredRequest(DECLARED), { numRuns: 1000 })) {
      expectNginxDeclared(tree, built.api, url, await fetchRaw(nginx.url, url), built.reference(url));
    }
  });

  test('over random declarations, nginx with reflist serve behind it answers every request like the client', async () => {
    await assertHostOnDeclaredCases({
      root,
      beforeBuild: upstreamFor,
      start: startNginx,
      check: async (server, urls, { tree: dir, api, reference }) => {
        for (const url of urls) expectNginxDeclared(dir, api, url, await fetchRaw(server.url, url), reference(url));
      },
    });
  }, 300_000);
});

// ---------------------------------------------------------------- paged lists under a parent

/** Requests of cities under their country and towns under their region (test/fixtures/cities.ts), with what nginx alone does with each. */
const NESTED_URLS: [url: string, alone: 'page' | 'client' | 'past the end' | 404 | 400][] = [
  ['/country/US/city.json', 'page'],
  ['/country/US/city.json?Page=3', 'page'],
  ['/country/US/city.json?page=03', 'page'],
  ['/country/AQ/city.json', 'page'],
  ['/country/US/region/CA/town.json?P=2', 'page'],
  ['/country/US/region/CA/town.json?p=2&Page=1', 'page'],
  ['/country/CL/city/0004.json', 'page'],
  ['/country/US/big.json?Page=2', 'page'],
  ['/country/US/big.json?Page=9', 'past the end'],
  ['/country/US/city.json?Page=5', 'past the end'],
  ['/country/US/city.json?Page=99999999999', 'past the end'],
  ['/country/AQ/city.json?Page=2', 'past the end'],
  ['/country/US/city.json?Term=san', 'client'],
  ['/country/US/city.json?term=SAN&page=2', 'client'],
  ['/country/CL/city.json?Id=0004', 'client'],
  ['/country/AQ/city.json?Term=san', 'client'],
  ['/country/US/region/TX/town.json?item=11', 'client'],
  ['/country/XX/city.json', 404],
  ['/country/XX/city.json?Page=2', 404],
  ['/country/XX/city.json?Term=san', 404],
  ['/country/XX/city.json?Id=4', 404],
  ['/country/US/region/CZ/town.json?q=us', 404],
  ['/country/US/city.json?Page=0', 400],
  ['/country/US/city.json?Id=x', 400],
  ['/country/XX/city.json?Page=0', 404],
  ['/country/XX/city.json?Id=x', 404],
];

describe.skipIf(!haveNginx)('nginx over paged lists under a parent', () => {
  const root = tempDir('reflist-nginx-nested-');
  const files = { ...CITY_FILES, 'reflist.config.json': JSON.stringify(NESTED_CONFIG) };
  let alone: Running;
  let behind: Running;
  let stopUpstream: () => Promise<void>;
  beforeAll(async () => {
    await build({ sources: writeSources(tempDir('reflist-src-'), files), out: join(root, 'alone'), pageSize: 2 });
    alone = await startNginx(join(root, 'alone'));
    const upstream = await upstreamFor(join(root, 'behind'));
    stopUpstream = upstream.stop;
    await build({
      sources: writeSources(tempDir('reflist-src-'), files),
      out: join(root, 'behind'),
      pageSize: 2,
      ...upstream.options,
    });
    behind = await startNginx(join(root, 'behind'));
  });
  afterAll(async () => {
    await alone?.stop();
    await behind?.stop();
    await stopUpstream?.();
  });

  test.each(NESTED_URLS)(
    '%s answers as the client does with reflist serve behind nginx, and alone: %s',
    async (url, what) => {
      const client = await treeClient(join(root, 'alone'), { baseUrl: alone.url });
      const expected = await client.request(url);
      if (what === 'page') expect(expected.status).toBe(200);
      // An error's message is the host's own (nginx checks Page and Id itself); its status and JSON are the client's.
      const like = (got: { status: number; body: unknown }) =>
        got.status === 200
          ? { status: got.status, body: got.body }
          : { status: got.status, error: typeof (got.body as { error?: unknown }).error };
      expect({ url, ...like(await fetchRaw(behind.url, url)) }).toEqual({ url, ...like(expected) });
      const bare = await fetchRaw(alone.url, url);
      if (what === 'page') expect({ url, status: bare.status, body: bare.body }).toEqual({ url, ...expected });
      else if (typeof what === 'number') expect({ url, ...like(bare) }).toEqual({ url, status: what, error: 'string' });
      else {
        expect({ url, status: bare.status }).toEqual({ url, status: 501 });
        expect((bare.body as { error: string }).error).toMatch(
          what === 'client'
            ? /^Term, Id and child need lookup-client\.js/
            : /^a page past the end of a list under a parent needs lookup-client\.js/,
        );
      }
    },
  );
});
