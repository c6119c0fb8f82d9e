// The widget-neutral source (src/client/source.ts): the options of a saved
// form's values, read by id bucket, each the option an Id lookup makes; a
// cascade's level under the ids chosen above it.
import { afterAll, beforeAll, expect, test } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { optionForId } from '../src/widgets/select2.js';
import { childOptions, optionsForValues } from '../src/client/source.js';
import type { Envelope, Manifest } from '../src/client/types.js';
import { arbSources, toCsvFiles } from './arbitraries.js';
import { buildFrom, startServe, tempDir, treeClient, type Running } from './helpers.js';
import { fold, referenceRequest, tierOf } from './reference.js';

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

/** A Term for a list: a prefix of a label or of a later word of it, or anything. */
const arbTerm = (labels: readonly string[]) => fc.oneof(
  fc.constant(''),
  ...(labels.length > 0 ? [fc.tuple(fc.constantFrom(...labels), fc.nat(), fc.integer({ min: 1, max: 6 }))
    .map(([label, at, length]) => { const words = label.split(' '); return words[at % words.length]!.slice(0, length); })] : []),
  fc.string({ maxLength: 3 }),
);

const arbCascade = arbSources().chain((src) => {
  const pick = <T>(xs: readonly T[], missing: T) => (xs.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...xs) }, fc.constant(missing)) : fc.constant(missing));
  return pick(src.country.map((c) => c.id), 999_999).chain((country) => fc.record({
    src: fc.constant(src),
    country: fc.constant(country),
    state: pick(src.state.filter((s) => s.country_id === country).map((s) => s.id), 999_999),
    stateTerm: arbTerm(src.state.map((s) => s.text)),
    countyTerm: arbTerm(src.county.map((c) => c.county)),
  }));
});

test('a cascade level is the reference\'s answer under the ids chosen above: a whole list by its Term, a grid\'s rows by the same rule; an unknown parent is an error', async () => {
  await fc.assert(
    fc.asyncProperty(arbCascade, async ({ src, country, state, stateTerm, countyTerm }) => {
      const name = `c${sample++}`;
      await buildFrom(toCsvFiles(src), join(root, name), 30);
      const client = await treeClient(join(root, name), { baseUrl: `${server.url}${name}/` });
      const states = referenceRequest(src, 30, `/country/${country}/state.json?Term=${encodeURIComponent(stateTerm)}`);
      const stateOptions = childOptions(client, 'state', [String(country)], stateTerm);
      if (states.status !== 200) await expect(stateOptions).rejects.toThrow(/404/);
      else {
        const items = (states.body as Envelope<{ id: number; text: string }>).items;
        expect(await stateOptions).toEqual(items.map((s) => ({ ...s, id: String(s.id), itemId: s.id, parentIds: [String(country)] })));
      }
      const counties = referenceRequest(src, 30, `/country/${country}/state/${state}/county.json`);
      const countyOptions = childOptions(client, 'county', [String(country), String(state)], countyTerm);
      if (counties.status !== 200) return void (await expect(countyOptions).rejects.toThrow(/404/));
      const q = fold(countyTerm);
      const rows = (counties.body as { rows: { FIPS: number; county: string }[] }).rows
        .map((row, index) => ({ row, index, tier: q === '' ? 1 : tierOf(row.county, q) }))
        .filter((r) => r.tier !== 0)
        .sort((a, b) => a.tier - b.tier || a.index - b.index);
      expect(await countyOptions).toEqual(rows.map(({ row }) => ({
        ...row, id: String(row.FIPS), text: row.county, itemId: row.FIPS, parentIds: [String(country), String(state)],
      })));
    }),
    { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 20) },
  );
}, 300_000);
