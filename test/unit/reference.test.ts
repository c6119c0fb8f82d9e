import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import { arbCsvStyle, arbPageSize, arbRequest, arbSources, CSV_FILES, toCsvFiles } from '../arbitraries.js';
import { fold, referenceRequest, type RefSources } from '../reference.js';

const SRC: RefSources = {
  author: [
    { id: 1, text: 'Smith, John' },
    { id: 2, text: 'Smithson, Anne' },
    { id: 3, text: 'Johnson, Mary' },
    { id: 4, text: 'Müller, Hans' },
    { id: 5, text: 'Muller, Hans' },
    { id: 6, text: 'de Smith, Alan' },
    { id: 7, text: 'Ørsted, H. C.' },
  ],
  country: [
    { id: 840, text: 'United States' },
    { id: 124, text: 'Canada' },
    { id: 250, text: 'France' },
  ],
  state: [
    { id: 6, country_id: 840, text: 'California' },
    { id: 36, country_id: 840, text: 'New York' },
    { id: 6, country_id: 124, text: 'Ontario' },
  ],
  county: [
    {
      country_id: 840,
      state_id: 6,
      FIPS: 6037,
      county: 'Los Angeles',
      latitudeCenter: 34.0522,
      LongitudeCenter: -118.2437,
    },
    { country_id: 840, state_id: 6, FIPS: 6001, county: 'Alameda', latitudeCenter: 37.6, LongitudeCenter: -121.9 },
    {
      country_id: 840,
      state_id: 6,
      FIPS: 6075,
      county: 'San Francisco',
      latitudeCenter: 37.77,
      LongitudeCenter: -122.42,
    },
  ],
  division: [
    { id: 10, text: 'Zoology' },
    { id: 11, text: 'Botany' },
    { id: 12, text: 'Empty division' },
  ],
  category: [
    { id: 100, division_id: 10, text: 'Mammals' },
    { id: 101, division_id: 10, text: 'Birds' },
    { id: 102, division_id: 11, text: 'Trees' },
    { id: 103, division_id: 11, text: 'Marine algae' },
  ],
  descriptor: [
    { id: 1, text: 'Leaf' },
    { id: 2, text: 'Leaf shape' },
    { id: 3, text: 'Fig leaf' },
  ],
  system: [
    { id: 'gbif', text: 'GBIF' },
    { id: 'iDigBio', text: 'iDigBio' },
  ],
  author_count: [
    { system: 'gbif', id: 1, count: 42 },
    { system: 'gbif', id: 2, count: 0 },
  ],
  division_count: [{ system: 'gbif', id: 10, count: 5 }],
};

const PAGE_SIZE = 2;
const req = (url: string) => referenceRequest(SRC, PAGE_SIZE, url);
const ids = (url: string) => {
  const { status, body } = req(url);
  expect(status).toBe(200);
  return (body as { items: { id: number }[] }).items.map((i) => i.id);
};

// Author list order: fold, then text (u < ü), then id.
// de smith alan(6), johnson mary(3), muller hans(5 'Muller'), muller hans(4 'Müller'), orsted h c(7), smith john(1), smithson anne(2)

describe('fold', () => {
  test.each([
    ['straße', 'strasse'],
    ['Ørsted', 'orsted'],
    ['Łukasz', 'lukasz'],
    ['Æsir', 'aesir'],
    ['œuvre', 'oeuvre'],
    ['Đorđe', 'dorde'],
    ['Þór', 'thor'],
    ['ıstanbul', 'istanbul'],
    ['İstanbul', 'istanbul'],
    ['Müller', 'muller'],
    ['cafe\u0301', 'cafe'],
    ['ﬁsh', 'fish'],
    ['Ⅻ', 'xii'],
    ['x²', 'x2'],
    ['１２３', '123'],
    ['½', '1 2'],
    ['ΣΩΚΡΆΤΗΣ', 'σωκρατης'],
    ['Иванов, Пётр', 'иванов петр'],
    ['한국어', '한국어'],
    ['Smith,  John!!', 'smith john'],
    ['  --Hello--  ', 'hello'],
    ['a\t\nb', 'a b'],
    ["O'Brien_Jr.", 'o brien jr'],
    ['😀 fox', 'fox'],
    ['😀', ''],
    ['', ''],
  ])('fold(%j) is %j', (input, expected) => {
    expect(fold(input)).toBe(expected);
  });
});

