// The widget-neutral source (src/client/source.ts): the options of a saved
// form's values, read by id bucket, each the option an Id lookup makes; a
// cascade's level under the ids chosen above it; the item's declared fields
// on every option, and the keys each widget reads of an option kept from them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { optionForId, select2Ajax } from '../../src/widgets/select2.js';
import { toChoice } from '../../src/widgets/choices.js';
import { loadOptions } from '../../src/widgets/react-select.js';
import { tomSelectSettings } from '../../src/widgets/tom-select.js';
import { childOptions, optionsForValues, optionsPage, type Client } from '../../src/client/source.js';
import type { Envelope, Manifest } from '../../src/client/types.js';
import { arbSources, toCsvFiles } from '../arbitraries.js';
import { CITY_FILES } from '../fixtures/cities.js';
import { buildFrom, startServe, tempDir, treeClient, type Running } from '../helpers.js';
import { fold, referenceRequest, tierOf } from '../reference.js';

const root = tempDir();
let server: Running;
beforeAll(async () => {
  server = await startServe(root);
});
afterAll(() => server.stop());

const arbCase = arbSources().chain((src) => {
  const ids = (xs: { id: number }[]) =>
    xs.length > 0 ? fc.constantFrom(...xs.map((x) => String(x.id))) : fc.constant('1');
  return fc.record({
    src: fc.constant(src),
    authors: fc.array(fc.oneof(ids(src.author), fc.constantFrom('0', 'x', '123456')), { maxLength: 40 }),
    divisions: fc.array(
      fc.oneof(
        ids(src.division).map((id) => `d:${id}`),
        ids(src.category).map((id) => `c:${id}`),
        fc.constantFrom('d:', 'x:1', '5', 'c:999999'),
      ),
      { maxLength: 20 },
    ),
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
      const api = ((await client.manifest()) as Manifest).api;
      for (const [list, values] of [
        ['author', authors],
        ['division', divisions],
      ] as const) {
        const spec = api.lists.find((l) => l.name === list)!;
        const expected = { options: [] as unknown[], unknown: [] as string[] };
        for (const value of values) {
          const [kind, id] =
            list === 'division' ? (/^[dc]:./.test(value) ? [value[0], value.slice(2)] : ['', '']) : ['d', value];
          const url = `/${list}.json?Id=${encodeURIComponent(id!)}${kind === 'c' ? '&child=true' : ''}${group ? `&System=${group}` : ''}`;
          const answer = kind === '' ? undefined : referenceRequest(src, 30, url);
          const option =
            answer?.status === 200
              ? optionForId(spec, answer.body as Envelope<Record<string, unknown>>, kind === 'c')
              : undefined;
          if (option) expected.options.push(option);
          else expected.unknown.push(value);
        }
        expect({ list, values, actual: await optionsForValues(client, list, values, group) }).toEqual({
          list,
          values,
          actual: expected,
        });
      }
    }),
    { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 20) },
  );
}, 300_000);

/** A Term for a list: a prefix of a label or of a later word of it, or anything. */
const arbTerm = (labels: readonly string[]) =>
  fc.oneof(
    fc.constant(''),
    ...(labels.length > 0
      ? [
          fc.tuple(fc.constantFrom(...labels), fc.nat(), fc.integer({ min: 1, max: 6 })).map(([label, at, length]) => {
            const words = label.split(' ');
            // By code points: a prefix never splits a character written as a surrogate pair (😀).
            return [...words[at % words.length]!].slice(0, length).join('');
          }),
        ]
      : []),
    fc.string({ maxLength: 3 }),
  );

const arbCascade = arbSources().chain((src) => {
  const pick = <T>(xs: readonly T[], missing: T) =>
    xs.length > 0
      ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...xs) }, fc.constant(missing))
      : fc.constant(missing);
  return pick(
    src.country.map((c) => c.id),
    999_999,
  ).chain((country) =>
    fc.record({
      src: fc.constant(src),
      country: fc.constant(country),
      state: pick(
        src.state.filter((s) => s.country_id === country).map((s) => s.id),
        999_999,
      ),
      stateTerm: arbTerm(src.state.map((s) => s.text)),
      countyTerm: arbTerm(src.county.map((c) => c.county)),
    }),
  );
});

