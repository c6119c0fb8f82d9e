import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { run } from '../src/cli.js';
import { createCompatServer } from '../src/commands/serve.js';
import { VALID } from './fixtures/valid.js';
import { buildFrom, tempDir, treeClient } from './helpers.js';

const root = tempDir();
const dir = join(root, 'dist');
let server: Server;
let base: string;

/** A raw request: fetch would normalise `..` away before it ever left. */
function raw(path: string, method = 'GET'): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
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

  test('answers malformed percent-encoding with a 400', async () => {
    expect((await raw('/%E0%A4%A')).status).toBe(400);
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
    expect(stderr).toBe(`--dir: no reflist tree at ${empty} (lookup.json is missing); build one with reflist build --out ${empty}\n`);
  });

  test('says in one line that a port is in use, and exits 1', async () => {
    const { port } = server.address() as AddressInfo; // the suite's own server holds it
    const { code, stderr } = await cli(['serve', '--dir', dir, '--port', String(port)]);
    expect(code).toBe(1);
    expect(stderr).toBe(`--port: 127.0.0.1:${port} is in use; choose another port, or --port 0 for any free one\n`);
  });
});