describe('author search and pages', () => {
  test.each([
    ['no term lists everything in fold order, first page', '/author.json', [6, 3]],
    ['equal folds order by text, then id', '/author.json?Page=2', [5, 4]],
    ['the last page may be short', '/author.json?Page=4', [2]],
    ['"smi" finds prefixes first, then word starts', '/author.json?Term=smi&Page=1', [1, 2]],
    ['"smi" page 2 holds the word-start match', '/author.json?Term=smi&Page=2', [6]],
    ['"smith j" finds Smith, John', '/author.json?Term=smith%20j', [1]],
    ['plus is a space in a term', '/author.json?Term=smith+j', [1]],
    ['"john" ranks a prefix match above a word-start match', '/author.json?Term=john', [3, 1]],
    ['diacritics are folded in the term', '/author.json?Term=M%C3%BCl', [5, 4]],
    ['ø in the term finds Ørsted', '/author.json?Term=%C3%B8rsted', [7]],
    ['a term must start at a word start', '/author.json?Term=mith', []],
    ['parameter names match in any case', '/author.json?TERM=smi&pAgE=2', [6]],
    ['the first occurrence of a name wins', '/author.json?term=john&Term=smi', [3, 1]],
    ['an empty value counts as absent', '/author.json?Term=&Page=', [6, 3]],
    ['a term that folds to nothing does not filter', '/author.json?Term=%21%21', [6, 3]],
    ['unknown parameters are ignored', '/author.json?q=smi&_type=query&Term=john', [3, 1]],
    ['a leading-zero page is that page', '/author.json?Page=02', [5, 4]],
    ['page past the end answers an empty page', '/author.json?Page=5', []],
    ['a huge page is past the end', '/author.json?Page=99999999999999999999', []],
    ['an absolute URL uses only path and query', 'http://localhost:8080/author.json?Term=smi', [1, 2]],
  ])('%s', (_name, url, expected) => {
    expect(ids(url)).toEqual(expected);
  });

  test('page past the end answers an empty page with the true total', () => {
    expect(req('/author.json?Page=9')).toEqual({ status: 200, body: { total: 7, items: [] } });
    expect(req('/author.json?Term=smi&Page=3')).toEqual({ status: 200, body: { total: 3, items: [] } });
  });

  test.each([
    [
      'Id wins over Term and Page',
      '/author.json?Id=3&Term=smi&Page=9',
      { total: 1, items: [{ id: 3, text: 'Johnson, Mary' }] },
    ],
    [
      'Id with leading zeros finds the item',
      '/author.json?Id=0007',
      { total: 1, items: [{ id: 7, text: 'Ørsted, H. C.' }] },
    ],
    ['a missing Id answers an empty envelope', '/author.json?Id=99', { total: 0, items: [] }],
    ['an Id too large finds nothing', '/author.json?Id=99999999999999999999', { total: 0, items: [] }],
  ])('%s', (_name, url, body) => {
    expect(req(url)).toEqual({ status: 200, body });
  });
});

describe('systems', () => {
  test('System adds count after text, 0 when the system has none for the item', () => {
    const { body } = req('/author.json?Term=smith&System=gbif');
    expect(body).toEqual({
      total: 3,
      items: [
        { id: 1, text: 'Smith, John', count: 42 },
        { id: 2, text: 'Smithson, Anne', count: 0 },
      ],
    });
    expect(Object.keys((body as { items: object[] }).items[0] as object)).toEqual(['id', 'text', 'count']);
    expect(req('/author.json?Id=6&System=iDigBio').body).toEqual({
      total: 1,
      items: [{ id: 6, text: 'de Smith, Alan', count: 0 }],
    });
  });

  test.each([
    ['an unknown system', '/author.json?System=nosuch'],
    ['a system in the wrong case', '/author.json?System=GBIF'],
    ['an unknown system on division', '/division.json?System=idigbio'],
  ])('%s answers 404', (_name, url) => {
    const { status, body } = req(url);
    expect(status).toBe(404);
    expect(typeof (body as { error: unknown }).error).toBe('string');
  });

  test('System is ignored on descriptor, even when unknown', () => {
    expect(req('/descriptor.json?System=nosuch&Term=leaf')).toEqual({
      status: 200,
      body: {
        total: 3,
        items: [
          { id: 1, text: 'Leaf' },
          { id: 2, text: 'Leaf shape' },
        ],
      },
    });
    expect(ids('/descriptor.json?System=nosuch&Term=leaf&Page=2')).toEqual([3]);
  });
});

