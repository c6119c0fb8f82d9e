// The reference of any declaration (test/reference-declared.ts): it answers the
// lookup-service preset exactly as the reference of docs/contract.md does, it
// agrees with itself over random declarations, and it answers a hand-written
// one as docs/lists.md says.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkConfig, type Declaration, type ListSpec } from '../src/config/declaration.js';
import { LOOKUP_SERVICE_CONFIG } from '../src/config/preset.js';
import { arbCsvStyle, arbPageSize, arbRequest, arbSources, toCsvFiles } from './arbitraries.js';
import { arbDeclaredHostCase } from './host-checks.js';
import { arbDeclared, declaredRoutes, type Declared, type Route } from './declarations.js';
import {
  createDeclaredReference,
  fieldNamed,
  rankingOf,
  readRows,
  type DeclaredResponse,
} from './reference-declared.js';
import { fold, referenceRequest } from './reference.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 60);

function declarationOf(config: unknown): Declaration {
  const { declaration, errors } = checkConfig(config, 'reflist.config.json');
  expect(errors.map((e) => e.message)).toEqual([]);
  return declaration!;
}

describe('the declared reference answers the lookup-service preset as the reference of docs/contract.md does', () => {
  const preset = declarationOf(LOOKUP_SERVICE_CONFIG);
  const arbCase = fc.tuple(arbSources(), arbPageSize, arbCsvStyle).chain(([src, pageSize, style]) =>
    fc.record({
      src: fc.constant(src),
      pageSize: fc.constant(pageSize),
      style: fc.constant(style),
      urls: fc.array(arbRequest(src, pageSize), { minLength: 20, maxLength: 40 }),
    }),
  );

  test('every request gets the same status and body, keys in the same order', () => {
    fc.assert(
      fc.property(arbCase, ({ src, pageSize, style, urls }) => {
        const ask = createDeclaredReference(preset, toCsvFiles(src, style), pageSize);
        for (const url of urls) {
          const expected = referenceRequest(src, pageSize, url);
          const actual = ask(url);
          expect({ url, ...actual }).toEqual({ url, ...expected });
          expect(JSON.stringify(actual.body)).toBe(JSON.stringify(expected.body));
        }
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});

// ---------------------------------------------------------------- random declarations

type Item = Record<string, unknown>;
type Ask = (url: string) => DeclaredResponse;

function load(declared: Declared): { d: Declaration; ask: Ask; routes: Route[] } {
  const d = declarationOf(declared.config);
  return {
    d,
    ask: createDeclaredReference(d, declared.files, declared.pageSize),
    routes: declaredRoutes(d, declared.files),
  };
}

function answer(ask: Ask, url: string): unknown {
  const { status, body } = ask(url);
  expect({ url, status }).toEqual({ url, status: 200 });
  return body;
}

/** Every item a list route answers with `query`: all pages of a paged list (checking each page's total), the envelope of a whole one, the rows of a grid. */
function collect(ask: Ask, route: Route, pageSize: number, query = ''): { total: number; items: Item[] } {
  const { list, prefix } = route;
  const url = (q: string) => `${prefix}.json${q ? `?${q}` : ''}`;
  if (list.shape === 'grid') {
    const grid = answer(ask, url(query)) as { total: number; page: number; records: number; rows: Item[] };
    expect(grid).toEqual({ total: grid.rows.length > 0 ? 1 : 0, page: 1, records: grid.rows.length, rows: grid.rows });
    return { total: grid.records, items: grid.rows };
  }
  const first = answer(ask, url(query)) as { total: number; items: Item[] };
  if (list.shape === 'whole' || !list.params.page) return first;
  expect(first.items.length).toBe(Math.min(first.total, pageSize));
  const items = [...first.items];
  const pages = Math.ceil(first.total / pageSize);
  for (let page = 2; page <= pages + 1; page++) {
    const next = answer(ask, url([query, `${list.params.page}=${page}`].filter(Boolean).join('&'))) as {
      total: number;
      items: Item[];
    };
    expect({ page, total: next.total, size: next.items.length }).toEqual({
      page,
      total: first.total,
      size: page > pages ? 0 : Math.min(pageSize, first.total - items.length),
    });
    items.push(...next.items);
  }
  expect(items.length).toBe(first.total);
  return { total: first.total, items };
}

/** No tier: the text does not match. */
const NONE = 9;

/** A text's tier for folded q, read off an answer's item: 0 exact (when the list ranks exact matches first), 1 it starts with q, 2 q starts a later word. */
const textTier = (text: unknown, q: string, exact: boolean): number => {
  const f = fold(String(text));
  return exact && f === q ? 0 : f.startsWith(q) ? 1 : (' ' + f).includes(' ' + q) ? 2 : NONE;
};

/** A searched column's tier: 0 exact (when the list says so), 3 when q starts one of its words. */
const columnTier = (value: unknown, q: string, exact: boolean): number => {
  const f = fold(String(value));
  return exact && f === q ? 0 : (' ' + f).includes(' ' + q) ? 3 : NONE;
};

/** The search text of an answer's item: the list's `search.text` over the fields it carries, else its label. */
function textOf(list: ListSpec, item: Item): unknown {
  const { text } = rankingOf(list);
  return text === undefined
    ? item[list.label.key]
    : text.replace(/\{([^{}]*)\}/g, (_, name: string) => String(item[fieldNamed(list, name).key]));
}

/** Terms from a list's texts and its children's labels: a start (tier 1), a later word (tier 2), a whole text in capitals (exact). */
function termsOf(texts: readonly unknown[]): string[] {
  return [
    ...new Set(
      texts.slice(0, 8).flatMap((text) => {
        const words = fold(String(text)).split(' ');
        return [words[0]!.slice(0, 3), words[1] ?? '', String(text).toUpperCase()].filter((t) => fold(t) !== '');
      }),
    ),
  ];
}

const specOf = (d: Declaration, name: string): ListSpec => d.lists.find((l) => l.name === name)!;

describe('the declared reference agrees with itself over random declarations', () => {
  test('every random declaration is a valid config, and every random request answers 200, or 400 or 404 with an error', () => {
    fc.assert(
      fc.property(arbDeclaredHostCase({ minLength: 10, maxLength: 30 }), ({ declared, urls }) => {
        const { ask } = load(declared);
        for (const url of urls) {
          const { status, body } = ask(url);
          expect([200, 400, 404]).toContain(status);
          if (status !== 200) expect(typeof (body as { error?: unknown }).error).toBe('string');
        }
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  test('every item of a list is found at its item path and by Id, with a count under every group, and every page total is the count of the whole list', () => {
    fc.assert(
      fc.property(arbDeclared(), (declared) => {
        const { d, ask, routes } = load(declared);
        const groupIds = d.groups
          ? readRows(declared.files, d.groups.source.file, d.groups.source.delimiter).map((cell) =>
              cell(d.groups!.id).trim(),
            )
          : [];
        for (const route of routes) {
          const { list, prefix } = route;
          const { total, items } = collect(ask, route, declared.pageSize);
          expect(total).toBe(route.items.length);
          const p = list.params;
          for (const item of items) {
            const id = encodeURIComponent(String(item[list.id.key]));
            if (list.items) expect(ask(`${prefix}/${id}.json`)).toEqual({ status: 200, body: item });
            if (!p.id) continue;
            expect(ask(`${prefix}.json?${p.id}=${id}`)).toEqual({ status: 200, body: { total: 1, items: [item] } });
            // Under a group the same item gains `count`, after its own keys and before its children.
            for (const group of p.group ? groupIds : []) {
              const counted = (answer(ask, `${prefix}.json?${p.id}=${id}&${p.group}=${group}`) as { items: Item[] })
                .items[0]!;
              expect(Object.keys(counted)).toEqual([
                ...list.keys,
                'count',
                ...(list.children ? [list.children.key] : []),
              ]);
              expect({ ...counted, count: undefined }).toEqual({ ...item, count: undefined });
              expect(Number.isInteger(counted['count'])).toBe(true);
            }
            const key = list.children?.key;
            if (!key || !p.child) continue;
            for (const child of item[key] as Item[]) {
              const childId = encodeURIComponent(String(child[specOf(d, list.children!.list).id.key]));
              expect(ask(`${prefix}.json?${p.id}=${childId}&${p.child}=1`)).toEqual({
                status: 200,
                body: { total: 1, items: [{ ...item, [key]: [child] }] },
              });
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  test('without a Term, a list answers its items in its declared order: each order key in turn, then fold(label), the label, the id', () => {
    fc.assert(
      fc.property(arbDeclared(), (declared) => {
        const { ask, routes } = load(declared);
        const cmp = (a: unknown, b: unknown): number =>
          (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
        for (const route of routes) {
          const { list } = route;
          const { order } = rankingOf(list);
          const keysOf = (x: Item): unknown[] => [
            ...order.map((o) => x[o.field.key]),
            fold(String(x[list.label.key])),
            x[list.label.key],
            x[list.id.key],
          ];
          const { items } = collect(ask, route, declared.pageSize);
          for (let i = 1; i < items.length; i++) {
            const [a, b] = [keysOf(items[i - 1]!), keysOf(items[i]!)];
            const k = a.findIndex((x, j) => cmp(x, b[j]) !== 0);
            // Ids are unique among a route's items, so two items always differ by some key, and the first that differs decides.
            expect({ a, b, before: k >= 0 && cmp(a[k], b[k]) === (order[k]?.descending ? 1 : -1) }).toEqual({
              a,
              b,
              before: true,
            });
          }
        }
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  test("a Term answers the matching items of the whole list, each in its best tier (exact, the text's start, a later word, a searched column), then in list order, each with its matching children", () => {
    fc.assert(
      fc.property(arbDeclared(), (declared) => {
        const { d, ask, routes } = load(declared);
        for (const route of routes) {
          const { list } = route;
          const { total: all, items: full } = collect(ask, route, declared.pageSize);
          // Without a page parameter only page 1 can be asked, and a Term may find items past it.
          if (!list.params.term || full.length < all) continue;
          const { exact, columns } = rankingOf(list);
          const idOf = (x: Item) => x[list.id.key];
          const key = list.children?.key;
          const childLabel = key ? specOf(d, list.children!.list).label.key : '';
          const childMatches = (x: Item, q: string): Item[] =>
            key ? (x[key] as Item[]).filter((c) => textTier(c[childLabel], q, exact) !== NONE) : [];
          const tierOfItem = (x: Item, q: string) =>
            Math.min(textTier(textOf(list, x), q, exact), ...columns.map((f) => columnTier(x[f.key], q, exact)));
          const texts = full.flatMap((x) => [
            textOf(list, x),
            x[list.label.key],
            ...columns.map((f) => x[f.key]),
            ...(key ? (x[key] as Item[]).map((c) => c[childLabel]) : []),
          ]);
          for (const term of termsOf(texts)) {
            const q = fold(term);
            const { total, items } = collect(
              ask,
              route,
              declared.pageSize,
              `${list.params.term}=${encodeURIComponent(term)}`,
            );
            const ranked = items.map((item) => {
              const whole = full.find((x) => idOf(x) === idOf(item))!;
              const own = tierOfItem(item, q);
              if (!key) {
                expect(item).toEqual(whole);
                return { tier: own, index: full.indexOf(whole) };
              }
              const matching = childMatches(whole, q);
              expect(item).toEqual({ ...whole, [key]: own !== NONE ? whole[key] : matching });
              return {
                tier: Math.min(own, ...matching.map((c) => textTier(c[childLabel], q, exact))),
                index: full.indexOf(whole),
              };
            });
            const expectedIds = full
              .filter((x) => tierOfItem(x, q) !== NONE || childMatches(x, q).length > 0)
              .map(idOf);
            expect({ term, ids: items.map(idOf).sort() }).toEqual({ term, ids: expectedIds.sort() });
            expect(total).toBe(expectedIds.length);
            const sorted = [...ranked].sort((a, b) => a.tier - b.tier || a.index - b.index);
            expect({ term, ranked }).toEqual({ term, ranked: sorted });
          }
        }
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});

// ---------------------------------------------------------------- examples

/** Institutions with string country codes, and a three-level taxonomy whose genus ids repeat across families. */
const EXAMPLE = {
  groups: { source: 'collection.csv', param: 'Collection' },
  lists: {
    country: { id: { column: 'code', type: 'string', chars: 'A-Z' }, label: 'name', shape: 'whole', items: true },
    institution: {
      source: { file: 'institutions.csv', delimiter: ';' },
      id: { type: 'string', chars: 'A-Z0-9-' },
      label: '{name} ({city})',
      fields: { city: 'string', founded: { type: 'integer', min: 1000 } },
      counts: 'institution_count.csv',
    },
    countryInstitution: {
      source: { file: 'institutions.csv', delimiter: ';' },
      path: 'institution',
      id: { type: 'string', chars: 'A-Z0-9-' },
      label: '{name} ({city})',
      parent: { list: 'country', column: 'country' },
      shape: 'whole',
      items: true,
    },
    family: { shape: 'whole', items: true },
    genus: { parent: { list: 'family', column: 'family_id' }, shape: 'whole', items: true },
    species: { parent: { list: 'genus', column: ['family_id', 'genus_id'] }, shape: 'grid', items: true },
  },
};

const EXAMPLE_FILES = {
  'country.csv': 'code,name\nUS,United States\nFR,France\nDE,Germany\nGB,United Kingdom\nIT,Italy\n',
  'institutions.csv': [
    'id;name;city;founded;country',
    "MNHN;Muséum national d'histoire naturelle;Paris;1793;FR",
    'NHM-L;Natural History Museum;London;1881;GB',
    'SMNH;Smithsonian;Washington;1846;US',
    'MFN;"Museum für Naturkunde";Berlin;1810;DE',
    'FMNH;Field Museum;Chicago;1893;US',
  ].join('\r\n'),
  'collection.csv': 'id,text\nherbarium,Herbarium\ninsects,Insects\n',
  'institution_count.csv': 'group,id,count\nherbarium,MNHN,120\nherbarium,FMNH,7\ninsects,MNHN,0\n',
  'family.csv': 'id,text\n3,Felidae\n4,Canidae\n',
  'genus.csv': 'id,family_id,text\n12,3,Panthera\n13,3,Felis\n12,4,Canis\n',
  'species.csv':
    'id,family_id,genus_id,text\n1,3,12,Panthera leo\n2,3,12,Panthera tigris\n1,4,12,Canis lupus\n3,3,13,Felis catus\n',
};

describe('a hand-written declaration answers as docs/lists.md says', () => {
  const ask = createDeclaredReference(declarationOf(EXAMPLE), EXAMPLE_FILES, 2);
  const mfn = { id: 'MFN', text: 'Museum für Naturkunde (Berlin)', city: 'Berlin', founded: 1810 };
  const mnhn = { id: 'MNHN', text: "Muséum national d'histoire naturelle (Paris)", city: 'Paris', founded: 1793 };
  const fmnh = { id: 'FMNH', text: 'Field Museum (Chicago)', city: 'Chicago', founded: 1893 };
  const nhm = { id: 'NHM-L', text: 'Natural History Museum (London)', city: 'London', founded: 1881 };

  test('a Term finds labels that start with it first, then word starts, each in list order, a page at a time', () => {
    expect(ask('/institution.json?Term=mus')).toEqual({ status: 200, body: { total: 4, items: [mfn, mnhn] } });
    expect(ask('/institution.json?term=MUS&page=2')).toEqual({ status: 200, body: { total: 4, items: [fmnh, nhm] } });
    expect(ask('/institution.json?Term=mus&Page=3')).toEqual({ status: 200, body: { total: 4, items: [] } });
    expect(ask('/institution.json?Term=paris')).toEqual({ status: 200, body: { total: 1, items: [mnhn] } });
  });

  test('string ids match exactly, counts come with the group, and errors name the parameter', () => {
    expect(ask('/institution.json?Id=MNHN&Collection=herbarium')).toEqual({
      status: 200,
      body: { total: 1, items: [{ ...mnhn, count: 120 }] },
    });
    expect(ask('/institution.json?Id=SMNH&Collection=insects').body).toEqual({
      total: 1,
      items: [{ id: 'SMNH', text: 'Smithsonian (Washington)', city: 'Washington', founded: 1846, count: 0 }],
    });
    expect(ask('/institution.json?Id=NHM')).toEqual({ status: 200, body: { total: 0, items: [] } });
    expect(ask('/institution.json?Id=mnhn')).toEqual({
      status: 400,
      body: { error: 'Id: expected 1 to 64 of A-Z0-9-, got "mnhn"' },
    });
    expect(ask('/institution.json?Page=0&Id=mnhn')).toEqual({
      status: 400,
      body: { error: 'Page: expected an integer ≥ 1, got "0"' },
    });
    expect(ask('/institution.json?Collection=Herbarium')).toEqual({
      status: 404,
      body: { error: 'unknown collection "Herbarium"' },
    });
  });

  test("a list under a string-id parent, and its items, live under the parent's code", () => {
    const smithsonian = { id: 'SMNH', text: 'Smithsonian (Washington)' };
    expect(ask('/country/US/institution.json')).toEqual({
      status: 200,
      body: { total: 2, items: [{ id: 'FMNH', text: 'Field Museum (Chicago)' }, smithsonian] },
    });
    expect(ask('/country/IT/institution.json')).toEqual({ status: 200, body: { total: 0, items: [] } });
    expect(ask('/country/US/institution/SMNH.json')).toEqual({ status: 200, body: smithsonian });
    expect(ask('/country/FR.json')).toEqual({ status: 200, body: { id: 'FR', text: 'France' } });
    expect(ask('/country/us/institution.json')).toEqual({
      status: 404,
      body: { error: 'no such path /country/us/institution.json' },
    });
    expect(ask('/country/XX/institution.json')).toEqual({ status: 404, body: { error: 'unknown country XX' } });
    expect(ask('/country/FR/institution/SMNH.json')).toEqual({
      status: 404,
      body: { error: 'unknown countryInstitution SMNH of country FR' },
    });
  });

  test('family → genus → species: ids repeat under other parents, leading zeros are the same id, a grid ignores parameters', () => {
    expect(ask('/family/3/genus.json?term=fel')).toEqual({
      status: 200,
      body: { total: 1, items: [{ id: 13, text: 'Felis' }] },
    });
    expect(ask('/family/3/genus/12/species.json?Term=x&Page=x')).toEqual({
      status: 200,
      body: {
        total: 1,
        page: 1,
        records: 2,
        rows: [
          { id: 1, text: 'Panthera leo' },
          { id: 2, text: 'Panthera tigris' },
        ],
      },
    });
    expect(ask('/family/04/genus/012/species.json').body).toEqual({
      total: 1,
      page: 1,
      records: 1,
      rows: [{ id: 1, text: 'Canis lupus' }],
    });
    expect(ask('/family/3/genus/12/species/02.json')).toEqual({
      status: 200,
      body: { id: 2, text: 'Panthera tigris' },
    });
    expect(ask('/family/4/genus/13/species.json')).toEqual({
      status: 404,
      body: { error: 'unknown genus 13 of family 4' },
    });
    expect(ask('/family/3/genus/12/species/9.json')).toEqual({ status: 404, body: { error: 'unknown species 9' } });
    expect(ask('/family/3/genus/x/species.json')).toEqual({
      status: 404,
      body: { error: 'no such path /family/3/genus/x/species.json' },
    });
  });
});
