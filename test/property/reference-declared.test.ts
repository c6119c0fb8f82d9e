// The reference of any declaration (test/reference-declared.ts): it answers the
// lookup-service preset exactly as the reference of docs/contract.md does, it
// agrees with itself over random declarations, and it answers a hand-written
// one as docs/lists.md says: the words rule's tiers and typos on the docs' own
// examples (each answer worked out by hand from the docs), the phrase rule
// where a list asks for it.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkConfig, type Declaration, type ListSpec } from '../../src/config/declaration.js';
import { LOOKUP_SERVICE_CONFIG } from '../../src/config/preset.js';
import { arbCsvStyle, arbPageSize, arbRequest, arbSources, toCsvFiles } from '../arbitraries.js';
import { arbDeclaredHostCase } from '../host-checks.js';
import { arbDeclared, declaredRoutes, type Declared, type Route } from '../declarations.js';
import {
  createDeclaredReference,
  fieldNamed,
  rankingOf,
  readRows,
  typoAllowance,
  typosToStart,
  type DeclaredResponse,
} from '../reference-declared.js';
import { fold, referenceRequest } from '../reference.js';

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

/** Every word of folded q starts a word of the folded texts together. */
const everyWord = (q: string, ...texts: string[]): boolean => {
  const words = texts.join(' ').split(' ');
  return q.split(' ').every((w) => words.some((x) => x !== '' && x.startsWith(w)));
};

/**
 * A text's tier for folded q, read off an answer's item: 0 exact (when the list ranks exact matches first), 1 it
 * starts with q, 2 q starts a later word, and under the words rule 3 every word of q starts one of its words.
 */
const textTier = (text: unknown, q: string, exact: boolean, words: boolean): number => {
  const f = fold(String(text));
  if (exact && f === q) return 0;
  return f.startsWith(q) ? 1 : (' ' + f).includes(' ' + q) ? 2 : words && everyWord(q, f) ? 3 : NONE;
};

/** A searched column's tier: 0 exact (when the list says so), 4 when q starts one of its words. */
const columnTier = (value: unknown, q: string, exact: boolean): number => {
  const f = fold(String(value ?? ''));
  return exact && f === q ? 0 : (' ' + f).includes(' ' + q) ? 4 : NONE;
};

/** The typos of folded q over folded texts together: each word of q's fewest to start one of their words, summed. */
const typosOver = (q: string, ...texts: string[]): number => {
  const words = texts
    .join(' ')
    .split(' ')
    .filter((x) => x !== '');
  return q.split(' ').reduce((sum, w) => sum + Math.min(Infinity, ...words.map((x) => typosToStart(w, x))), 0);
};

/** The search text of an answer's item: the list's `search.text` over the fields it carries, else its label. */
function textOf(list: ListSpec, item: Item): unknown {
  const { text } = rankingOf(list);
  return text === undefined
    ? item[list.label.key]
    : text.replace(/\{([^{}]*)\}/g, (_, name: string) => String(item[fieldNamed(list, name).key] ?? ''));
}

/** A letter inserted, deleted or substituted, or two swapped, in the word `w` after its first letter: one typo. */
function typo(w: string, k: number): string {
  const cps = Array.from(w);
  const i = 1 + (k % Math.max(1, cps.length - 1));
  const kind = k % 4;
  if (kind === 0) cps.splice(i, 0, 'q');
  else if (kind === 1 && cps.length > 2) cps.splice(i, 1);
  else if (kind === 2 || cps.length < 3) cps[i] = cps[i] === 'x' ? 'y' : 'x';
  else if (i + 1 < cps.length) [cps[i], cps[i + 1]] = [cps[i + 1]!, cps[i]!];
  else cps[i] = 'x';
  return cps.join('');
}

/**
 * Terms from a list's texts and its children's labels: a start (tier 1), a later word (tier 2), a whole text in
 * capitals (exact); for the words rule, a text's words the other way round and cut (tier 3), a word with a typo,
 * and a word of one text with a word of the next (often no item as typed: the typo answer).
 */