describe('divisions', () => {
  const zoology = {
    id: 10,
    text: 'Zoology',
    children: [
      { id: 101, text: 'Birds' },
      { id: 100, text: 'Mammals' },
    ],
  };
  test.each([
    [
      'no term lists parents in order, each with all its children',
      '/division.json?Page=2',
      { total: 3, items: [zoology] },
    ],
    ['Id answers the parent with all its children', '/division.json?Id=10', { total: 1, items: [zoology] }],
    ['Id with child=false answers the parent', '/division.json?Id=10&child=FALSE', { total: 1, items: [zoology] }],
    [
      'Id with child=true answers the parent holding only that category',
      '/division.json?Id=100&child=true',
      { total: 1, items: [{ id: 10, text: 'Zoology', children: [{ id: 100, text: 'Mammals' }] }] },
    ],
    ['child=1 counts as true; no category 10', '/division.json?Id=10&child=1', { total: 0, items: [] }],
    ['a category id without child finds no parent', '/division.json?Id=100', { total: 0, items: [] }],
    [
      'a term matching only children keeps only matching children, ranked by best tier',
      '/division.json?Term=ma',
      {
        total: 2,
        items: [
          { id: 11, text: 'Botany', children: [{ id: 103, text: 'Marine algae' }] },
          { id: 10, text: 'Zoology', children: [{ id: 100, text: 'Mammals' }] },
        ],
      },
    ],
    ['a term matching the parent keeps all its children', '/division.json?term=zoo', { total: 1, items: [zoology] }],
    [
      'a parent whose text matches at a word start is tier 2',
      '/division.json?Term=division',
      { total: 1, items: [{ id: 12, text: 'Empty division', children: [] }] },
    ],
    [
      'System puts count before children',
      '/division.json?Id=10&System=gbif',
      { total: 1, items: [{ id: 10, text: 'Zoology', count: 5, children: zoology.children }] },
    ],
    ['child without Id has no effect', '/division.json?child=true&Page=2', { total: 3, items: [zoology] }],
  ])('%s', (_name, url, body) => {
    expect(req(url)).toEqual({ status: 200, body });
  });

  test('a child with a better tier lifts its parent above list order', () => {
    const src: RefSources = {
      ...SRC,
      division: [
        { id: 1, text: 'Alpha plants' },
        { id: 2, text: 'Beta' },
      ],
      category: [{ id: 5, division_id: 2, text: 'Plants of beta' }],
      division_count: [],
    };
    const { body } = referenceRequest(src, 30, '/division.json?Term=plants');
    expect((body as { items: { id: number }[] }).items.map((i) => i.id)).toEqual([2, 1]);
  });

  test('System keys come out in the order id, text, count, children', () => {
    const { body } = req('/division.json?System=gbif&Page=1');
    expect(Object.keys((body as { items: object[] }).items[0] as object)).toEqual(['id', 'text', 'count', 'children']);
  });
});