test("a cascade level is the reference's answer under the ids chosen above: a whole list by its Term, a grid's rows by the same rule; an unknown parent is an error", async () => {
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
        expect(await stateOptions).toEqual({
          options: items.map((s) => ({ ...s, id: String(s.id), itemId: s.id, parentIds: [String(country)] })),
          more: false,
        });
      }
      const counties = referenceRequest(src, 30, `/country/${country}/state/${state}/county.json`);
      const countyOptions = childOptions(client, 'county', [String(country), String(state)], countyTerm);
      if (counties.status !== 200) return void (await expect(countyOptions).rejects.toThrow(/404/));
      const q = fold(countyTerm);
      const rows = (counties.body as { rows: { FIPS: number; county: string }[] }).rows
        .map((row, index) => ({ row, index, tier: q === '' ? 1 : tierOf(row.county, q) }))
        .filter((r) => r.tier !== 0)
        .sort((a, b) => a.tier - b.tier || a.index - b.index);
      expect(await countyOptions).toEqual({
        options: rows.map(({ row }) => ({
          ...row,
          id: String(row.FIPS),
          text: row.county,
          itemId: row.FIPS,
          parentIds: [String(country), String(state)],
        })),
        more: false,
      });
    }),
    { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 20) },
  );
}, 300_000);

describe("an option carries its item's declared fields", () => {
  /** Real cities with their population, and a list whose fields are keyed like the keys an option or a widget sets. */
  const CONFIG = {
    lists: {
      city: {
        label: '{name}, {country}',
        fields: { name: 'string', country: 'string', population: 'integer' },
        order: ['-population'],
        search: { text: 'name', exact: true },
      },
      clash: {
        source: 'city.csv',
        label: 'name',
        fields: {
          kind: { column: 'country', type: 'string' },
          itemId: { column: 'region', type: 'string' },
          disabled: { column: 'population', type: 'integer' },
          children: { column: 'ascii', type: 'string' },
          title: { column: 'ascii', type: 'string' },
          selected: { column: 'ascii', type: 'string' },
          options: { column: 'ascii', type: 'string' },
          isDisabled: { column: 'population', type: 'integer' },
        },
      },
    },
  };
  let client: Client;
  beforeAll(async () => {
    const out = join(root, 'fields');
    await buildFrom({ ...CITY_FILES, 'reflist.config.json': JSON.stringify(CONFIG) }, out, 30);
    client = await treeClient(out, { baseUrl: `${server.url}fields/` });
  });

  const sanFrancisco = {
    id: '1',
    text: 'San Francisco, US',
    itemId: 1,
    name: 'San Francisco',
    country: 'US',
    population: 808437,
  };

  test("a page of a paged list holds each city's population beside its name", async () => {
    const { options } = await optionsPage(client, 'city', 'san francisco', 1);
    expect(options[0]).toEqual(sanFrancisco);
  });

  test('saved values come back with their fields', async () => {
    expect((await optionsForValues(client, 'city', ['1'])).options).toEqual([sanFrancisco]);
  });

  test("a field keyed like a key the option sets is the option's: kind and itemId stay what reflist says", async () => {
    const [wien] = (await optionsForValues(client, 'clash', ['16'])).options;
    expect(wien).toMatchObject({
      id: '16',
      text: 'Wien',
      itemId: 16,
      disabled: 1897491,
      children: 'Vienna',
      options: 'Vienna',
    });
    expect(wien).not.toHaveProperty('kind');
  });

  test('select2 gets no field select2 reads of an option: none becomes a group, is disabled, selected or a tooltip', async () => {
    const ajax = select2Ajax(client, 'clash');
    const page = await new Promise<{ results: object[] }>((resolve, reject) =>
      ajax.transport({ data: { term: 'wien', page: 1 } }, resolve, reject),
    );
    expect(page.results).toEqual([{ id: '16', text: 'Wien', itemId: 16, options: 'Vienna', isDisabled: 1897491 }]);
  });

  test('react-select gets no field it reads of an option: none becomes a group or is disabled', async () => {
    const options = await loadOptions(client, 'clash')('wien');
    expect(options).toEqual([
      {
        id: '16',
        text: 'Wien',
        itemId: 16,
        disabled: 1897491,
        children: 'Vienna',
        title: 'Vienna',
        selected: 'Vienna',
        value: '16',
        label: 'Wien',
      },
    ]);
  });

  test("Tom Select reads an option's optgroup and disabled state under keys no field can have", () => {
    const settings = tomSelectSettings(client, 'clash');
    for (const key of [settings.optgroupField, settings.disabledField]) expect(key).toMatch(/^[^A-Za-z]/);
  });

  test("Choices.js gets the fields in customProperties only, never at a choice's own keys", async () => {
    const [city] = (await optionsForValues(client, 'city', ['1'])).options;
    expect(toChoice(city!).customProperties).toMatchObject({ population: 808437 });
    const [wien] = (await optionsForValues(client, 'clash', ['16'])).options;
    const choice = toChoice(wien!);
    expect(Object.keys(choice).sort()).toEqual(['customProperties', 'label', 'value']);
    expect(choice.customProperties).toBe(wien);
  });
});
