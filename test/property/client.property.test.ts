// The strongest test reflist has: random sources, built for real, served by a
// real static server, asked random requests through lookup-client.js, and
// every answer compared with the brute-force reference of docs/contract.md §1–§2.
import { afterAll, beforeAll, expect, test } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { arbCsvStyle, arbPageSize, arbRequest, arbSources } from '../arbitraries.js';
import { buildFrom, startServe, tempDir, treeClient, type Running } from '../helpers.js';
import { referenceRequest } from '../reference.js';
import { toCsvFiles } from '../arbitraries.js';

const root = tempDir();
let server: Running;
beforeAll(async () => {
  server = await startServe(root);
});
afterAll(() => server.stop());

// Tiny search files make every branch of the index happen on small sources:
// large prefixes, page files, files cut between shared prefixes.
const arbSearch = fc.record({
  leafBytes: fc.constantFrom(0, 60, 300, 6000),
  fileBytes: fc.constantFrom(0, 100, 6000),
  pagesBytes: fc.constantFrom(0, 200, 12000),
  directoryStarts: fc.constantFrom(0, 4096),
});

const arbCase = arbSources().chain((src) =>
  arbPageSize.chain((pageSize) =>
    fc.record({
      src: fc.constant(src),
      pageSize: fc.constant(pageSize),
      style: arbCsvStyle,
      search: arbSearch,
      urls: fc.array(arbRequest(src, pageSize), { minLength: 30, maxLength: 60 }),
    }),
  ),
);

let sample = 0;
test('the client over a static server answers every request exactly like the reference', async () => {
  await fc.assert(
    fc.asyncProperty(arbCase, async ({ src, pageSize, style, search, urls }) => {
      const name = `s${sample++}`;
      await buildFrom(toCsvFiles(src, style), join(root, name), pageSize, search);
      const client = await treeClient(join(root, name), { baseUrl: `${server.url}${name}/` });
      for (const url of urls) {
        const expected = referenceRequest(src, pageSize, url);
        const actual = await client.request(url);
        if (expected.status === 200) expect({ url, ...actual }).toEqual({ url, ...expected });
        else {
          expect({ url, status: actual.status }).toEqual({ url, status: expected.status });
          expect(typeof (actual.body as { error?: unknown }).error).toBe('string');
        }
      }
    }),
    { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 60) },
  );
}, 300_000);
