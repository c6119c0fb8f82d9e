// The Netlify edge function every tree carries (_netlify/reflist.js), run in
// Deno behind test/hosts/netlify-harness.js, which routes by the function's
// config.path with URLPattern as Netlify does and serves the rest as static
// files with a 404.html. Every request of the original service answers as the
// reference does; everything else is a file, or a 404: the client's JSON one
// on the function's paths, Netlify's 404.html elsewhere.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { adapterRouteOf, servicePaths } from '../../src/client/host.js';
import { parseRequest } from '../../src/client/request.js';
import type { Manifest } from '../../src/client/types.js';
import { arbRequest, toCsvFiles } from '../arbitraries.js';
import { HOST_FIXTURE } from '../fixtures/hosts.js';
import { buildFrom, tempDir, type Running } from '../helpers.js';
import {
  assertHostOnDeclaredCases,
  assertHostOnRandomCases,
  expectLikeDeclared,
  expectLikeReference,
  fetchAnswer,
  fetchRaw,
  filePathOf,
  PARAMETER_URLS,
  PRESET_API,
  type HostAnswer,
} from '../host-checks.js';
import { startNetlifyDeno } from '../hosts/netlify.js';
import { referenceRequest, type RefResponse } from '../reference.js';

const OWN_READ = { 'x-reflist-read': '1' };
const JSON_TYPE = 'application/json; charset=utf-8';

/** Who answered, as the harness says: function, function-next, function-passthrough or static. */
const servedBy = (got: HostAnswer) => got.headers.get('x-netlify-harness');

/**
 * A path of the original service (docs/contract.md §1), or of the lists `api`
 * states: what the client answers, a 404 included, rather than leaving to the files.
 */
function isServicePath(url: string, api: Manifest['api'] = PRESET_API): boolean {
  const route = parseRequest(url, api);
  return !('status' in route && route.status === 404);
}

/**
 * Whether `url` names a file of the tree, as the harness looks it up (filePathOf): unlike
 * host-checks' isStaticTreeFile (nginx, http.server), no `//` merging, and a folder's index.html.
 */
