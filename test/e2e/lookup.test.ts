// Many ids at once (client.lookup): a multi-select restored from a saved form
// gets its items with one file read per id bucket, each item as `Id` answers
// it, and the ids that name none reported.
import { afterAll, beforeAll, expect, test } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bucketOf } from '../../src/client/paths.js';
import type { ListInfo, Manifest } from '../../src/client/types.js';
import { arbSources, toCsvFiles } from '../arbitraries.js';
import { buildFrom, startServe, tempDir, treeClient, type Running } from '../helpers.js';
import { referenceRequest } from '../reference.js';

const root = tempDir();
let server: Running;
beforeAll(async () => {
  server = await startServe(root);
});
afterAll(() => server.stop());

const LISTS = ['author', 'division', 'descriptor'] as const;

const arbCase = arbSources({ maxAuthors: 400 }).chain((src) => {
  const arbIds = (known: number[]) =>
    fc.array(
      fc.oneof(
        { weight: 6, arbitrary: known.length > 0 ? fc.constantFrom(...known).map(String) : fc.constant('1') },
        {
          weight: 1,
          arbitrary: known.length > 0 ? fc.constantFrom(...known).map((id) => `00${id}`) : fc.constant('0'),
        },
        { weight: 1, arbitrary: fc.constantFrom('999999', '-1', 'x', '', '1.5', '9007199254740993') },
      ),
      { maxLength: 120 },
    );
  // A division's embedded categories are looked up by their own ids with `child`.
  const arbAsk = fc.constantFrom(...LISTS).chain((list) =>
    fc.boolean().chain((wantChild) => {
      const child = list === 'division' && wantChild;
      return fc.record({
        list: fc.constant(list),
        child: fc.constant(child),
        ids: arbIds((child ? src.category : src[list]).map((x) => x.id)),
        group: fc.constantFrom(undefined, ...src.system.map((s) => s.id)),
      });
    }),
  );
  return fc.record({ src: fc.constant(src), asks: fc.array(arbAsk, { minLength: 1, maxLength: 6 }) });
});

let sample = 0;
test('lookup answers each id as Id does, in the order asked, reports the rest, and reads at most one file per bucket', async () => {
  await fc.assert(
    fc.asyncProperty(arbCase, async ({ src, asks }) => {
      const name = `l${sample++}`;
      const tree = join(root, name);
      await buildFrom(toCsvFiles(src), tree, 30);
      const manifest = JSON.parse(readFileSync(join(tree, 'lookup.json'), 'utf8')) as Manifest;
      const base = `${server.url}${name}/`;
      const fetched: string[] = [];
      const client = await treeClient(tree, {
        baseUrl: base,
        cacheSize: 0,
        fetch: (url) => {
          fetched.push(url.slice(base.length));
          return fetch(url);
        },
      });
      await client.manifest();
      for (const { list, child, ids, group } of asks) {
        const before = fetched.length;
        const answer = await client.lookup(list, ids, { ...(group === undefined ? {} : { group }), child });
        const items: unknown[] = [];
        const unknown: string[] = [];
        const seen = new Set<string>();
        for (const id of new Set(ids)) {
          // An empty Id is no Id to the service (every item answers); to lookup it names none.
          const url = `/${list}.json?Id=${encodeURIComponent(id)}${child ? '&child=true' : ''}${group === undefined || list === 'descriptor' ? '' : `&System=${group}`}`;
          const body = id === '' ? {} : referenceRequest(src, 30, url).body;
          const item = (body as { items?: { id: number; children?: { id: number }[] }[] }).items?.[0];
          // One item an id: a child's is its parent carrying that child alone.
          const key = String(child ? item?.children?.[0]?.id : item?.id);
          if (!item) unknown.push(id);
          else if (!seen.has(key)) {
            seen.add(key);
            items.push(item);
          }
        }
        expect({ list, ids, answer }).toEqual({ list, ids, answer: { items, unknown } });
        const info = manifest.lists[list] as ListInfo;
        const count = child ? info.childBuckets! : info.buckets;
        const buckets = new Set(
          ids.filter((id) => /^\d+$/.test(id)).map((id) => bucketOf(id.replace(/^0+(?=\d)/, ''), count)),
        );
        expect(fetched.length - before).toBeLessThanOrEqual(buckets.size);
      }
    }),
    { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 20) },
  );
}, 300_000);

test('100 ids of a 1,000-author list cost at most the number of their buckets in requests, never one per id', async () => {
  const src = {
    ...emptySources(),
    author: Array.from({ length: 1000 }, (_, i) => ({ id: i * 3 + 1, text: `Author ${i}` })),
  };
  const tree = join(root, 'hundred');
  await buildFrom(toCsvFiles(src), tree, 30);
  const manifest = JSON.parse(readFileSync(join(tree, 'lookup.json'), 'utf8')) as Manifest;
  const base = `${server.url}hundred/`;
  const fetched: string[] = [];
  const client = await treeClient(tree, {
    baseUrl: base,
    fetch: (url) => {
      fetched.push(url.slice(base.length));
      return fetch(url);
    },
  });
  await client.manifest();
  const ids = Array.from({ length: 100 }, (_, i) => String(src.author[i * 10]!.id));
  const { items, unknown } = await client.lookup('author', [...ids, '2']);
  expect(items.map((i) => String(i['id']))).toEqual(ids);
  expect(unknown).toEqual(['2']);
  const buckets = new Set([...ids, '2'].map((id) => bucketOf(id, (manifest.lists['author'] as ListInfo).buckets)));
  expect(fetched.length - 1).toBe(buckets.size);
  expect(buckets.size).toBeLessThan(20);
});

function emptySources() {
  return {
    author: [],
    country: [],
    state: [],
    county: [],
    division: [],
    category: [],
    descriptor: [],
    system: [],
    author_count: [],
    division_count: [],
  };
}
