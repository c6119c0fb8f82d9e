// The select2 wiring without a browser: URLs, paging, the division flattening,
// ids, preselection and the cascade's queries (a paged level a page at a
// time), against fixture trees served by `serve`; and in Chromium,
// docs/select2.md's example followed as written from an empty folder, with no
// bundler (test/widget-site.ts), beside pages of its site that check what
// templateResult marks of what a term matched and a cascade's paged level.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DemoPage } from '../../scripts/demo-page.js';
import { build } from '../../src/build.js';
import type { LookupClient } from '../../src/client/client.js';
import {
  cascadeAjax,
  cascadeResults,
  childValue,
  flattenChildren,
  listUrl,
  parseChildValue,
  preselect,
  select2Ajax,
  templateResult,
  toSelect2Page,
  type JQuerySelect,
  type Select2Ajax,
  type Select2Page,
} from '../../src/widgets/select2.js';
import type { ApiList, Envelope, Grid } from '../../src/client/types.js';
import { PRESET_API } from '../host-checks.js';
import { placesReference, writePlaceSources } from '../fixtures/places.js';
import { VALID } from '../fixtures/valid.js';
import { buildFrom, startServe, tempDir, treeClient, type Running } from '../helpers.js';
import {
  addMarksPage,
  addPlacesPage,
  docBlock,
  docExample,
  expectMarks,
  expectPagedCascade,
  hasChromium,
  marksBody,
  poll,
  shippedReference,
  useWidgetSite,
  type Item,
} from '../widget-site.js';

/** A list of the lookup service as lookup.json states it. */
const LIST = (name: string): ApiList => PRESET_API.lists.find((l) => l.name === name)!;

let server: Running;
let client: LookupClient;
let tree: string;

beforeAll(async () => {
  tree = join(tempDir(), 'tree');
  await buildFrom(VALID, tree, 2); // 4 authors make 2 pages
  server = await startServe(tree);
  client = await treeClient(tree, { baseUrl: server.url });
});
afterAll(() => server?.stop());

/** One select2 query through the transport, as select2 makes it. */
function ask<T>(ajax: Select2Ajax<T>, params: { term?: string; page?: number } = {}): Promise<Select2Page<T>> {
  return new Promise((resolve, reject) => {
    ajax.transport({ data: ajax.data(params) }, resolve, () =>
      reject(new Error('select2 would show "could not be loaded"')),
    );
  });
}

/** A stand-in for a jQuery-wrapped select: a value, and a record of select2 calls. */
function fakeSelect(value: string | null = null) {
  const calls: unknown[][] = [];
  const select: JQuerySelect = {
    val: () => value,
    on: () => select,
    empty: () => select,
    prop: () => select,
    trigger: () => select,
    select2: (...args: unknown[]) => calls.push(args),
  };
  return { select, calls };
}

test("the tree's lookup-client.js exports the select2 wiring", async () => {
  const mod = (await import(pathToFileURL(join(tree, 'lookup-client.js')).href)) as Record<string, unknown>;
  for (const name of ['select2Ajax', 'templateResult', 'preselect', 'cascade', 'flattenChildren', 'parseChildValue']) {
    expect(typeof mod[name], name).toBe('function');
  }
});

describe('listUrl', () => {
  test.each([
    ['author', '', 1, undefined, '/author.json'],
    ['author', 'smi', 2, 'gbif', '/author.json?Term=smi&Page=2&System=gbif'],
    ['author', 'smith j', 1, undefined, '/author.json?Term=smith+j'],
    ['division', 'a&b', 1, 'col', '/division.json?Term=a%26b&System=col'],
    ['descriptor', 'col', 3, 'gbif', '/descriptor.json?Term=col&Page=3'],
  ] as const)('%s, term "%s", page %s, system %s asks %s', (list, term, page, system, url) => {
    expect(listUrl(LIST(list), term, page, system)).toBe(url);
  });
});