describe('errors', () => {
  test.each([
    ['Page=0', '/author.json?Page=0'],
    ['Page=abc', '/author.json?Page=abc'],
    ['Page=-1', '/author.json?Page=-1'],
    ['Page=1.5', '/division.json?Page=1.5'],
    ['Page=abc even when Id is given', '/descriptor.json?Id=1&Page=abc'],
    ['Id=x1', '/author.json?Id=x1'],
    ['Id=-1', '/division.json?Id=-1'],
    ['child=maybe', '/division.json?Id=10&child=maybe'],
    ['a bad Page before an unknown System', '/author.json?System=nosuch&Page=abc'],
  ])('%s answers 400', (_name, url) => {
    const { status, body } = req(url);
    expect(status).toBe(400);
    expect(typeof (body as { error: unknown }).error).toBe('string');
  });

  test.each([
    ['an unknown path', '/authors.json'],
    ['a path in the wrong case', '/Author.json'],
    ['a path without .json', '/author'],
    ['a static tree path', '/author/page/1.json'],
    ['an unknown country', '/country/999.json'],
    ['a country id that is not digits', '/country/abc.json'],
    ['the states of an unknown country', '/country/999/state.json'],
    ['an unknown state', '/country/840/state/99.json'],
    ['a state of another country', '/country/124/state/36.json'],
    ['the counties of an unknown state', '/country/124/state/36/county.json'],
    ['an unknown county', '/country/840/state/6/county/1.json'],
    ['a bad path before a bad Page', '/nosuch.json?Page=abc'],
  ])('%s answers 404', (_name, url) => {
    const { status, body } = req(url);
    expect(status).toBe(404);
    expect(typeof (body as { error: unknown }).error).toBe('string');
  });
});

describe('geography', () => {
  const la = { FIPS: 6037, LongitudeCenter: -118.2437, county: 'Los Angeles', latitudeCenter: 34.0522 };
  test.each([
    [
      'the country list is not paginated',
      '/country.json?Page=9',
      {
        total: 3,
        items: [
          { id: 124, text: 'Canada' },
          { id: 250, text: 'France' },
          { id: 840, text: 'United States' },
        ],
      },
    ],
    [
      'Term applies to countries',
      '/country.json?term=states',
      { total: 1, items: [{ id: 840, text: 'United States' }] },
    ],
    ['a single country is the bare object', '/country/840.json', { id: 840, text: 'United States' }],
    ['leading zeros in a path id are ignored', '/country/0840.json?Page=abc', { id: 840, text: 'United States' }],
    [
      'states list in order',
      '/country/840/state.json',
      {
        total: 2,
        items: [
          { id: 6, text: 'California' },
          { id: 36, text: 'New York' },
        ],
      },
    ],
    ['Term applies to states', '/country/840/state.json?Term=new', { total: 1, items: [{ id: 36, text: 'New York' }] }],
    ['a country without states has an empty list', '/country/250/state.json', { total: 0, items: [] }],
    ['state ids are per country', '/country/124/state/6.json', { id: 6, text: 'Ontario' }],
    [
      'the county grid holds all rows in order',
      '/country/840/state/6/county.json?Page=3',
      {
        total: 1,
        page: 1,
        records: 3,
        rows: [
          { FIPS: 6001, LongitudeCenter: -121.9, county: 'Alameda', latitudeCenter: 37.6 },
          la,
          { FIPS: 6075, LongitudeCenter: -122.42, county: 'San Francisco', latitudeCenter: 37.77 },
        ],
      },
    ],
    [
      'a state without counties has an empty grid',
      '/country/840/state/36/county.json',
      { total: 0, page: 1, records: 0, rows: [] },
    ],
    ['a county with leading zeros everywhere', '/country/0840/state/06/county/06037.json', la],
  ])('%s', (_name, url, body) => {
    expect(req(url)).toEqual({ status: 200, body });
  });

  test('county keys keep their order and odd capitals', () => {
    expect(Object.keys(req('/country/840/state/6/county/6037.json').body as object)).toEqual([
      'FIPS',
      'LongitudeCenter',
      'county',
      'latitudeCenter',
    ]);
    expect(Object.keys(req('/country/840/state/6/county.json').body as object)).toEqual([
      'total',
      'page',
      'records',
      'rows',
    ]);
  });
});

