// Random declarations (test/declarations.ts), built for real from their
// config and sources, asked random requests through lookup-client.js over a
// real static server and through the compat server, every answer compared
// with the generic brute-force reference written from docs/lists.md; and the
// public pages of every paged list, under every parent, as files.
import { afterAll, beforeAll, expect, test } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parseRequest } from '../../src/client/request.js';
import { createCompatServer, listen } from '../../src/commands/serve.js';
import { checkConfig } from '../../src/config/declaration.js';
import { declaredRoutes } from '../declarations.js';
import { startServe, tempDir, treeClient, type Running } from '../helpers.js';
import { arbDeclaredHostCase, buildDeclaredTree, expectLikeDeclared, fetchRaw, filePathOf } from '../host-checks.js';

const root = tempDir();
let server: Running;
beforeAll(async () => {
  server = await startServe(root);
});
afterAll(() => server.stop());

const RUNS = Math.max(5, Math.round(Number(process.env['PROPERTY_RUNS'] ?? 60) / 2));

/** The file of the tree a URL names (filePathOf) once `//` are merged and a trailing `/` dropped, as the compat server reads it. */
function treeFile(root: string, url: string): string | undefined {
  const path = filePathOf(url)
    ?.replace(/\/{2,}/g, '/')
    .replace(/\/$/, '');
  const file = path === undefined ? undefined : join(root, path);
  return file && existsSync(file) && statSync(file).isFile() ? file : undefined;
}

let sample = 0;
test('over random declarations, the client over a static server and the compat server answer like the reference', async () => {
  await fc.assert(
    fc.asyncProperty(arbDeclaredHostCase(), async ({ declared, urls }) => {
      const name = `d${sample++}`;
      const built = await buildDeclaredTree(declared, join(root, name));
      if (!built) return;
      const { tree: out, api, reference } = built;
      const client = await treeClient(out, { baseUrl: `${server.url}${name}/` });
      const compat = createCompatServer({ dir: out });
      const port = await listen(compat, 0, '127.0.0.1');
      try {
        for (const url of urls) {
          const expected = reference(url);
          expectLikeDeclared(url, await client.request(url), expected);
          const actual = await fetchRaw(`http://127.0.0.1:${port}/`, url);
          // No path of a list, but a file of the tree (a page file, or a list's file asked as `//x.json`): served as it is.
          const route = parseRequest(url, api);
          const file = 'status' in route && route.status === 404 ? treeFile(out, url) : undefined;
          if (file) {
            expect({ url, status: actual.status, body: actual.body }).toEqual({
              url,
              status: 200,
              body: JSON.parse(readFileSync(file, 'utf8')),
            });
            continue;
          }
          // Key order too, as for the client: the compat server sends the client's answer as JSON text.
          expectLikeDeclared(url, actual, expected);
        }
        // What a static host serves without the client: page n of every paged list, under each of its parents.
        for (const { list, prefix, items } of declaredRoutes(
          checkConfig(declared.config, 'x').declaration!,
          declared.files,
        )) {
          if (list.shape !== 'paged' || !list.params.page) continue;
          for (let n = 1; n <= Math.max(1, Math.ceil(items.length / declared.pageSize)); n++) {
            const { body } = reference(`${prefix}.json?${list.params.page}=${n}`);
            for (const file of [...(n === 1 ? [`${prefix}.json`] : []), `${prefix}/page/${n}.json`]) {
              const text = existsSync(join(out, file))
                ? JSON.stringify(JSON.parse(readFileSync(join(out, file), 'utf8')))
                : 'no such file';
              expect({ file, text }).toEqual({ file, text: JSON.stringify(body) });
            }
          }
        }
      } finally {
        compat.close();
      }
    }),
    // No shrinking: a case drawn with fc.gen() shrinks through thousands of draws; the failing case is printed whole.
    { numRuns: RUNS, endOnFailure: true },
  );
}, 600_000);
