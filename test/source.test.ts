// The widget-neutral source (src/client/source.ts): the options of a saved
// form's values, read by id bucket, each the option an Id lookup makes.
import { afterAll, beforeAll, expect, test } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { optionForId } from '../src/client/select2.js';
import { optionsForValues } from '../src/client/source.js';
import type { Envelope, Manifest } from '../src/client/types.js';
import { arbSources, toCsvFiles } from './arbitraries.js';
import { buildFrom, startServe, tempDir, treeClient, type Running } from './helpers.js';
import { referenceRequest } from './reference.js';

const root = tempDir();
let server: Running;
beforeAll(async () => {
  server = await startServe(root);
});
afterAll(() => server.stop());

const arbCase = arbSources().chain((src) => {
  const ids = (xs: { id: number }[]) => (xs.length > 0 ? fc.constantFrom(...xs.map((x) => String(x.id))) : fc.constant('1'));
  return fc.record({
    src: fc.constant(src),
    authors: fc.array(fc.oneof(ids(src.author), fc.constantFrom('0', 'x', '123456')), { maxLength: 40 }),
    divisions: fc.array(fc.oneof(
      ids(src.division).map((id) => `d:${id}`), ids(src.category).map((id) => `c:${id}`), fc.constantFrom('d:', 'x:1', '5', 'c:999999'),
    ), { maxLength: 20 }),
    group: fc.constantFrom(undefined, ...src.system.map((s) => s.id)),
  });
});

let sample = 0;
test('the options of saved values are each the option its Id lookup makes, in the order given, and the rest are unknown', async () => {
  await fc.assert(
    fc.asyncProperty(arbCase, async ({ src, authors, divisions, group }) => {
      const name = `v${sample++}`;
      await buildFrom(toCsvFiles(src), join(root, name), 30);
      const client = await treeClient(join(root, name), { baseUrl: `${server.url}${name}/` });
      const api = (await client.manifest() as Manifest).api;
      for (const [list, values] of [['author', authors], ['division', divisions]] as const) {
        const spec = api.lists.find((l) => l.name === list)!;
        const expected = { options: [] as unknown[], unknown: [] as string[] };
        for (const value of values) {
          const [kind, id] = list === 'division' ? (/^[dc]:./.test(value) ? [value[0], value.slice(2)] : ['', '']) : ['d', value];
          const url = `/${list}.json?Id=${encodeURIComponent(id!)}${kind === 'c' ? '&child=true' : ''}${group ? `&System=${group}` : ''}`;
          const answer = kind === '' ? undefined : referenceRequest(src, 30, url);
          const option = answer?.status === 200 ? optionForId(spec, answer.body as Envelope<Record<string, unknown>>, kind === 'c') : undefined;
          if (option) expected.options.push(option);
          else expected.unknown.push(value);
        }
        expect({ list, values, actual: await optionsForValues(client, list, values, group) }).toEqual({ list, values, actual: expected });
      }
    }),
    { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 20) },
  );
}, 300_000);