function isTreeFile(root: string, url: string): boolean {
  const path = filePathOf(url);
  if (path === undefined || /\/\//.test(path)) return false;
  let file = join(root, path);
  if (path.endsWith('/')) file = join(file, 'index.html');
  else if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  return existsSync(file) && statSync(file).isFile();
}

/** Whether a request path (as sent) falls under config.path, read as Netlify globs (`*`: the rest of the path). */
const underServiceGlobs = (path: string, api: Manifest['api'] = PRESET_API) =>
  servicePaths(api).some((glob) => (glob.endsWith('/*') ? path.startsWith(glob.slice(0, -1)) : path === glob));

/** Who answers `url` on Netlify with the function: the function, the file it asked for, or the CDN without it. */
function whoAnswers(root: string, url: string): string {
  const path = url.replace(/[?#].*$/s, '');
  if (!underServiceGlobs(path)) return 'static';
  return adapterRouteOf(url, PRESET_API) === 'file' && isTreeFile(root, url) ? 'function-next' : 'function';
}

/** A check that says what went wrong instead of throwing, for the burst. */
function mismatch(root: string, url: string, actual: HostAnswer, expected: RefResponse): string | undefined {
  try {
    expectNetlify(root, url, actual, expected);
    return undefined;
  } catch (err) {
    return `${url}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
  }
}

/**
 * What Netlify with the edge function answers: a service path as the
 * reference does; anything else is the tree's file or, where there is none,
 * a 404 (the reference agrees it is not found): the client's JSON 404 on the
 * function's paths, 404.html elsewhere. With `declared` (the tree's
 * lookup.json api), the paths are those lists' and `expected` is the generic
 * reference's, key order included.
 */
function expectNetlify(
  root: string,
  url: string,
  actual: HostAnswer,
  expected: RefResponse,
  declared?: Manifest['api'],
) {
  if (!isServicePath(url, declared) && isTreeFile(root, url))
    return expect({ url, status: actual.status }).toEqual({ url, status: 200 });
  if (isServicePath(url, declared) || underServiceGlobs(url.replace(/[?#].*$/s, ''), declared)) {
    (declared ? expectLikeDeclared : expectLikeReference)(url, actual, expected);
    return expect(actual.headers.get('content-type'), url).toBe(JSON_TYPE);
  }
  expect({ url, reference: expected.status }).toEqual({ url, reference: 404 });
  expect({ url, status: actual.status, text: actual.text }).toEqual({
    url,
    status: 404,
    text: readFileSync(join(root, '404.html'), 'utf8'),
  });
}

const TABLE: [string, string][] = [
  ...PARAMETER_URLS,
  ['/author.json?Term=m%C3%BCller', 'a Term in UTF-8'],
  ['/author.json?Term=MULLER', 'a Term without its diacritics, in capitals'],
  ['/author.json?term=strasse', 'ß folds to ss'],
  ['/author.json?Term=%C3%A6r%C3%B8', 'æ and ø in the Term'],
  ['/author.json?Term=aer', 'æ folds to ae'],
  ['/author.json?Term=lukas', 'Ł folds to l'],
  ['/author.json?Term=%E6%9D%B1%E4%BA%AC', 'a CJK Term'],
  ['/author.json?Term=fin', 'a ligature folds (NFKD)'],
  ['/author.json?Term=%EF%BD%8D%EF%BD%81%EF%BD%92%EF%BD%99', 'fullwidth letters fold (NFKD)'],
  ['/author.json?Term=ann&Page=2', 'a Term, page 2'],
  ['/author.json?Term=ann&Page=9', 'a Term past its last page'],
  ['/author.json?Term=m%C3%BCller&System=gbif', 'a Term with a System: counts'],
  ['/author.json?Term=+jan+', 'a Term with plus-spaces around it'],
  ['/author.json?Term=zzzz', 'a Term matching nothing'],
  ['/author.json?Term=', 'an empty Term: page 1'],
  ['/author.json?Term=%25', 'a Term of punctuation only'],
  ['/author.json?page=3', 'a page by select2 casing'],
  ['/author.json?PAGE=03', 'any casing of the name, leading zeros'],
  ['/author.json?Page=5', 'a page past the end'],
  ['/author.json?Id=101', 'an Id'],
  ['/author.json?Id=0101&System=gbif', 'a zero-padded Id with a System'],
  ['/author.json?Id=999', 'an unknown Id: no items'],
  ['/division.json?Term=fern', 'a Term over categories'],
  ['/division.json?Id=10&child=true', 'a category with its division'],
  ['/division.json?Id=20&child=1&System=col-2', 'a category with its division and counts'],
  ['/division.json?Id=1', 'a division by Id'],
  ['/division.json?Id=99&child=true', 'an unknown category: no items'],
  ['/descriptor.json?id=3', 'a descriptor by id'],
  ['/descriptor.json?Term=descriptor%203', 'a descriptor Term'],
  ['/country.json', 'the countries'],
  ['/country.json?Term=c%C3%B4te', 'a country Term with a diacritic'],
  ['/country.json?Term=cote', 'a country Term without it'],
  ['/country/840.json', 'a country'],
  ['/country/0840.json', 'a zero-padded country id'],
  ['/country/840/state.json?term=ca', 'a state Term'],
  ['/country/840/state.json?Term=rico&Page=2', 'Page ignored on states'],
  ['/country/0840/state/006/county/06037.json', 'zero-padded path ids'],
  ['/country/840/state/06/county/06037.json', 'a county by zero-padded ids'],
  ['/country/840/state/6/county.json', 'the county grid'],
  ['/country/124/state.json', 'a country without states: an empty list'],
  ['/country/999.json', 'an unknown country: 404'],
  ['/country/999/state.json?Term=x', 'states of an unknown country: 404 before Term'],
  ['/country/840/state/7.json', 'an unknown state: 404'],
  ['/country/124/state/6.json', 'a state under the wrong country: 404'],
  ['/country/840/state/6/county/1.json', 'an unknown county: 404'],
  ['/country/abc.json', "a non-numeric country: not a service path nor a file, the client's JSON 404"],
  ['/country/840/states.json', "a misspelt path under country/: the client's JSON 404"],
  [
    '/country/840%2Fstate.json',
    "an escaped / names nothing: the client's 404, though country/840/state.json is a file",
  ],
  ['/country/%zz.json', "a malformed escape names nothing: the client's 404"],
  ['/country/840/state/6/county%2Ejson', "an escaped .json is no service path but the file's name"],
  ['/country', 'the country folder without .json: the 404 page'],
  ['/authors.json?Term=x', 'an unknown list: the 404 page'],
  ['/Author.json', 'paths match case-sensitively: the 404 page'],
  ['/author.json/', 'a trailing slash: the 404 page'],
  ['//author.json', 'a doubled slash: the 404 page'],
  ['/', 'the root, which has no index.html: the 404 page'],
  ['/author/page/2.json', 'a page file: the file'],
  ['/lookup.json?Term=x', 'the manifest, query ignored: the file'],
];

describe('the Netlify edge function in Deno', () => {
  const root = tempDir('reflist-netlify-');
  const tree = join(root, 'fixed');
  let netlify: Running;
  let config: { path: string[]; excludedPath?: unknown; header?: Record<string, unknown> };
  beforeAll(async () => {
    await buildFrom(toCsvFiles(HOST_FIXTURE), tree, 30);
    ({ config } = await import(pathToFileURL(join(tree, '_netlify/reflist.js')).href));
    netlify = await startNetlifyDeno(tree);
  });
  afterAll(() => netlify?.stop());

  test.each(TABLE)('%s answers like the reference or the static host (%s)', async (url) => {
    expectNetlify(tree, url, await fetchAnswer(netlify.url, url), referenceRequest(HOST_FIXTURE, 30, url));
  });

  test('the table reaches the function for service paths and the files for the rest', async () => {
    const by = await Promise.all(
      TABLE.map(async ([url]) => [url, servedBy(await fetchAnswer(netlify.url, url))] as const),
    );
    for (const [url, who] of by) expect({ url, who }).toEqual({ url, who: whoAnswers(tree, url) });
  });

  test('a raw UTF-8 query or path answers what its percent-encoded form answers', async () => {
    for (const [raw, encoded] of [
      ['/author.json?Term=müller', '/author.json?Term=m%C3%BCller'],
      ['/country.json?Term=côte', '/country.json?Term=c%C3%B4te'],
      ['/country/é.json', '/country/%C3%A9.json'],
    ]) {
      const [got, percentEncoded] = await Promise.all([
        fetchRaw(netlify.url, raw!),
        fetchAnswer(netlify.url, encoded!),
      ]);
      expectNetlify(tree, encoded!, got, referenceRequest(HOST_FIXTURE, 30, encoded!));
      expect({ raw, text: got.text }).toEqual({ raw, text: percentEncoded.text });
    }
  });

  test('plain files of the tree are served as files, without the function', async () => {
    for (const file of ['author/page/2.json', 'author/system/gbif/page/1.json', 'lookup.json', 'lookup-client.js']) {
      const got = await fetchAnswer(netlify.url, '/' + file);
      expect({ file, status: got.status, by: servedBy(got) }).toEqual({ file, status: 200, by: 'static' });
      expect(got.text).toBe(readFileSync(join(tree, file), 'utf8'));
      expect(got.headers.get('content-type')).toMatch(
        file.endsWith('.json') ? /^application\/json/ : /^application\/javascript/,
      );
    }
  });

  test('the function lets its own reads through to the files, so a service path it reads gives the raw file and nothing loops', async () => {
    for (const file of [
      'country.json',
      'country/840.json',
      'country/840/state.json',
      'country/840/state/6/county.json',
    ]) {
      const got = await fetchAnswer(netlify.url, `/${file}?Term=zzzz`, { headers: OWN_READ });
      // A `header: { 'x-reflist-read': false }` in config would spare the invocation: then the files answer alone.
      const by = config.header?.['x-reflist-read'] === false ? 'static' : 'function-passthrough';
      expect({ file, status: got.status, by: servedBy(got) }).toEqual({ file, status: 200, by });
      expect(got.text).toBe(readFileSync(join(tree, file), 'utf8'));
    }
    // The same paths without the header are answered by the function, which reads them over HTTP itself.
    const filtered = await fetchAnswer(netlify.url, '/country.json?Term=zzzz', { signal: AbortSignal.timeout(10_000) });
    expect({ status: filtered.status, body: filtered.body, by: servedBy(filtered) }).toEqual({
      ...referenceRequest(HOST_FIXTURE, 30, '/country.json?Term=zzzz'),
      by: 'function',
    });
    expect(filtered.body).toEqual({ total: 0, items: [] });
  });

  test('every file of the tree reads back whole through the harness, as the function reads it', async () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push(relative(tree, path));
      }
    };
    walk(tree);
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const res = await fetch(netlify.url + file.split('/').map(encodeURIComponent).join('/'), { headers: OWN_READ });
      expect({ file, status: res.status }).toEqual({ file, status: 200 });
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(tree, file))), file).toBe(true);
    }
  });

  test('answers JSON with CORS and a short Cache-Control, errors included; HEAD gives the headers alone; POST is a 405', async () => {
    for (const url of [
      '/author.json?Term=m%C3%BCller',
      '/author.json?Page=x',
      '/country/999.json',
      '/division.json?Id=10&child=true',
    ]) {
      const got = await fetchAnswer(netlify.url, url);
      expect({
        url,
        type: got.headers.get('content-type'),
        cors: got.headers.get('access-control-allow-origin'),
      }).toEqual({
        url,
        type: JSON_TYPE,
        cors: '*',
      });
      expect(got.headers.get('cache-control'), url).toMatch(/max-age=\d+/);
    }
    const head = await fetch(netlify.url + 'author.json?Term=ann', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(JSON_TYPE);
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const got = await fetchAnswer(netlify.url, '/author.json?Term=ann', {
        method,
        body: method === 'DELETE' ? undefined : 'x',
      });
      expect({ method, status: got.status, allow: got.headers.get('allow'), by: servedBy(got) }).toEqual({
        method,
        status: 405,
        allow: 'GET, HEAD',
        by: 'function',
      });
      expect(typeof (got.body as { error?: unknown }).error).toBe('string');
      expect(got.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  test("config.path is exactly the service paths the client answers, and URLPattern routes by it as host.ts's globs say", async () => {
    expect(config.path).toEqual(servicePaths(PRESET_API));
    expect(config.excludedPath).toBeUndefined();
    // Every service path of random requests, every file of the tree and paths near them: the function
    // sees exactly the paths under the globs, answers the service paths, and lets the rest through.
    const requests = fc.sample(arbRequest(HOST_FIXTURE, 30), { numRuns: 300, seed: 7 });
    const near = [
      '/author.json',
      '/author.jsonx',
      '/xauthor.json',
      '/country.json',
      '/country.jsonp',
      '/country/',
      '/country/x',
      '/countryx/1.json',
      '/division.json',
      '/descriptor.json',
      '/descriptor/page/1.json',
      '/division/page/1.json',
      '/404.html',
      '/_headers',
      '/_netlify/reflist.js',
    ];
    const paths = new Set([...requests.map((u) => u.replace(/\?.*$/s, '')), ...near]);
    expect([...paths].filter((path) => isServicePath(path)).length).toBeGreaterThan(30);
    for (const path of paths) {
      const who = servedBy(await fetchAnswer(netlify.url, path));
      expect({ path, who }).toEqual({ path, who: whoAnswers(tree, path) });
      if (isServicePath(path)) expect(underServiceGlobs(path), path).toBe(true);
    }
  });

  test('a burst of 300 concurrent requests, three rounds from a cold start, answers every one like the reference', async () => {
    const fresh = await startNetlifyDeno(tree);
    try {
      const urls = [
        ...TABLE.map(([url]) => url),
        ...fc.sample(arbRequest(HOST_FIXTURE, 30), { numRuns: 300 - TABLE.length, seed: 42 }),
      ];
      expect(urls).toHaveLength(300);
      const expected = urls.map((url) => referenceRequest(HOST_FIXTURE, 30, url));
      for (let round = 0; round < 3; round++) {
        const results = await Promise.allSettled(urls.map((url) => fetchAnswer(fresh.url, url)));
        const failures = results.flatMap((r, i) =>
          r.status === 'rejected'
            ? [`${urls[i]}: ${String(r.reason)}`]
            : [mismatch(tree, urls[i]!, r.value, expected[i]!)].filter((m) => m !== undefined),
        );
        expect({ round, failures }).toEqual({ round, failures: [] });
      }
    } finally {
      await fresh.stop();
    }
  });

  test('the function in Deno agrees with the reference on random sources and requests', async () => {
    await assertHostOnRandomCases({
      root,
      start: startNetlifyDeno,
      check: async (server, { src, pageSize, urls }, tree) => {
        // All at once: the function's reads in flight and settled both get their turn.
        const got = await Promise.all(urls.map((url) => fetchAnswer(server.url, url)));
        urls.forEach((url, i) => expectNetlify(tree, url, got[i]!, referenceRequest(src, pageSize, url)));
      },
    });
  }, 300_000);

  test('over random declarations, the function in Deno answers like the generic reference', async () => {
    await assertHostOnDeclaredCases({
      root,
      start: startNetlifyDeno,
      check: async (server, urls, { tree, api, reference }) => {
        const got = await Promise.all(urls.map((url) => fetchRaw(server.url, url)));
        urls.forEach((url, i) => expectNetlify(tree, url, got[i]!, reference(url), api));
      },
    });
  }, 300_000);
});