describe('the values of a list with children', () => {
  test('a parent and a child with the same number get different values, after the first letters of their lists', () => {
    expect(childValue(LIST('division'), 'parent', 10)).toBe('d:10');
    expect(childValue(LIST('division'), 'child', 10)).toBe('c:10');
  });

  test('lists that share a first letter are told apart by p and c', () => {
    const list: ApiList = {
      ...LIST('division'),
      name: 'class',
      children: { ...LIST('division').children!, list: 'clade' },
    };
    expect([childValue(list, 'parent', 1), childValue(list, 'child', 1)]).toEqual(['p:1', 'c:1']);
  });

  test.each([
    ['d:12', { kind: 'parent', id: '12' }],
    ['c:105', { kind: 'child', id: '105' }],
    ['12', undefined],
    ['x:1', undefined],
    ['d:', undefined],
  ])('parseChildValue("%s")', (value, expected) => {
    expect(parseChildValue(LIST('division'), value)).toEqual(expected);
  });
});

describe('flattening a list with children', () => {
  const items = [
    {
      id: 10,
      text: 'Botany',
      count: 3,
      children: [
        { id: 10, text: 'Ferns' },
        { id: 11, text: 'Mosses' },
      ],
    },
    { id: 2, text: 'Zoology' },
  ];

  test('each division is an option followed by its categories, all selectable, ids apart', () => {
    expect(flattenChildren(LIST('division'), items)).toEqual([
      { id: 'd:10', text: 'Botany', itemId: 10, count: 3, kind: 'parent' },
      { id: 'c:10', text: 'Ferns', itemId: 10, kind: 'child', parentId: 10 },
      { id: 'c:11', text: 'Mosses', itemId: 11, kind: 'child', parentId: 10 },
      { id: 'd:2', text: 'Zoology', itemId: 2, kind: 'parent' },
    ]);
  });

  test('"more" follows the divisions\' paging, not the number of flattened options', () => {
    expect(toSelect2Page(LIST('division'), { total: 2, items: items.slice(0, 1) }, 1, 1).pagination.more).toBe(true);
    expect(toSelect2Page(LIST('division'), { total: 2, items: items.slice(1) }, 2, 1).pagination.more).toBe(false);
  });

  test('no result carries `children`, which select2 would render as an unselectable group', () => {
    expect(toSelect2Page(LIST('division'), { total: 2, items }, 1, 30).results.some((r) => 'children' in r)).toBe(
      false,
    );
  });
});

