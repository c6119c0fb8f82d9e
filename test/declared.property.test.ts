// Random declarations (test/declarations.ts), built for real from their
// config and sources, asked random requests through lookup-client.js over a
// real static server and through the compat server, every answer compared
// with the generic brute-force reference written from docs/lists.md.
import { afterAll, beforeAll, expect, test } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { build } from '../src/build.js';
import { parseRequest } from '../src/client/request.js';
import type { Manifest } from '../src/client/types.js';
import { checkConfig } from '../src/config/declaration.js';
import { createCompatServer, listen } from '../src/serve.js';
import { arbDeclared, arbDeclaredRequest, type Declared } from './declarations.js';
import { startServe, tempDir, treeClient, writeSources, type Running } from './helpers.js';
import { createDeclaredReference, type DeclaredResponse } from './reference-declared.js';

const root = tempDir();
let server: Running;
beforeAll(async () => {
  server = await startServe(root);
});
afterAll(() => server.stop());

const RUNS = Math.max(5, Math.round(Number(process.env['PROPERTY_RUNS'] ?? 60) / 2));

const arbCase = arbDeclared().chain((declared) =>
  fc.record({ declared: fc.constant(declared), urls: fc.array(arbDeclaredRequest(declared), { minLength: 20, maxLength: 40 }) }));

/**
 * Builds a declared case into `root/name`, as a user would: the config beside
 * its sources. A declaration whose sources are all absent is refused, never
 * built empty: undefined then.
 */
async function buildDeclared(declared: Declared, name: string): Promise<string | undefined> {
  const sources = writeSources(tempDir('reflist-src-'), declared.files);
  writeFileSync(join(sources, 'reflist.config.json'), JSON.stringify(declared.config));
  const out = join(root, name);
  const building = build({ sources, out, pageSize: declared.pageSize, search: { leafBytes: 60, fileBytes: 100, pagesBytes: 200 } });
  if (Object.keys(declared.files).length > 0) return (await building, out);
  await expect(building).rejects.toThrow(/none of its sources is in/);
  return undefined;
}

/** The file of the tree a URL names once `//` are merged and a trailing `/` dropped, as static servers read it. */
function treeFile(root: string, url: string): string | undefined {
  const path = decodeURIComponent(url.replace(/[?#].*$/s, '')).replace(/\/{2,}/g, '/').replace(/\/$/, '');
  const file = join(root, path);
  return existsSync(file) && statSync(file).isFile() ? file : undefined;
}

function expectLike(url: string, actual: { status: number; body: unknown }, expected: DeclaredResponse): void {
  if (expected.status === 200) expect({ url, status: actual.status, body: actual.body }).toEqual({ url, status: 200, body: expected.body });
  else {
    expect({ url, status: actual.status }).toEqual({ url, status: expected.status });
    expect(typeof (actual.body as { error?: unknown }).error, url).toBe('string');
  }
}

let sample = 0;
test('over random declarations, the client over a static server and the compat server answer like the reference', async () => {
  await fc.assert(
    fc.asyncProperty(arbCase, async ({ declared, urls }) => {
      const name = `d${sample++}`;
      const out = await buildDeclared(declared, name);
      if (!out) return;
      const reference = createDeclaredReference(checkConfig(declared.config, 'x').declaration!, declared.files, declared.pageSize);
      const client = await treeClient(out, { baseUrl: `${server.url}${name}/` });
      const { api } = JSON.parse(readFileSync(join(out, 'lookup.json'), 'utf8')) as Manifest;
      const compat = createCompatServer({ dir: out });
      const port = await listen(compat, 0, '127.0.0.1');
      try {
        for (const url of urls) {
          const expected = reference(url);
          expectLike(url, await client.request(url), expected);
          const res = await fetch(`http://127.0.0.1:${port}${url}`);
          const actual = { status: res.status, body: await res.json() as unknown };
          // No path of a list, but a file of the tree (a page file, or a list's file asked as `//x.json`): served as it is.
          const route = parseRequest(url, api);
          const file = 'status' in route && route.status === 404 ? treeFile(out, url) : undefined;
          if (file) {
            expect({ url, ...actual }).toEqual({ url, status: 200, body: JSON.parse(readFileSync(file, 'utf8')) });
            continue;
          }
          // Key order too: the compat server sends the client's answer as JSON text.
          if (expected.status === 200) expect(JSON.stringify(actual.body), url).toBe(JSON.stringify(expected.body));
          expectLike(url, actual, expected);
        }
      } finally {
        compat.close();
      }
    }),
    // No shrinking: a case drawn with fc.gen() shrinks through thousands of draws; the failing case is printed whole.
    { numRuns: RUNS, endOnFailure: true },
  );
}, 600_000);
