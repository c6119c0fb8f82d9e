import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { buildTuned } from '../../src/build.js';
import { run } from '../../src/cli.js';
import { CACHE_CONTROL, IMMUTABLE_CACHE_CONTROL, MANIFEST_CACHE_CONTROL } from '../../src/client/host.js';
import { encodeRequestHead } from '../../src/commands/request-lines.js';
import { createCompatServer, listen } from '../../src/commands/serve.js';
import { acceptedCodings, cacheControlOf, chooseCoding, unmodifiedSince } from '../../src/commands/serve-files.js';
import { VALID } from '../fixtures/valid.js';
import { buildFrom, tempDir, treeClient, writeSources } from '../helpers.js';
import { exchangeBytes } from '../host-checks.js';

const root = tempDir();
const dir = join(root, 'dist');
let server: Server;
let base: string;

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
  body: string;
}

/**
 * A raw request: fetch would normalise `..` away before it ever left, and
 * sends its own Accept-Encoding and inflates what comes.
 */
function raw(path: string, method = 'GET', headers: Record<string, string> = {}, to = server): Promise<RawAnswer> {
  const { port } = to.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, bytes, body: bytes.toString() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A compat server over `out` on a free port, closed after the file's tests. */
async function serverOver(out: string): Promise<Server> {
  const started = createCompatServer({ dir: out });
  await listen(started, 0, '127.0.0.1');
  servers.push(started);
  return started;
}
const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

/** What lookup-client.js answers for `url` over the tree. */
async function clientAnswer(url: string) {
  const client = await treeClient(dir, { baseUrl: base + '/' });
  return client.request(url);
}

beforeAll(async () => {
  await buildFrom(VALID, dir, 2);
  writeFileSync(join(root, 'secret.txt'), 'outside the tree');
  symlinkSync(join(root, 'secret.txt'), join(dir, 'link.txt'));
  mkdirSync(join(dir, 'demo'));
  writeFileSync(join(dir, 'demo', 'index.html'), '<h1>demo</h1>');
  // A result page file: named after its content, so kept for a year.
  mkdirSync(join(dir, 'author', 'pages', 'ab'), { recursive: true });
  writeFileSync(join(dir, 'author', 'pages', 'ab', 'cdef0123.json.gz'), gzipSync(JSON.stringify({ page: 2 })));
  server = createCompatServer({ dir });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('the compat server', () => {
  test.each([
    '/author.json?Term=smi&Page=1',
    '/author.json?page=2&system=gbif',
    '/author.json?Id=0003',
    '/division.json?Id=11&child=true&System=col',
    '/division.json?Term=bird',
    '/descriptor.json?Page=9',
    '/country.json?term=can',
    '/country/0840/state/6/county.json',
    '/country/840/state/6/county/6037.json',
    '/author.json?Page=abc',
    '/author.json?System=nope',
    '/country/999/state.json',
  ])('answers %s exactly like the client', async (url) => {
    const client = await treeClient(dir, { baseUrl: base + '/' });
    const expected = await client.request(url);
    const res = await fetch(base + url);
    expect(res.status).toBe(expected.status);
    expect(await res.json()).toEqual(expected.body);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  test('serves the tree files themselves, such as the client and a demo folder', async () => {
    const js = await fetch(base + '/lookup-client.js');
    expect(js.headers.get('content-type')).toContain('text/javascript');
    expect(await js.text()).toContain('createLookupClient');
    expect(await (await fetch(base + '/demo/')).text()).toBe('<h1>demo</h1>');
  });

  test.each(['POST', 'PUT', 'DELETE', 'OPTIONS'])('answers %s with 405 and an Allow header', async (method) => {
    const res = await raw('/author.json', method);
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe('GET, HEAD');
  });

  test('answers HEAD with headers and no body', async () => {
    const res = await raw('/author.json', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
  });

  test.each([
    '/../secret.txt',
    '/..%2fsecret.txt',
    '/..%2f..%2fetc/passwd',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/country/..%2f..%2f..%2fsecret.txt',
    '/link.txt',
    '/%00lookup.json',
  ])('never serves a byte from outside the tree: %s', async (path) => {
    const res = await raw(path);
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('outside the tree');
    expect(res.body).not.toContain('root:');
  });

  test('reads a path that starts with // as a path, not as another host', async () => {
    expect((await raw('//x/author.json?Page=2')).status).toBe(404);
    expect((await raw('//x/lookup.json')).status).toBe(404);
  });

  test.each([
    ['/%E0%A4%A', 'a truncated escape'],
    ['/country/%zz.json', 'an escape that is no hex'],
    ['/country/%E9/state.json', 'an escape that is no UTF-8'],
  ])('answers a path with a malformed escape as the client does, a JSON 404: %s (%s)', async (path) => {
    const res = await raw(path);
    expect({ status: res.status, body: JSON.parse(res.body) as unknown }).toEqual(await clientAnswer(path));
    expect(res.status).toBe(404);
  });

  test.each([
    ['/country/840%2Fstate.json', 'between an id and a list'],
    ['/country%2F840/state.json', 'between a list and an id'],
    ['/author%2Fpage%2F2.json', "in a page file's path"],
  ])(
    'answers an escaped / as the client does, a JSON 404, though the decoded path is a file: %s (%s)',
    async (path) => {
      const res = await raw(path);
      expect({ status: res.status, body: JSON.parse(res.body) as unknown }).toEqual(await clientAnswer(path));
      expect(res.status).toBe(404);
    },
  );

  test.each([
    ['/author.json?Term=müller', '/author.json?Term=m%C3%BCller'],
    ['/author.json?Term=王', '/author.json?Term=%E7%8E%8B'],
    ['/author.json?Term=ørsted&Page=1', '/author.json?Term=%C3%B8rsted&Page=1'],
    ['/country/840/state.json?Term=ß', '/country/840/state.json?Term=%C3%9F'],
    ['/country/é.json', '/country/%C3%A9.json'],
    ['/author/é/x.json', '/author/%C3%A9/x.json'],
  ])('answers a raw UTF-8 path or query (%s) as its percent-encoded form, with JSON', async (rawUrl, encoded) => {
    const res = await raw(Buffer.from(rawUrl, 'utf8').toString('latin1'));
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect({ status: res.status, body: JSON.parse(res.body) as unknown }).toEqual(await clientAnswer(encoded));
  });

  test('answers a raw UTF-8 request after the answer before it on the connection, to a client that has ended its side', async () => {
    // exchangeBytes sends the text as UTF-8, then ends its side of the connection.
    const answer = await exchangeBytes(
      base,
      'GET /author.json?Page=2 HTTP/1.1\r\nHost: x\r\n\r\nGET /author.json?Term=mü HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    expect(answer.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    const last = answer.slice(answer.lastIndexOf('\r\n\r\n') + 4);
    expect(JSON.parse(last)).toEqual((await clientAnswer('/author.json?Term=m%C3%BC')).body);
  });

  test('answers a request it cannot read at all with a JSON 400, not an empty one', async () => {
    const answer = await exchangeBytes(base, 'GET /author.json HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    expect(JSON.parse(body!)).toEqual({ error: expect.stringMatching(/^the request could not be read: /) });
  });
});

describe('the files, as a file server keeps them', () => {
  const header = (answer: RawAnswer, name: string) => answer.headers[name] as string | undefined;

  test.each(['/lookup.json', '/author/page/1.json', '/lookup-client.js'])(
    'answers %s with 304 to the ETag it gave, with its CORS and Cache-Control',
    async (path) => {
      const first = await raw(path);
      const etag = header(first, 'etag');
      expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
      const again = await raw(path, 'GET', { 'if-none-match': etag! });
      expect({ status: again.status, body: again.body }).toEqual({ status: 304, body: '' });
      expect(header(again, 'access-control-allow-origin')).toBe('*');
      expect(header(again, 'cache-control')).toBe(header(first, 'cache-control'));
    },
  );

  test('answers an ETag the file no longer has with the file', async () => {
    const answer = await raw('/lookup.json', 'GET', { 'if-none-match': '"an-older-build"' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual(JSON.parse(readFileSync(join(dir, 'lookup.json'), 'utf8')));
  });

  test('answers 304 to If-Modified-Since its Last-Modified, and the file to a date before it', async () => {
    const first = await raw('/author/page/1.json');
    const modified = header(first, 'last-modified')!;
    expect(Date.parse(modified)).not.toBeNaN();
    expect((await raw('/author/page/1.json', 'GET', { 'if-modified-since': modified })).status).toBe(304);
    const before = new Date(Date.parse(modified) - 1000).toUTCString();
    const older = await raw('/author/page/1.json', 'GET', { 'if-modified-since': before });
    expect({ status: older.status, body: older.body }).toEqual({ status: 200, body: first.body });
  });

  test('reads If-Modified-Since only without If-None-Match, which wins', async () => {
    const modified = header(await raw('/lookup.json'), 'last-modified')!;
    const answer = await raw('/lookup.json', 'GET', { 'if-none-match': '"other"', 'if-modified-since': modified });
    expect(answer.status).toBe(200);
  });

  test.each([
    ['/lookup.json', MANIFEST_CACHE_CONTROL],
    ['/author/page/1.json', CACHE_CONTROL],
    ['/lookup-client.js', CACHE_CONTROL],
    ['/demo/', CACHE_CONTROL],
    ['/author/pages/ab/cdef0123.json.gz', IMMUTABLE_CACHE_CONTROL],
    ['/author.json?Term=smi', CACHE_CONTROL],
  ])('gives %s the Cache-Control docs/hosts.md gives its kind: %s', async (path, expected) => {
    const answer = await raw(path);
    expect(answer.status).toBe(200);
    expect(header(answer, 'cache-control')).toBe(expected);
  });

  test('sends a stored index file as the gzip bytes it is, with no Content-Encoding, whatever the client takes', async () => {
    const answer = await raw('/author/pages/ab/cdef0123.json.gz', 'GET', { 'accept-encoding': 'gzip, br' });
    expect(header(answer, 'content-type')).toBe('application/gzip');
    expect(header(answer, 'content-encoding')).toBeUndefined();
    expect(JSON.parse(gunzipSync(answer.bytes).toString())).toEqual({ page: 2 });
  });

  test('answers HEAD of a file with its headers and no body', async () => {
    const answer = await raw('/lookup-client.js', 'HEAD');
    expect(answer.status).toBe(200);
    expect(Number(header(answer, 'content-length'))).toBe(readFileSync(join(dir, 'lookup-client.js')).length);
    expect(answer.body).toBe('');
  });
});

describe("--compress's copies", () => {
  const out = join(tempDir(), 'dist');
  let compressed: Server;
  const get = (path: string, headers: Record<string, string> = {}) => raw(path, 'GET', headers, compressed);
  beforeAll(async () => {
    await buildTuned({ sources: writeSources(tempDir('reflist-src-'), VALID), out, pageSize: 2, compress: true });
    // A file of the tree's own whose copy is a link out of it.
    const outside = join(out, '..', 'outside.json');
    writeFileSync(outside, JSON.stringify({ secret: 'outside the tree'.repeat(20) }));
    writeFileSync(join(out, 'extra.json'), JSON.stringify({ mine: 'x'.repeat(300) }));
    symlinkSync(outside, join(out, 'extra.json.br'));
    compressed = await serverOver(out);
  });

  test.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['*', 'br'],
    ['gzip;q=0, br;q=0', undefined],
    ['identity', undefined],
    ['', undefined],
  ])('answers Accept-Encoding %j with the copy in %s, and Vary: Accept-Encoding', async (accept, coding) => {
    const answer = await get('/lookup.json', accept ? { 'accept-encoding': accept } : {});
    expect(answer.headers['content-encoding']).toBe(coding);
    expect(answer.headers['vary']).toBe('Accept-Encoding');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    const inflate = coding === 'br' ? brotliDecompressSync : coding === 'gzip' ? gunzipSync : (b: Buffer) => b;
    expect(inflate(answer.bytes).toString()).toBe(readFileSync(join(out, 'lookup.json'), 'utf8'));
  });

  test('gives each coding an ETag of its own, so that a 304 never answers for another', async () => {
    const plain = await get('/lookup.json');
    const br = await get('/lookup.json', { 'accept-encoding': 'br' });
    expect(br.headers['etag']).not.toBe(plain.headers['etag']);
    const other = await get('/lookup.json', {
      'accept-encoding': 'br',
      'if-none-match': plain.headers['etag'] as string,
    });
    expect(other.status).toBe(200);
    const same = await get('/lookup.json', { 'accept-encoding': 'br', 'if-none-match': br.headers['etag'] as string });
    expect(same.status).toBe(304);
  });

  test('sends a stored index file as it is, with no Content-Encoding and no Vary: it has no copies', async () => {
    const stored = readdirSync(join(out, 'author', 'search'), { recursive: true, encoding: 'utf8' }).find((name) =>
      name.endsWith('.json.gz'),
    );
    const answer = await get(`/author/search/${stored}`, { 'accept-encoding': 'gzip, br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/gzip');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['vary']).toBeUndefined();
    expect(answer.bytes).toEqual(readFileSync(join(out, 'author', 'search', stored!)));
  });

  test('never sends a copy that is a link out of the tree: the file itself answers', async () => {
    const answer = await get('/extra.json', { 'accept-encoding': 'br' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body).not.toContain('outside the tree');
    expect(JSON.parse(answer.body)).toEqual({ mine: 'x'.repeat(300) });
  });
});

describe('a rebuild', () => {
  test('is seen at once: the swapped tree answers, and an ETag of the old file gets the new one', async () => {
    const out = join(tempDir(), 'dist');
    const sources = writeSources(tempDir('reflist-src-'), VALID);
    await buildTuned({ sources, out, pageSize: 2 });
    const rebuilt = await serverOver(out);
    const before = await raw('/author/page/1.json', 'GET', {}, rebuilt);
    expect(before.status).toBe(200);
    writeSources(sources, { 'author.csv': 'id,text\n1,"Aaron, Joan"\n2,Jones\n' });
    await buildTuned({ sources, out, pageSize: 2 });
    const after = await raw(
      '/author/page/1.json',
      'GET',
      { 'if-none-match': before.headers['etag'] as string },
      rebuilt,
    );
    expect(after.status).toBe(200);
    expect(before.body).not.toContain('Aaron, Joan');
    expect(after.body).toContain('Aaron, Joan');
    expect((await raw('/author.json?Term=joan', 'GET', {}, rebuilt)).body).toContain('Aaron, Joan');
  });
});

describe('the decisions of the file half', () => {
  test.each([
    [undefined, []],
    ['', []],
    ['gzip, deflate, br', ['br', 'gzip']],
    ['gzip;q=1.0, br;q=0.8', ['gzip', 'br']],
    ['GZIP', ['gzip']],
    ['x-gzip', ['gzip']],
    ['*;q=0.5, br;q=0', ['gzip']],
    ['br;q=0, gzip;q=0', []],
    ['identity, deflate', []],
  ])('Accept-Encoding %j takes the copies in %j, best first', (header, expected) => {
    expect(acceptedCodings(header)).toEqual(expected);
  });

  test.each([
    [['br', 'gzip'], ['gzip'], 'gzip'],
    [['br', 'gzip'], ['br', 'gzip'], 'br'],
    [[], ['br', 'gzip'], undefined],
    [['br'], [], undefined],
  ] as const)('taking %j of copies %j sends the copy in %s', (accepted, copies, expected) => {
    expect(chooseCoding(accepted, copies)).toBe(expected);
  });

  test.each([
    ['lookup.json', MANIFEST_CACHE_CONTROL],
    ['author/pages/ab/cdef.json.gz', IMMUTABLE_CACHE_CONTROL],
    ['country/~state/pages/ab/cdef.json.gz', IMMUTABLE_CACHE_CONTROL],
    ['author/search/ab/cdef.json.gz', CACHE_CONTROL],
    ['author/page/2.json', CACHE_CONTROL],
    ['division/pages/ab/cdef.json.gz', CACHE_CONTROL],
    ['lookup-client.js', CACHE_CONTROL],
  ])('%s is kept as %s', (path, expected) => {
    expect(cacheControlOf(path, ['author/pages/', 'country/~state/pages/'])).toBe(expected);
  });

  const mtime = new Date('2026-05-01T10:00:00.750Z');
  test.each([
    [undefined, false],
    ['Fri, 01 May 2026 10:00:00 GMT', true],
    ['Fri, 01 May 2026 10:00:01 GMT', true],
    ['Fri, 01 May 2026 09:59:59 GMT', false],
    ['not a date', false],
  ])('If-Modified-Since %j of a file modified within 10:00:00 answers 304: %s', (header, expected) => {
    expect(unmodifiedSince(header, mtime)).toBe(expected);
  });
});

describe('encodeRequestHead', () => {
  const head = (text: string) => Buffer.from(text, 'utf8');
  test.each([
    [
      'GET /a/é.json?q=ß HTTP/1.1\r\nHost: x\r\n\r\n',
      7,
      'GET /a/%C3%A9.json?q=%C3%9F HTTP/1.1\r\nconnection: close\r\nHost: x\r\n\r\n',
    ],
    ['GET /a b HTTP/1.0\r\n\r\n', 6, 'GET /a%20b HTTP/1.0\r\nconnection: close\r\n\r\n'],
    [
      'GET /ok HTTP/1.1\r\nHost: x\r\n\r\nHEAD /ß HTTP/1.1\r\nHost: x\r\n\r\n',
      35,
      'HEAD /%C3%9F HTTP/1.1\r\nconnection: close\r\nHost: x\r\n\r\n',
    ],
  ])('reads %j again from its request line, its target percent-encoded', (text, at, expected) => {
    expect(encodeRequestHead(head(text), at)?.toString('latin1')).toBe(expected);
  });

  test.each([
    ['Host: x\r\n\r\n', 3, 'no request line'],
    ['GET /ß HTTP/1.1\r\nHost: x\r\n', 5, 'a head not yet whole'],
    ['GET /ß', 5, 'a line not yet whole'],
  ])('gives nothing for %j (%s)', (text, at) => {
    expect(encodeRequestHead(head(text), at)).toBeUndefined();
  });
});

describe('reflist serve at start', () => {
  async function cli(args: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await run(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    return { code, stdout, stderr };
  }

  test('refuses a folder that is no tree, in one line, instead of answering 502 to every URL', async () => {
    const empty = tempDir();
    const { code, stdout, stderr } = await cli(['serve', '--dir', empty, '--port', '0']);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe(
      `--dir: no reflist tree at ${empty} (lookup.json is missing); build one with reflist build --out ${empty}\n`,
    );
  });

  test('says in one line that a port is in use, and exits 1', async () => {
    const { port } = server.address() as AddressInfo; // the suite's own server holds it
    const { code, stderr } = await cli(['serve', '--dir', dir, '--port', String(port)]);
    expect(code).toBe(1);
    expect(stderr).toBe(`--port: 127.0.0.1:${port} is in use; choose another port, or --port 0 for any free one\n`);
  });
});
