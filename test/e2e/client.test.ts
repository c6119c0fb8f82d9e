// The client's file loading: what counts as absent, what is cached, and what is fetched once.
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { VALID } from '../fixtures/valid.js';
import { fileAnswer } from '../../src/client/client.js';
import { buildFrom, tempDir, treeClient } from '../helpers.js';

const out = join(tempDir(), 'dist');
beforeAll(() => buildFrom(VALID, out, 1));

/** The tree's files over a fetch that records its URLs and can be told to fail. */
/** An answer of `text`, as a host's error page or app shell comes. */
const answerOf = (text: string) => fileAnswer(new TextEncoder().encode(text));

function filesFetch(fail: (path: string) => number | undefined = () => undefined) {
  const requested: string[] = [];
  const fetch = async (url: string) => {
    const path = new URL(url).pathname.replace(/^\/lookup\//, '');
    requested.push(path);
    const status = fail(path);
    if (status) return { ...answerOf('Service Unavailable'), ok: false, status };
    try {
      return fileAnswer(readFileSync(join(out, path)));
    } catch {
      return { ...answerOf('<html>app shell</html>'), ok: false, status: 404 };
    }
  };
  return { requested, fetch };
}

describe('the client', () => {
  test("in a page, takes a baseUrl relative to the page's address, as a bundled app names the tree", async () => {
    vi.stubGlobal('location', { href: 'https://example.org/forms/edit?id=3' });
    try {
      const { requested, fetch } = filesFetch();
      const urls: string[] = [];
      const client = await treeClient(out, {
        baseUrl: '/lookup/',
        fetch: (url) => {
          urls.push(url);
          return fetch(url);
        },
      });
      expect(client.baseUrl).toBe('https://example.org/lookup/');
      expect((await client.request('/author.json?Term=sm')).status).toBe(200);
      expect(urls[0]).toBe('https://example.org/lookup/lookup.json');
      expect(requested.length).toBeGreaterThan(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  test('reads lookup.json once a visit, however many files it loads after', async () => {
    const { requested, fetch } = filesFetch();
    const client = await treeClient(out, { baseUrl: 'https://example.org/lookup', fetch, cacheSize: 2 });
    for (let page = 1; page <= 4; page++) await client.request(`/author.json?Page=${page}`);
    for (const id of [1, 2, 3, 4]) await client.request(`/author.json?Id=${id}`);
    expect(requested.filter((p) => p === 'lookup.json')).toHaveLength(1);
  });

  test('answers a 503 with an error, not a false 404, and asks again next time', async () => {
    let down = true;
    const { requested, fetch } = filesFetch((path) => (down && path.startsWith('author/page/') ? 503 : undefined));
    const client = await treeClient(out, { baseUrl: 'https://example.org/lookup/', fetch });
    await expect(client.request('/author.json?Page=2')).rejects.toThrow('HTTP 503');
    down = false;
    expect((await client.request('/author.json?Page=2')).status).toBe(200);
    expect(requested.filter((p) => p === 'author/page/2.json')).toHaveLength(2); // the failure was not cached
  });

  test('shares the files it has read between requests, but never a read still under way', async () => {
    const { requested, fetch } = filesFetch();
    // The first request's read of page 2 hangs, as one can in a runtime that cancels another request's I/O.
    let first = true;
    let hangs!: () => void;
    const hung = new Promise<void>((resolve) => {
      hangs = resolve;
    });
    const hanging = async (url: string) => {
      if (first && url.endsWith('/author/page/2.json')) {
        first = false;
        hangs();
        return new Promise<never>(() => {});
      }
      return fetch(url);
    };
    const client = await treeClient(out, { baseUrl: 'https://example.org/lookup/', fetch: hanging });
    await client.manifest();
    void client.request('/author.json?Page=2');
    await hung; // the first request's read is under way
    const second = await Promise.race([
      client.request('/author.json?Page=2'),
      new Promise((r) => setTimeout(r, 2000, 'waited')),
    ]);
    expect(second).toMatchObject({ status: 200 }); // it did not wait on the first one's read
    await client.request('/author.json?Page=2');
    expect(requested.filter((p) => p === 'author/page/2.json')).toHaveLength(1); // the settled read is shared
  });

  test('throws a LookupError with a code a page can branch on, and the message it had', async () => {
    const { LookupError } = (await import(
      pathToFileURL(join(out, 'lookup-client.js')).href
    )) as typeof import('../../src/client/index.js');
    const fails = async (promise: Promise<unknown>) =>
      promise.then(
        () => expect.unreachable('no error'),
        (err: unknown) => err,
      );
    const down = await treeClient(out, {
      baseUrl: 'https://example.org/lookup/',
      fetch: filesFetch((path) => (path.startsWith('author/page/') ? 503 : undefined)).fetch,
    });
    const http = await fails(down.request('/author.json?Page=2'));
    expect(http).toBeInstanceOf(LookupError);
    expect(http).toMatchObject({
      name: 'LookupError',
      code: 'HTTP',
      status: 503,
      message: 'GET https://example.org/lookup/author/page/2.json: HTTP 503',
    });
    const client = await treeClient(out, { baseUrl: 'https://example.org/lookup/', fetch: filesFetch().fetch });
    expect(await fails(client.lookup('authr', [1]))).toMatchObject({
      code: 'UNKNOWN_LIST',
      message: 'lookup: lookup.json has no paged list "authr"',
    });
    expect(await fails(client.lookup('author', [1], { group: 'nope' }))).toMatchObject({ code: 'UNKNOWN_GROUP' });
    const empty = await treeClient(out, {
      baseUrl: 'https://example.org/nothing/',
      fetch: async () => ({ ...answerOf('gone'), ok: false, status: 404 }),
    });
    const none = await fails(empty.request('/author.json'));
    expect(none).toBeInstanceOf(LookupError);
    expect(none).toMatchObject({
      code: 'NO_TREE',
      message: 'no reflist tree at https://example.org/nothing/ (lookup.json is missing)',
    });
    // A fetch of its own that answers text() alone: pages read, the index's compressed files say what is missing.
    const textOnly = await treeClient(out, {
      baseUrl: 'https://example.org/lookup/',
      fetch: async (url: string) => {
        const { ok, status, text } = await filesFetch().fetch(url);
        return { ok, status, text } as Awaited<ReturnType<typeof fileAnswer>>;
      },
    });
    expect((await textOnly.request('/author.json?Page=2')).status).toBe(200);
    const bad = await fails(textOnly.request('/author.json?Term=smith'));
    expect(bad).toBeInstanceOf(LookupError);
    expect(bad).toMatchObject({ code: 'BAD_FETCH' });
    expect((bad as Error).message).toMatch(
      /^GET https:\/\/example\.org\/lookup\/author\/\S+\.gz: the fetch given to createLookupClient answered without arrayBuffer\(\)/,
    );
  });

  test('without a baseUrl, where the runtime gives the module no URL of its own, asks for one', async () => {
    const source = readFileSync(join(out, 'lookup-client.js'), 'utf8');
    const mod = (await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`)) as {
      createLookupClient(o?: object): unknown;
    };
    expect(() => mod.createLookupClient()).toThrow(
      expect.objectContaining({
        name: 'LookupError',
        code: 'NO_BASE_URL',
        message: expect.stringMatching(/pass baseUrl/),
      }),
    );
    expect(() => mod.createLookupClient({ baseUrl: 'https://example.org/lookup/' })).not.toThrow();
  });

  test('reads a path that starts with // as a path, never as another host', async () => {
    const { fetch } = filesFetch();
    const client = await treeClient(out, { baseUrl: 'https://example.org/lookup/', fetch });
    expect((await client.request('//x/author.json?Page=2')).status).toBe(404);
    expect((await client.request('//x/country/840.json')).status).toBe(404);
  });

  test('counts a missing file or an app-shell page as absent', async () => {
    const { fetch } = filesFetch();
    const client = await treeClient(out, { baseUrl: 'https://example.org/lookup/?v=2', fetch });
    expect(await client.request('/country/999.json')).toEqual({
      status: 404,
      body: { error: 'not found: /country/999.json' },
    });
    expect((await client.request('/country/840.json')).body).toEqual({ id: 840, text: 'United States' });
  });
});