describe('select2Ajax', () => {
  test('opening with no term lists page 1, and page 2 is the last', async () => {
    const ajax = select2Ajax(client, 'author');
    expect(await ask(ajax)).toEqual({
      results: [
        { id: '2', text: 'Müller, Jürgen', itemId: 2 },
        { id: '3', text: 'Ørsted, Hans\nChristian', itemId: 3 },
      ],
      pagination: { more: true },
    });
    const page2 = await ask(ajax, { term: '', page: 2 });
    expect(page2.results.map((r) => r.text)).toEqual(['Smith, John', '王 伟']);
    expect(page2.pagination.more).toBe(false);
  });

  test("a term asks the service's Term and maps its items in order", async () => {
    const page = await ask(select2Ajax(client, 'author'), { term: 'john' });
    expect(page).toEqual({ results: [{ id: '1', text: 'Smith, John', itemId: 1 }], pagination: { more: false } });
  });

  test('the System function is read at every request, so switching it changes the counts', async () => {
    let system: string | undefined = 'gbif';
    const ajax = select2Ajax(client, 'author', { group: () => system });
    expect((await ask(ajax, { term: 'smith' })).results[0]!.count).toBe(10);
    system = 'col';
    expect((await ask(ajax, { term: 'smith' })).results[0]!.count).toBe(0);
    system = undefined;
    expect((await ask(ajax, { term: 'smith' })).results[0]).not.toHaveProperty('count');
  });

  test("division results are flattened with the parent's count and no count on categories", async () => {
    const page = await ask(select2Ajax(client, 'division', { group: 'gbif' }), { term: 'birds' });
    expect(page.results).toEqual([
      { id: 'd:1', text: 'Zoology', itemId: 1, count: 7, kind: 'parent' },
      { id: 'c:11', text: 'Birds', itemId: 11, kind: 'child', parentId: 1 },
    ]);
  });

  test('descriptor ignores the System', async () => {
    const page = await ask(select2Ajax(client, 'descriptor', { group: 'nope' }));
    expect(page.results.map((r) => r.text)).toEqual(['Colour', 'Shape']);
  });

  test('an unknown System makes select2 report that results could not be loaded', async () => {
    await expect(ask(select2Ajax(client, 'author', { group: 'nope' }))).rejects.toThrow(/could not be loaded/);
  });

  test('an aborted request (the person typed on) never reaches select2', async () => {
    const ajax = select2Ajax(client, 'author');
    let called = false;
    const request = ajax.transport(
      { data: ajax.data({ term: 'smi' }) },
      () => (called = true),
      () => (called = true),
    );
    request.abort();
    await ask(ajax, { term: 'smi' }); // a later request has come back, so the aborted one has too
    expect(called).toBe(false);
  });

  test('an option a term found carries what it matched, for templateResult, off its own keys; none with highlight: false', async () => {
    const [smith] = (await ask(select2Ajax(client, 'author'), { term: 'smith j' })).results;
    // The lookup service's lists are of the phrase rule: the words the term starts, as far as it goes.
    expect(smith!['$marks']).toEqual([
      [0, 5],
      [7, 8],
    ]);
    expect(Object.keys(smith!)).toEqual(['id', 'text', 'itemId']);
    const [plain] = (await ask(select2Ajax(client, 'author', { highlight: false }), { term: 'smith j' })).results;
    expect(plain!['$marks']).toBeUndefined();
    expect((await ask(select2Ajax(client, 'author'))).results.some((o) => '$marks' in o)).toBe(false);
  });

  test('debounces 250 ms unless told otherwise', () => {
    expect(select2Ajax(client, 'author').delay).toBe(250);
    expect(select2Ajax(client, 'author', { delay: 0 }).delay).toBe(0);
  });
});

describe('templateResult', () => {
  test.each([
    [{ text: 'Smith, John' }, 'Smith, John', []],
    [{ text: 'Smith, John', count: 12 }, 'Smith, John (12)', []],
    [{ text: 'Zoology', count: 0, kind: 'parent' as const }, 'Zoology (0)', ['reflist-parent']],
    [{ text: 'Birds', kind: 'child' as const }, 'Birds', ['reflist-child']],
  ])('%o shows "%s" with classes %o', (data, text, classes) => {
    const added: string[] = [];
    const container = { classList: { add: (c: string) => added.push(c) } } as unknown as Element;
    expect(templateResult(data, container)).toBe(text);
    expect(added).toEqual(classes);
  });

  test('works without a container (select2\'s "Searching…" row has none to style)', () => {
    expect(templateResult({ text: 'Searching…' })).toBe('Searching…');
  });
});