describe('arbitraries', () => {
  test('sources keep every key unique and every reference valid', () => {
    fc.assert(
      fc.property(arbSources(), (src) => {
        const unique = (keys: string[]) => expect(new Set(keys).size).toBe(keys.length);
        unique(src.author.map((x) => String(x.id)));
        unique(src.country.map((x) => String(x.id)));
        unique(src.state.map((x) => `${x.country_id}/${x.id}`));
        unique(src.county.map((x) => `${x.country_id}/${x.state_id}/${x.FIPS}`));
        unique(src.division.map((x) => String(x.id)));
        unique(src.category.map((x) => String(x.id)));
        unique(src.descriptor.map((x) => String(x.id)));
        unique(src.system.map((x) => x.id.toLowerCase()));
        unique(src.author_count.map((x) => `${x.system}/${x.id}`));
        unique(src.division_count.map((x) => `${x.system}/${x.id}`));
        for (const s of src.system) expect(s.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
        for (const s of src.state) expect(src.country.some((c) => c.id === s.country_id)).toBe(true);
        for (const c of src.county) {
          expect(src.state.some((s) => s.country_id === c.country_id && s.id === c.state_id)).toBe(true);
          expect(Math.abs(c.latitudeCenter)).toBeLessThanOrEqual(90);
          expect(Math.abs(c.LongitudeCenter)).toBeLessThanOrEqual(180);
        }
        for (const c of src.category) expect(src.division.some((d) => d.id === c.division_id)).toBe(true);
        for (const c of src.author_count)
          expect(src.author.some((a) => a.id === c.id) && src.system.some((s) => s.id === c.system)).toBe(true);
        for (const c of src.division_count)
          expect(src.division.some((d) => d.id === c.id) && src.system.some((s) => s.id === c.system)).toBe(true);
        const texts = [src.author, src.country, src.state, src.division, src.category, src.descriptor, src.system]
          .flat()
          .map((x) => x.text);
        for (const t of [...texts, ...src.county.map((c) => c.county)]) expect(t.trim()).not.toBe('');
        expect(src.country.some((c) => !src.state.some((s) => s.country_id === c.id))).toBe(true);
        expect(
          src.state.some((s) => !src.county.some((c) => c.country_id === s.country_id && c.state_id === s.id)),
        ).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  test('every CSV file has a header and parses back to the sources', () => {
    fc.assert(
      fc.property(arbSources({ maxAuthors: 40 }), arbCsvStyle, (src, style) => {
        const files = toCsvFiles(src, style);
        expect(Object.keys(files).sort()).toEqual([...CSV_FILES].sort());
        const back = (file: string) =>
          parse(files[file] as string, { bom: true, columns: true }) as Record<string, string>[];
        for (const file of CSV_FILES) expect((files[file] as string).length).toBeGreaterThan(0);
        expect(back('author.csv').map((r) => ({ id: Number(r['id']), text: r['text'] }))).toEqual(src.author);
        expect(back('county.csv').map((r) => Number(r['latitudeCenter']))).toEqual(
          src.county.map((c) => c.latitudeCenter),
        );
        expect(back('county.csv').map((r) => Number(r['LongitudeCenter']))).toEqual(
          src.county.map((c) => c.LongitudeCenter),
        );
        expect(back('category.csv').map((r) => Number(r['division_id']))).toEqual(
          src.category.map((c) => c.division_id),
        );
        expect(back('author_count.csv').map((r) => [r['system'], Number(r['id']), Number(r['count'])])).toEqual(
          src.author_count.map((c) => [c.system, c.id, c.count]),
        );
      }),
      { numRuns: 30 },
    );
  });

  test('requests start with "/" and the reference answers each with 200, 400 or 404', () => {
    const arb = fc
      .tuple(arbSources({ maxAuthors: 40 }), arbPageSize)
      .chain(([src, pageSize]) =>
        fc.tuple(
          fc.constant(src),
          fc.constant(pageSize),
          fc.array(arbRequest(src, pageSize), { minLength: 1, maxLength: 20 }),
        ),
      );
    fc.assert(
      fc.property(arb, ([src, pageSize, urls]) => {
        for (const url of urls) {
          expect(url.startsWith('/')).toBe(true);
          const { status, body } = referenceRequest(src, pageSize, url);
          expect([200, 400, 404]).toContain(status);
          if (status !== 200) expect(typeof (body as { error: unknown }).error).toBe('string');
        }
      }),
      { numRuns: 30 },
    );
  });
});
