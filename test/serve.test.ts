import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { run } from '../src/cli.js';
import { encodeRequestHead } from '../src/commands/request-lines.js';
import { createCompatServer } from '../src/commands/serve.js';
import { VALID } from './fixtures/valid.js';
import { buildFrom, tempDir, treeClient } from './helpers.js';
import { exchangeBytes } from './host-checks.js';

const root = tempDir();
const dir = join(root, 'dist');
let server: Server;
let base: string;

/** A raw request: fetch would normalise `..` away before it ever left. */
function raw(
  path: string,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

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