describe('preselect', () => {
  test.each([
    ['author', 3, {}, { id: '3', text: 'Ørsted, Hans\nChristian', itemId: 3 }],
    ['author', '003', { group: 'gbif' }, { id: '3', text: 'Ørsted, Hans\nChristian', itemId: 3, count: 0 }],
    ['division', 1, {}, { id: 'd:1', text: 'Zoology', itemId: 1, kind: 'parent' }],
    ['division', 'd:2', {}, { id: 'd:2', text: 'Botany', itemId: 2, kind: 'parent' }],
    ['division', 'c:11', {}, { id: 'c:11', text: 'Birds', itemId: 11, kind: 'child', parentId: 1 }],
    ['division', 20, { child: true }, { id: 'c:20', text: 'Ferns', itemId: 20, kind: 'child', parentId: 2 }],
    ['descriptor', 2, { group: 'gbif' }, { id: '2', text: 'Shape', itemId: 2 }],
  ] as const)('%s %s %o selects %o through select2', async (list, id, options, option) => {
    const { select, calls } = fakeSelect();
    expect(await preselect(select, client, list, id, options)).toEqual(option);
    expect(calls).toEqual([['trigger', 'select', { data: option }]]);
  });

  test('an id that no item has selects nothing', async () => {
    const { select, calls } = fakeSelect();
    expect(await preselect(select, client, 'author', 99, {})).toBeUndefined();
    expect(await preselect(select, client, 'division', 'c:99', {})).toBeUndefined();
    expect(calls).toEqual([]);
  });

  test("a malformed id is the service's 400", async () => {
    await expect(preselect(fakeSelect().select, client, 'author', 'x', {})).rejects.toThrow(/400/);
  });
});

describe('a cascade of nested lists', () => {
  const grid: Grid = {
    total: 1,
    page: 1,
    records: 3,
    rows: [
      { FIPS: 6001, LongitudeCenter: -121.9, county: 'Alameda', latitudeCenter: 37.6 },
      { FIPS: 6037, LongitudeCenter: -118.2, county: 'Los Angeles', latitudeCenter: 34.3 },
      { FIPS: 6075, LongitudeCenter: -122.4, county: 'San Francisco', latitudeCenter: 37.8 },
    ],
  };

  test("an option keeps its item's keys, and the ids above it", () => {
    expect(cascadeResults(LIST('county'), grid.rows.slice(1, 2), ['840', '6'])).toEqual([
      {
        id: '6037',
        text: 'Los Angeles',
        itemId: 6037,
        FIPS: 6037,
        county: 'Los Angeles',
        latitudeCenter: 34.3,
        LongitudeCenter: -118.2,
        parentIds: ['840', '6'],
      },
    ]);
  });

  test('each level asks under what is chosen above it, and nothing while that is empty', async () => {
    const lists = ['country', 'state', 'county'];
    const empty = cascadeAjax(client, [fakeSelect().select, fakeSelect().select, fakeSelect().select], lists);
    expect((await ask(empty[0]!, { term: 'united' })).results).toEqual([
      { id: '840', text: 'United States', itemId: 840, parentIds: [] },
    ]);
    expect((await ask(empty[1]!)).results).toEqual([]);
    expect((await ask(empty[2]!)).results).toEqual([]);

    const chosen = cascadeAjax(client, [fakeSelect('840').select, fakeSelect('6').select, fakeSelect().select], lists);
    expect((await ask(chosen[1]!)).results.map((s) => s.text)).toEqual(['California', 'New York']);
    expect((await ask(chosen[1]!, { term: 'york' })).results).toEqual([
      { id: '36', text: 'New York', itemId: 36, parentIds: ['840'] },
    ]);
    // A grid takes no Term: the cascade filters its rows as the service filters a Term.
    expect((await ask(chosen[2]!, { term: 'a' })).results.map((c) => c.text)).toEqual(['Alameda', 'Los Angeles']);
    const [la] = (await ask(chosen[2]!, { term: 'los' })).results;
    expect(la).toMatchObject({ id: '6037', FIPS: 6037, latitudeCenter: 34.3207, LongitudeCenter: -118.2243 });
  });
});