function termsOf(texts: readonly unknown[]): string[] {
  const words = texts.slice(0, 8).map((text) => fold(String(text)).split(' '));
  return [
    ...new Set(
      texts.slice(0, 8).flatMap((text, i) => {
        const [w0 = '', w1 = '', ...rest] = words[i]!;
        const next = words[(i + 1) % words.length]!;
        return [
          w0.slice(0, 3),
          w1,
          String(text).toUpperCase(),
          `${w1.slice(0, 4)} ${rest.join(' ')} ${w0.slice(0, 2)}`,
          typo(w0, i),
          `${w0} ${typo(w1 || w0, i + 1)}`,
          `${w0.slice(0, 5)} ${next[next.length - 1]}`,
        ].filter((t) => fold(t) !== '');
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
        // An optional field's null comes after every value, whichever way its key sorts.
        const before = (x: unknown, y: unknown, descending = false): boolean =>
          x === null || y === null ? y === null && x !== null : cmp(x, y) === (descending ? 1 : -1);
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
            const k = a.findIndex((x, j) => x !== b[j] && (x === null || b[j] === null || cmp(x, b[j]) !== 0));
            // Ids are unique among a route's items, so two items always differ by some key, and the first that differs decides.
            expect({ a, b, before: k >= 0 && before(a[k], b[k], order[k]?.descending) }).toEqual({
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

  test("a Term answers the matching items of the whole list, each in its best tier (exact, the text's start, a later word, every word, a searched column, every word with a column's help), then in list order, each with its matching children; else those with the fewest typos", () => {
    fc.assert(
      fc.property(arbDeclared(), (declared) => {
        const { d, ask, routes } = load(declared);
        for (const route of routes) {
          const { list } = route;
          const { total: all, items: full } = collect(ask, route, declared.pageSize);
          // Without a page parameter only page 1 can be asked, and a Term may find items past it.
          if (!list.params.term || full.length < all) continue;
          const { exact, columns, phrase, typos } = rankingOf(list);
          const words = !phrase;
          const idOf = (x: Item) => x[list.id.key];
          const key = list.children?.key;
          const childLabel = key ? specOf(d, list.children!.list).label.key : '';
          const childrenOf = (x: Item): Item[] => (key ? (x[key] as Item[]) : []);
          const childTier = (c: Item, q: string) => textTier(c[childLabel], q, exact, words);
          const valuesOf = (x: Item) => columns.map((f) => fold(String(x[f.key] ?? '')));
          const tierOfItem = (x: Item, q: string) =>
            Math.min(
              textTier(textOf(list, x), q, exact, words),
              ...columns.map((f) => columnTier(x[f.key], q, exact)),
              words && everyWord(q, fold(String(textOf(list, x))), ...valuesOf(x)) ? 5 : NONE,
            );
          const texts = full.flatMap((x) => [
            textOf(list, x),
            x[list.label.key],
            ...columns.map((f) => x[f.key]),
            ...childrenOf(x).map((c) => c[childLabel]),
          ]);
          for (const term of termsOf(texts)) {
            const q = fold(term);
            const { total, items } = collect(
              ask,
              route,
              declared.pageSize,
              `${list.params.term}=${encodeURIComponent(term)}`,
            );
            const whole = (item: Item) => full.find((x) => idOf(x) === idOf(item))!;
            const asTyped = full.filter(
              (x) => tierOfItem(x, q) !== NONE || childrenOf(x).some((c) => childTier(c, q) !== NONE),
            );
            if (asTyped.length === 0) {
              // The typo answer: the fewest typos over the own texts together or one child's label, in list order.
              const count = (x: Item) => ({
                own: typosOver(q, fold(String(textOf(list, x))), ...valuesOf(x)),
                each: childrenOf(x).map((c) => typosOver(q, fold(String(c[childLabel])))),
              });
              const least = (x: Item) => Math.min(count(x).own, ...count(x).each);
              const fewest = Math.min(...full.map(least));
              const expected =
                typos && fewest < Infinity
                  ? full
                      .filter((x) => least(x) === fewest)
                      .map((x) => {
                        if (!key) return x;
                        const { own, each } = count(x);
                        return {
                          ...x,
                          [key]: own === fewest ? x[key] : childrenOf(x).filter((_, i) => each[i] === fewest),
                        };
                      })
                  : [];
              expect({ term, total, items }).toEqual({ term, total: expected.length, items: expected });
              continue;
            }
            const ranked = items.map((item) => {
              const own = tierOfItem(item, q);
              if (!key) {
                expect(item).toEqual(whole(item));
                return { tier: own, index: full.indexOf(whole(item)) };
              }
              const matching = childrenOf(whole(item)).filter((c) => childTier(c, q) !== NONE);
              expect(item).toEqual({ ...whole(item), [key]: own !== NONE ? whole(item)[key] : matching });
              return {
                tier: Math.min(own, ...matching.map((c) => childTier(c, q))),
                index: full.indexOf(whole(item)),
              };
            });
            const expectedIds = asTyped.map(idOf);
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

// ---------------------------------------------------------------- the words rule

/** An answer's status, total and ids, in order. */
function idsOf(ask: Ask, url: string): { status: number; total: number; ids: unknown[] } {
  const { status, body } = ask(url);
  const { total, items } = body as { total: number; items: Item[] };
  return { status, total, ids: items.map((x) => x['id']) };
}

const found = (...ids: unknown[]) => ({ status: 200, total: ids.length, ids });
const ok = (body: unknown) => ({ status: 200, body });

/** The city picker of docs/lists.md on a few cities, most populous first; the same list of the phrase rule beside it. */
const CITY = {
  label: '{name} ({country})',
  fields: { name: 'string', ascii: 'string', country: 'string', population: 'integer' },
  order: ['-population'],
  search: { text: 'name', columns: ['ascii'], exact: true },
};
const CITIES = {
  lists: {
    city: CITY,
    cityPhrase: { ...CITY, source: 'city.csv', search: { ...CITY.search, match: 'phrase' } },
  },
};
// List order: 8, 2, 1, 3, 9, 6, 10, 4, 5, 7.
const CITY_FILES = {
  'city.csv': [
    'id,name,ascii,country,population',
    '1,San Francisco,San Francisco,US,870000',
    '2,San Jose,San Jose,US,1000000',
    '3,San José,San Jose,CR,340000',
    '4,Puerto San José,Puerto San Jose,GT,20000',
    '5,San,San,ML,10000',
    '6,Sankt Pölten,Sankt Poelten,AT,55000',
    '7,Santa,Santa,PE,5000',
    '8,Santa Cruz de la Sierra,Santa Cruz de la Sierra,BO,1400000',
    '9,Ústí nad Labem,Usti nad Labem,CZ,90000',
    '10,Francisco Morazán,Francisco Morazan,HN,30000',
  ].join('\n'),
};

describe('the words rule: every word of the Term starts a word, in any order, the phrase first (docs/lists.md)', () => {
  const ask = createDeclaredReference(declarationOf(CITIES), CITY_FILES, 30);
  const city = (term: string) => idsOf(ask, `/city.json?Term=${encodeURIComponent(term)}`);
  const phrase = (term: string) => idsOf(ask, `/cityPhrase.json?Term=${encodeURIComponent(term)}`);

  test('the words rule is the default, and "match": "phrase" and the preset say otherwise', () => {
    expect(rankingOf(specOf(declarationOf(CITIES), 'city'))).toMatchObject({ phrase: false, typos: true });
    expect(rankingOf(specOf(declarationOf(CITIES), 'cityPhrase'))).toMatchObject({ phrase: true, typos: false });
    const preset = declarationOf(LOOKUP_SERVICE_CONFIG);
    for (const name of ['author', 'division', 'descriptor', 'country', 'state'])
      expect({ name, ...rankingOf(specOf(preset, name)) }).toMatchObject({ name, phrase: true, typos: false });
  });

  test('tier 0 the exact name, 1 names that start with the Term, 2 a later word: /city.json?Term=san as the docs answer it', () => {
    expect(city('san')).toEqual(found(5, 8, 2, 1, 3, 6, 7, 4));
    expect(phrase('san')).toEqual(found(5, 8, 2, 1, 3, 6, 7, 4));
    expect(city('san jose')).toEqual(found(2, 3, 4));
    expect(city('SANTA')).toEqual(found(7, 8));
    expect(city('us')).toEqual(found(9));
  });

  test('tier 1 before tier 2: francisco finds Francisco Morazán, then San Francisco', () => {
    expect(city('francisco')).toEqual(found(10, 1));
    expect(phrase('francisco')).toEqual(found(10, 1));
  });

  test('tier 3, the words out of order: francisco san finds San Francisco, which the phrase rule does not', () => {
    expect(city('francisco san')).toEqual(found(1));
    expect(city('jose puerto')).toEqual(found(4));
    expect(city('fran sa')).toEqual(found(1));
    expect(phrase('francisco san')).toEqual(found());
  });

  test('tier 4 the phrase in a searched column, tier 5 the words with its help', () => {
    expect(city('poelten')).toEqual(found(6));
    expect(city('poel sankt')).toEqual(found(6));
    expect(phrase('poelten')).toEqual(found(6));
    expect(phrase('poel sankt')).toEqual(found());
  });

  test('a typo is forgiven only when nothing matches as typed, and never by the phrase rule: fransisco, san fransi', () => {
    expect(city('fransisco')).toEqual(found(1, 10));
    expect(city('san fransi')).toEqual(found(1));
    // Over the own texts together: Poelton is a typo from the ASCII column's Poelten, two from Pölten.
    expect(city('sankt poelton')).toEqual(found(6));
    expect(phrase('fransisco')).toEqual(found());
    expect(phrase('san fransi')).toEqual(found());
  });

  test('a typo answer pages like any other', () => {
    const paged = createDeclaredReference(declarationOf(CITIES), CITY_FILES, 1);
    expect(idsOf(paged, '/city.json?Term=fransisco')).toEqual({ status: 200, total: 2, ids: [1] });
    expect(idsOf(paged, '/city.json?Term=fransisco&Page=2')).toEqual({ status: 200, total: 2, ids: [10] });
    expect(idsOf(paged, '/city.json?Term=fransisco&Page=3')).toEqual({ status: 200, total: 2, ids: [] });
  });
});

describe("the words rule's tiers on the docs' other examples", () => {
  const config = {
    lists: {
      // Searched by its ICD-10 code too: E10.2 folds to `e10 2`.
      condition: { label: 'name', fields: { code: 'string' }, search: { columns: ['code'] } },
      char: {
        label: 'name',
        fields: { cp: 'integer', code: 'string' },
        order: ['cp'],
        search: { columns: ['code'] },
      },
      language: {
        label: 'name',
        fields: { code: 'string', iso3: 'string' },
        search: { columns: ['code', 'iso3'], exact: true },
      },
      languageInexact: {
        source: 'language.csv',
        label: 'name',
        fields: { iso3: 'string' },
        search: { columns: ['iso3'] },
      },
      author: {},
      authorPhrase: { source: 'author.csv', search: { match: 'phrase' } },
    },
  };
  const files = {
    // List order: 6, 4, 3, 5, 1, 2.
    'condition.csv': [
      'id,name,code',
      '1,Type 1 diabetes mellitus with kidney complications,E10.2',
      '2,Type 2 diabetes mellitus,E11',
      '3,Diabetes type 2 in pregnancy,O24.1',
      '4,Diabetes insipidus,E23.2',
      '5,Pneumonia,J18.9',
      '6,Asthma,J45',
    ].join('\n'),
    'char.csv': [
      'id,name,cp,code',
      '1,LATIN SMALL LETTER E,101,U+0065',
      '2,LATIN SMALL LETTER E WITH ACUTE,233,U+00E9',
      '3,LATIN SMALL LETTER E WITH CIRCUMFLEX,234,U+00EA',
      '4,LATIN SMALL LETTER U WITH ACUTE,250,U+00FA',
      '5,LEFTWARDS ARROW,8592,U+2190',
      '6,RIGHTWARDS ARROW,8594,U+2192',
      '7,LEFT RIGHT ARROW,8596,U+2194',
      '8,LEFTWARDS DOUBLE ARROW,8656,U+21D0',
    ].join('\n'),
    // List order: 2, 3, 1.
    'language.csv': 'id,name,code,iso3\n1,German,de,deu\n2,Dehu,,dhv\n3,Deuri,,der\n',
    // List order: 2, 4, 1, 3.
    'author.csv': 'id,text\n1,"Smith, John"\n2,"Johnson, Smithy"\n3,"Smithers, Waylon"\n4,"Jones, Jo"\n',
  };
  const ask = createDeclaredReference(declarationOf(config), files, 30);
  const term = (list: string, t: string) => idsOf(ask, `/${list}.json?Term=${encodeURIComponent(t)}`);

  test('diabetes type 2: the phrase (tier 1), the words (tier 3), then the item whose code holds the 2 (tier 5)', () => {
    expect(term('condition', 'diabetes type 2')).toEqual(found(3, 2, 1));
    expect(term('condition', 'e10')).toEqual(found(1));
    expect(term('condition', 'diabetes 2')).toEqual(found(3, 2, 4, 1));
  });

  test('latin small letter e (tier 1, in code point order), e with (tier 2), right arrow (tier 2, then 3), arrow left (tier 3), acute u+00e9 (tier 5)', () => {
    expect(term('char', 'latin small letter e')).toEqual(found(1, 2, 3));
    expect(term('char', 'e with')).toEqual(found(2, 3));
    expect(term('char', 'right arrow')).toEqual(found(7, 6));
    expect(term('char', 'arrow left')).toEqual(found(5, 7, 8));
    expect(term('char', 'u+00e9')).toEqual(found(2));
    expect(term('char', 'acute u+00e9')).toEqual(found(2));
  });

  test('de and deu name German first with "exact": true; without it, deu is a code, after the names that start with it', () => {
    expect(term('language', 'de')).toEqual(found(1, 2, 3));
    expect(term('language', 'deu')).toEqual(found(1, 3));
    expect(term('languageInexact', 'deu')).toEqual(found(3, 1));
  });

  test('john smith finds "Smith, John" (and "Johnson, Smithy") by the words rule, nothing by the phrase rule or the preset', () => {
    expect(term('author', 'john smith')).toEqual(found(2, 1));
    expect(term('authorPhrase', 'john smith')).toEqual(found());
    expect(term('author', 'smith j')).toEqual(found(1, 2));
    expect(term('authorPhrase', 'smith j')).toEqual(found(1));
    const preset = createDeclaredReference(
      declarationOf(LOOKUP_SERVICE_CONFIG),
      { 'author.csv': files['author.csv'] },
      30,
    );
    expect(idsOf(preset, '/author.json?Term=john%20smith')).toEqual(found());
    expect(idsOf(preset, '/author.json?Term=smith%20j')).toEqual(found(1));
  });

  test('two words of the Term may start the same word (a reading: the docs ask only that each word start one)', () => {
    expect(term('author', 'jo jo')).toEqual(found(2, 4, 1));
    expect(term('author', 'smith smithe')).toEqual(found(3));
  });

  test('pnemonia and asthama are a typo from Pneumonia and Asthma', () => {
    expect(term('condition', 'pnemonia')).toEqual(found(5));
    expect(term('condition', 'asthama')).toEqual(found(6));
    // A code holds a digit: as typed only.
    expect(term('condition', 'e10 3')).toEqual(found());
  });
});

describe('typos (docs/lists.md, Typos)', () => {
  test('optimal string alignment to a prefix, the first letter as typed: the docs own examples', () => {
    expect(typosToStart('fransisco', 'francisco')).toBe(1);
    expect(typosToStart('pnemonia', 'pneumonia')).toBe(1);
    expect(typosToStart('asthama', 'asthma')).toBe(1);
    expect(typosToStart('fransi', 'francisco')).toBe(1);
    expect(typosToStart('fract', 'fracture')).toBe(0);
    // Two adjacent letters swapped are one typo, not two.
    expect(typosToStart('pnuemonia', 'pneumonia')).toBe(1);
    expect(typosToStart('fransisko', 'francisco')).toBe(2);
    expect(typosToStart('neumonia', 'pneumonia')).toBe(Infinity);
    expect(typosToStart('bneumonia', 'pneumonia')).toBe(Infinity);
    expect(typosToStart('bsth', 'bath')).toBe(Infinity);
    expect(typosToStart('xr2001', 'xr2000')).toBe(Infinity);
  });

  test('a word may have 1 typo from 5 code points, 2 from 9, none shorter or with a digit', () => {
    expect(
      ['bath', 'baths', 'fransisk', 'fransisko', 'xr2001', 'strasse', 'caf\u00e9s', 'x2abcdefgh'].map(typoAllowance),
    ).toEqual([0, 1, 1, 2, 0, 1, 1, 0]);
  });

  const config = {
    lists: {
      word: {},
      wordExact: { source: 'word.csv', search: { typos: false } },
      wordPhrase: { source: 'word.csv', search: { match: 'phrase' } },
    },
  };
  // List order: 1, 2, 3, 4, 5, 7, 6, 8.
  const files = {
    'word.csv': [
      'id,text',
      '1,Bath',
      '2,Baths of Caracalla',
      '3,Cartridge XR2000',
      '4,Francisco',
      '5,Franciscus',
      '6,Green Valley',
      '7,Greem Valley',
      '8,Pneumonia',
    ].join('\n'),
  };
  const ask = createDeclaredReference(declarationOf(config), files, 30);
  const word = (t: string, list = 'word') => idsOf(ask, `/${list}.json?Term=${encodeURIComponent(t)}`);

  test('a word of 4 letters never has a typo; of 5, one', () => {
    expect(word('bsth')).toEqual(found());
    expect(word('bsths')).toEqual(found(2));
  });

  test('a word with a digit never has a typo', () => {
    expect(word('xr2000')).toEqual(found(3));
    expect(word('xr2001')).toEqual(found());
    expect(word('cartrige xr2000')).toEqual(found(3));
    expect(word('cartrige xr2001')).toEqual(found());
  });

  test('the first letter is never a typo', () => {
    expect(word('neumonia')).toEqual(found());
    expect(word('bneumonia')).toEqual(found());
    expect(word('pnuemonia')).toEqual(found(8));
    expect(word('pneumonai')).toEqual(found(8));
  });

  test('only the items with the fewest typos: fransisco is 1 from Francisco and 2 from Franciscus', () => {
    expect(word('fransisco')).toEqual(found(4));
    expect(word('fransiscu')).toEqual(found(5));
    // Nine letters may have two typos; eight only one.
    expect(word('fransisko')).toEqual(found(4));
    expect(word('fransisk')).toEqual(found());
  });

  test("an item's typos are the sum over the Term's words", () => {
    expect(word('greem valey')).toEqual(found(7));
    expect(word('grean valey')).toEqual(found(6));
    expect(word('greeb valey')).toEqual(found(7, 6));
  });

  test('"typos": false and the phrase rule forgive none', () => {
    expect(word('fransisco', 'wordExact')).toEqual(found());
    expect(word('fransisco', 'wordPhrase')).toEqual(found());
    expect(word('francisco', 'wordExact')).toEqual(found(4));
  });
});

describe('the words rule with children', () => {
  const config = {
    lists: {
      division: { children: 'category' },
      category: { parent: { list: 'division', column: 'division_id' } },
    },
  };
  const files = {
    'division.csv': 'id,text\n1,Botany\n2,Zoology\n',
    'category.csv':
      'id,division_id,text\n10,1,Ferns\n11,1,Flowering plants\n12,1,Mosses\n20,2,Mammals\n21,2,Birds of prey\n',
  };
  const ask = createDeclaredReference(declarationOf(config), files, 30);
  const ferns = { id: 10, text: 'Ferns' };
  const flowering = { id: 11, text: 'Flowering plants' };
  const mosses = { id: 12, text: 'Mosses' };
  const botany = { id: 1, text: 'Botany', children: [ferns, flowering, mosses] };
  const zoology = {
    id: 2,
    text: 'Zoology',
    children: [
      { id: 21, text: 'Birds of prey' },
      { id: 20, text: 'Mammals' },
    ],
  };
  const term = (t: string) => ask(`/division.json?Term=${encodeURIComponent(t)}`);

  test('every word in one child label, in any order, keeps that child; the own label keeps them all', () => {
    expect(term('plants flowering')).toEqual(ok({ total: 1, items: [{ ...botany, children: [flowering] }] }));
    expect(term('prey birds')).toEqual(ok({ total: 1, items: [{ ...zoology, children: [zoology.children[0]] }] }));
    expect(term('bot')).toEqual(ok({ total: 1, items: [botany] }));
  });

  test("the words must be in the own label or in one child's: botany ferns finds nothing, typos or not", () => {
    expect(term('botany ferns')).toEqual(ok({ total: 0, items: [] }));
    expect(term('ferns mosses')).toEqual(ok({ total: 0, items: [] }));
  });

  test('a typo answer keeps every child when the own label has the fewest typos, else the children that do', () => {
    expect(term('botanu')).toEqual(ok({ total: 1, items: [botany] }));
    expect(term('mammels')).toEqual(ok({ total: 1, items: [{ ...zoology, children: [zoology.children[1]] }] }));
    expect(term('flowerng')).toEqual(ok({ total: 1, items: [{ ...botany, children: [flowering] }] }));
  });
});