describe('a cascade level of a paged list under a parent', () => {
  const sources = writePlaceSources(tempDir('reflist-places-'));
  const reference = placesReference(sources);
  let places: LookupClient;
  let running: Running;
  beforeAll(async () => {
    const out = join(tempDir(), 'places');
    await build({ sources, out });
    running = await startServe(out);
    places = await treeClient(out, { baseUrl: running.url });
  });
  afterAll(() => running?.stop());

  /** The reference's page of Malta's cities at `query`, as select2 shows it: values and texts, and whether more follow. */
  function expected(query: string, page: number) {
    const { status, body } = reference(`/country/MT/city.json?${query}`);
    expect(status).toBe(200);
    const { total, items } = body as Envelope<{ id: number; text: string }>;
    return { results: items.map((c) => [String(c.id), c.text]), more: page * 30 < total };
  }

  test("Malta's 69 cities come 30 a page as select2 scrolls, page 3 the last, and a Term pages the same way", async () => {
    const [, city] = cascadeAjax(places, [fakeSelect('MT').select, fakeSelect().select], ['country', 'city']);
    const shown = async (params: { term?: string; page?: number }) => {
      const { results, pagination } = await ask(city!, params);
      return { results: results.map((c) => [c.id, c.text]), more: pagination.more };
    };
    for (const page of [1, 2, 3]) expect(await shown({ page })).toEqual(expected(`Page=${page}`, page));
    expect(expected('Page=3', 3).results).toHaveLength(9);
    expect(await shown({ term: 'san', page: 1 })).toEqual(expected('Term=san', 1));
  });
});

describe.skipIf(!hasChromium)("docs/select2.md's example as written, unbundled, in Chromium", () => {
  const reference = shippedReference();
  const site = useWidgetSite('select2');
  const demo = () => new DemoPage(site.page);

  /** The reference's items for a service URL. */
  function items(path: string): Item[] {
    const { status, body } = reference(path);
    expect(status, path).toBe(200);
    return (body as { items: Item[] }).items;
  }

  /** What a person should see for a paged query: each item (with its count in brackets), then its children. */
  const expectedTexts = (path: string) =>
    items(path).flatMap((item) => [
      item.count === undefined ? item.text : `${item.text} (${item.count})`,
      ...(item.children ?? []).map((c) => c.text),
    ]);

  /** Opens the example, waiting until the last select is a select2 (and a saved author is shown). */
  async function visit(query = ''): Promise<void> {
    await site.page.goto(`${site.url}${query}`);
    await site.page.locator('#county + .select2').waitFor();
  }

  test("the page imports the tree's lookup-client.js and nothing else: no bundle, no bare module name", () => {
    const blocks = docExample('select2');
    expect(blocks.map((b) => b.name)).toEqual([
      'install',
      'tree',
      'vendor',
      'public/index.html',
      'public/app.js',
      'serve',
    ]);
    const script = docBlock('select2', 'public/app.js').code;
    expect([...script.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1])).toEqual([
      '/lookup/lookup-client.js',
    ]);
    expect(blocks.some((b) => /esbuild|webpack|vite|importmap/.test(b.code))).toBe(false);
  });

  test('opening authors lists their page 1, scrolling loads page 2 below it with one request, and typing "smi" shows that term\'s page 1', async () => {
    await visit();
    const page1 = expectedTexts('/author.json');
    const page2 = expectedTexts('/author.json?Page=2');
    expect(page2.length).toBeGreaterThan(0);
    await demo().open('author');
    await poll(() => demo().resultTexts('author')).toEqual(page1);
    const before = site.requests.length;
    await demo().scrollResults('author');
    await poll(() => demo().resultTexts('author')).toEqual([...page1, ...page2]);
    expect(site.requests.slice(before)).toEqual(['/lookup/author/page/2.json']);
    await demo().type('smi');
    await poll(() => demo().resultTexts('author')).toEqual(expectedTexts('/author.json?Term=smi'));
  });

  test("the saved author id in the address shows its name, as select2's selection", async () => {
    const [saved] = items('/author.json?Id=1007');
    await visit('?author=1007');
    await poll(() => demo().selection('author')).toEqual({ value: '1007', text: saved!.text });
  });

  test('divisions show their GBIF count, each followed by its categories; a division and a category are chosen by distinct values', async () => {
    await visit();
    const [aves] = items('/division.json?Term=aves&System=gbif');
    await demo().open('division');
    await demo().type('aves');
    await poll(() => demo().resultTexts('division')).toEqual(expectedTexts('/division.json?Term=aves&System=gbif'));
    await demo()
      .results('division')
      .getByRole('option', { name: `${aves!.text} (${aves!.count})`, exact: true })
      .click();
    expect(await demo().selection('division')).toMatchObject({ value: `d:${aves!.id}` });
    const category = aves!.children![0]!;
    await demo().choose('division', category.text, category.text);
    expect(await demo().selection('division')).toEqual({ value: `c:${category.id}`, text: category.text });
  });

  test("the cascade United States → California → Los Angeles gives the county's fields; another country empties state and county", async () => {
    await visit();
    expect(await site.page.locator('#state').isDisabled()).toBe(true);
    await demo().choose('country', 'united st', 'United States');
    await poll(() => site.page.locator('#state').isDisabled()).toBe(false);
    expect(await site.page.locator('#county').isDisabled()).toBe(true);
    await demo().choose('state', 'calif', 'California');
    await poll(() => site.page.locator('#county').isDisabled()).toBe(false);
    await demo().choose('county', 'los', 'Los Angeles');
    expect(await demo().selection('county')).toEqual({ value: '6037', text: 'Los Angeles' });
    expect((await demo().selectedData('county'))[0]).toMatchObject({ FIPS: 6037, parentIds: ['840', '6'] });

    await demo().choose('country', 'canad', 'Canada');
    await poll(() => demo().selection('state')).toMatchObject({ value: null });
    expect(await demo().selection('county')).toMatchObject({ value: null });
    expect(await site.page.locator('#county').isDisabled()).toBe(true);
    await demo().open('state');
    await poll(() => demo().resultTexts('state')).toEqual(expectedTexts('/country/124/state.json'));
  });

  describe('highlighting, on a page of a words-rule list', () => {
    let url: string;
    beforeAll(async () => {
      // The example's way: select2Ajax and templateResult from the tree's lookup-client.js.
      url = await addMarksPage(
        site,
        marksBody((id) => `<select id="${id}" style="width: 100%"></select>`),
        `import { createLookupClient, select2Ajax, templateResult } from '/marks/lookup/lookup-client.js';
const client = createLookupClient();
$('#marked').select2({ ajax: select2Ajax(client, 'condition'), templateResult });
$('#plain').select2({ ajax: select2Ajax(client, 'condition', { highlight: false }), templateResult });
`,
      );
    }, 60_000);

    test('what a term matched shows in <mark>, a label holding markup shows as text, and highlight: false marks nothing', async () => {
      await site.page.goto(url);
      await site.page.locator('#plain + .select2').waitFor();
      await expectMarks(site.page, {
        async search(id, term) {
          if ((await demo().results(id).count()) === 0) await demo().open(id);
          await site.page.locator('.select2-container--open .select2-search__field').fill('');
          await demo().type(term);
        },
        options: (id) => demo().results(id).locator('li.select2-results__option--selectable'),
      });
    });
  });

  describe('a cascade down to a paged level, on a page of real places', () => {
    let url: string;
    beforeAll(async () => {
      url = await addPlacesPage(
        site,
        '<select id="country" style="width: 20em"></select><select id="city" style="width: 20em"></select>',
        `import { cascade, createLookupClient } from '/places/lookup/lookup-client.js';
cascade(createLookupClient(), [$('#country'), $('#city')], ['country', 'city']);
`,
      );
    }, 60_000);

    test("a country's cities come a page at a time as the list is scrolled to its end, one request a page, and another country's replace them", async () => {
      await site.page.goto(url);
      await site.page.locator('#city + .select2').waitFor();
      await expectPagedCascade(site, {
        choose: (id, term, text) => demo().choose(id, term, text),
        open: (id) => demo().open(id),
        texts: (id) => demo().resultTexts(id),
        scroll: (id) => demo().scrollResults(id),
      });
    });
  });
});
