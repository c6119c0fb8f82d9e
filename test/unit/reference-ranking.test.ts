// The reference's ranking (test/reference-declared.ts), checked by hand against
// docs/lists.md: a list's declared order, its search text, exact matches first,
// and paged lists under a parent. Each expected answer below was worked out
// from the rules alone, so these cases are what make the oracle trustworthy.
import { describe, expect, test } from 'vitest';
import { checkConfig, type Declaration } from '../../src/config/declaration.js';
import { createDeclaredReference } from '../reference-declared.js';

function declarationOf(config: unknown): Declaration {
  const { declaration, errors } = checkConfig(config, 'reflist.config.json');
  expect(errors.map((e) => e.message)).toEqual([]);
  return declaration!;
}

const ok = (body: unknown) => ({ status: 200, body });

describe('a declared order', () => {
  const config = {
    lists: {
      country: {
        id: { column: 'code', type: 'string' },
        label: 'name',
        fields: { population: 'integer' },
        order: ['-population'],
        shape: 'whole',
        items: true,
      },
      street: {
        label: 'name',
        fields: { district: 'string', len: { column: 'length_km', type: 'number' } },
        order: ['district', '-length_km'],
      },
      streetByDistrict: {
        source: 'street.csv',
        label: 'name',
        fields: { district: 'string' },
        order: ['-district'],
        shape: 'whole',
      },
      streetByLength: {
        source: 'street.csv',
        label: 'name',
        fields: { len: { column: 'length_km', type: 'number' } },
        order: ['-len'],
        shape: 'grid',
      },
    },
  };
  const files = {
    'country.csv':
      'code,name,population\nIT,Italy,59000000\nUS,United States,331000000\nVA,Vatican City,800\nGB,United Kingdom,67000000\nDE,Germany,83000000\nFR,France,67000000\n',
    'street.csv':
      'id,name,district,length_km\n1,Elm St,,2.5\n2,Oak St,North,1\n3,Ash St,North,1.75\n4,Birch St,,2.50\n5,Pine St,south,10\n6,Cedar St,South,9\n',
  };
  const ask = createDeclaredReference(declarationOf(config), files, 2);
  const country = (id: string, text: string, population: number) => ({ id, text, population });
  const us = country('US', 'United States', 331000000);
  const gb = country('GB', 'United Kingdom', 67000000);

  test('orders a whole list by a field, descending, ties (France and the United Kingdom) by the folded label', () => {
    expect(ask('/country.json')).toEqual(
      ok({
        total: 6,
        items: [
          us,
          country('DE', 'Germany', 83000000),
          country('FR', 'France', 67000000),
          gb,
          country('IT', 'Italy', 59000000),
          country('VA', 'Vatican City', 800),
        ],
      }),
    );
  });

  test("keeps that order within a Term's tier: the United States before the United Kingdom", () => {
    expect(ask('/country.json?Term=united')).toEqual(ok({ total: 2, items: [us, gb] }));
  });

  test('compares strings by code unit with the empty string first ascending, last descending, and each key in turn', () => {
    // '' < 'North' < 'South' < 'south'; within a district the longest first; Birch and Elm tie on both (2.50 is 2.5), so by label.
    const ids = (body: unknown) => (body as { items: { id: number }[] }).items.map((x) => x.id);
    const pages = [1, 2, 3, 4].map((p) => ask(`/street.json?Page=${p}`).body);
    expect(pages.flatMap(ids)).toEqual([4, 1, 3, 2, 6, 5]);
    expect(pages.map((b) => (b as { total: number }).total)).toEqual([6, 6, 6, 6]);
    expect(ids(ask('/streetByDistrict.json').body)).toEqual([5, 6, 3, 2, 4, 1]);
  });

  test('compares numbers by value, not by their text: 10 before 9 descending, in a grid too', () => {
    const grid = ask('/streetByLength.json').body as { rows: { id: number; len: number }[] };
    expect(grid.rows.map((r) => [r.id, r.len])).toEqual([
      [5, 10],
      [6, 9],
      [4, 2.5],
      [1, 2.5],
      [3, 1.75],
      [2, 1],
    ]);
  });
});

describe('a search text and exact matches first', () => {
  const config = {
    lists: {
      country: { id: { column: 'code', type: 'string' }, label: 'name', shape: 'whole', items: true },
      city: {
        parent: { list: 'country', column: 'country' },
        label: '{name} ({country})',
        fields: { name: 'string', ascii: 'string', population: 'integer' },
        order: ['-population'],
        search: { text: '{name}', columns: ['ascii'], exact: true },
        items: true,
      },
      language: {
        id: { column: 'code', type: 'string' },
        label: 'name',
        fields: { iso1: { column: 'iso639_1', type: 'string' }, iso3: { column: 'iso639_3', type: 'string' } },
        search: { columns: ['iso639_1', 'iso3'], exact: true },
      },
      languageAnyTier: {
        source: 'language.csv',
        id: { column: 'code', type: 'string' },
        label: 'name',
        fields: { iso3: { column: 'iso639_3', type: 'string' } },
        search: { columns: ['iso3'] },
      },
      division: { children: 'category', search: { exact: true } },
      category: { parent: { list: 'division', column: 'division_id' } },
    },
  };
  const files = {
    'country.csv': 'code,name\nUS,United States\nDE,Germany\nFR,France\n',
    'city.csv': [
      'id,country,name,ascii,population',
      '1,US,San Francisco,San Francisco,808000',
      '2,US,San Jose,San Jose,970000',
      '3,US,San Diego,San Diego,1380000',
      '4,US,Los Angeles,Los Angeles,3820000',
      '5,US,Santa Ana,Santa Ana,310000',
      '6,US,New York,New York,8260000',
      '10,US,Sandy,Sandy,96000',
      '11,US,Sandy Springs,Sandy Springs,108000',
      '7,DE,München,Muenchen,1510000',
      '8,DE,Köln,Koeln,1080000',
      '9,DE,Berlin,Berlin,3850000',
      '1,DE,Sankt Augustin,Sankt Augustin,55000',
    ].join('\n'),
    'language.csv':
      'code,name,iso639_1,iso639_3\nde,German,de,deu\nnl,Dutch,nl,nld\ndv,Dhivehi,dv,div\nen,English,en,eng\nel,Greek,el,ell\ndel,Delaware,,del\nden,Dene,,den\n',
    'division.csv': 'id,text\n1,Plants\n2,Animals\n3,Fungi\n',
    'category.csv': 'id,division_id,text\n10,1,Trees\n11,1,Grasses\n20,2,Treeshrews\n21,2,Birds\n30,3,Moulds\n',
  };
  const ask = createDeclaredReference(declarationOf(config), files, 2);
  const city = (id: number, name: string, country: string, ascii: string, population: number) => ({
    id,
    text: `${name} (${country})`,
    name,
    ascii,
    population,
  });
  const sf = city(1, 'San Francisco', 'US', 'San Francisco', 808000);
  const sj = city(2, 'San Jose', 'US', 'San Jose', 970000);
  const sd = city(3, 'San Diego', 'US', 'San Diego', 1380000);
  const sa = city(5, 'Santa Ana', 'US', 'Santa Ana', 310000);
  const sandy = city(10, 'Sandy', 'US', 'Sandy', 96000);
  const springs = city(11, 'Sandy Springs', 'US', 'Sandy Springs', 108000);
  const munich = city(7, 'München', 'DE', 'Muenchen', 1510000);
  const lang = (id: string, text: string, iso1: string, iso3: string) => ({ id, text, iso1, iso3 });
  const german = lang('de', 'German', 'de', 'deu');

  test("a Term's tiers 1 and 2 are reckoned on the search text: San … cities most populous first, San Francisco by a later word", () => {
    expect(ask('/country/US/city.json?Term=san')).toEqual(ok({ total: 6, items: [sd, sj] }));
    expect(ask('/country/US/city.json?Term=san&Page=2')).toEqual(ok({ total: 6, items: [sf, sa] }));
    expect(ask('/country/US/city.json?Term=san&Page=3')).toEqual(ok({ total: 6, items: [springs, sandy] }));
    expect(ask('/country/US/city.json?Term=francisco')).toEqual(ok({ total: 1, items: [sf] }));
  });

  test('the label is not searched when a search text is declared: "us" is in every US city\'s label, and in no text', () => {
    expect(ask('/country/US/city.json?Term=us')).toEqual(ok({ total: 0, items: [] }));
  });

  test('an exact match comes first, before a more populous city the Term only starts', () => {
    expect(ask('/country/US/city.json?Term=Sandy')).toEqual(ok({ total: 2, items: [sandy, springs] }));
  });

  test('a searched column is exact when it folds to the Term (tier 0), and tier 3 when the Term only starts a word of it', () => {
    expect(ask('/country/DE/city.json?Term=muenchen')).toEqual(ok({ total: 1, items: [munich] }));
    expect(ask('/country/DE/city.json?Term=münchen')).toEqual(ok({ total: 1, items: [munich] }));
    expect(ask('/country/DE/city.json?Term=muench')).toEqual(ok({ total: 1, items: [munich] }));
    // German's code is "de": exact, first; Delaware and Dene start with "de" (tier 1); without exact, German's code is tier 3.
    expect(ask('/language.json?Term=DE')).toEqual(
      ok({ total: 3, items: [german, lang('del', 'Delaware', '', 'del')] }),
    );
    expect(ask('/language.json?Term=de&Page=2')).toEqual(ok({ total: 3, items: [lang('den', 'Dene', '', 'den')] }));
    expect(ask('/language.json?Term=deu')).toEqual(ok({ total: 1, items: [german] }));
    const ids = (url: string) => (ask(url).body as { items: { id: string }[] }).items.map((x) => x.id);
    expect([...ids('/languageAnyTier.json?Term=de'), ...ids('/languageAnyTier.json?Term=de&Page=2')]).toEqual([
      'del',
      'den',
      'de',
    ]);
  });

  test("a child's label equal to the Term makes its parent exact; a parent's own exact label keeps all its children", () => {
    const plants = { id: 1, text: 'Plants' };
    expect(ask('/division.json?Term=trees')).toEqual(
      ok({
        total: 2,
        items: [
          { ...plants, children: [{ id: 10, text: 'Trees' }] },
          { id: 2, text: 'Animals', children: [{ id: 20, text: 'Treeshrews' }] },
        ],
      }),
    );
    expect(ask('/division.json?Term=plants')).toEqual(
      ok({
        total: 1,
        items: [
          {
            ...plants,
            children: [
              { id: 11, text: 'Grasses' },
              { id: 10, text: 'Trees' },
            ],
          },
        ],
      }),
    );
  });
});

describe('a search text made of fields as an item carries them', () => {
  const config = {
    lists: {
      town: {
        label: '{name} ({state})',
        fields: { name: 'string', area: { column: 'area_km2', type: 'number' } },
        search: { text: '{name} {area_km2}' },
      },
      townByName: {
        source: 'town.csv',
        label: '{name} ({state})',
        fields: { name: 'string' },
        search: { text: 'name' },
      },
    },
  };
  const files = {
    'town.csv': 'id,name,state,area_km2\n1,Springfield,IL,1.50\n2,Springfield,MA,85\n3,Shelbyville,TN,1e1\n',
  };
  const ask = createDeclaredReference(declarationOf(config), files, 10);
  const ids = (url: string) => (ask(url).body as { items: { id: number }[] }).items.map((x) => x.id);

  test('a number field is in the text as the item has it (1.5, 10), not as its cell was written (1.50, 1e1)', () => {
    expect(ask('/town.json?Term=1.5')).toEqual(
      ok({ total: 1, items: [{ id: 1, text: 'Springfield (IL)', name: 'Springfield', area: 1.5 }] }),
    );
    expect(ids('/town.json?Term=10')).toEqual([3]);
    expect(ids('/town.json?Term=1.50')).toEqual([]);
    expect(ids('/town.json?Term=1e1')).toEqual([]);
  });

  test("one field's name is that field's text; the label's other columns are not searched", () => {
    expect(ids('/townByName.json?Term=spring')).toEqual([1, 2]);
    expect(ids('/townByName.json?Term=il')).toEqual([]);
    expect(ids('/town.json?Term=tn')).toEqual([]);
  });
});

describe('a paged list under a parent', () => {
  const config = {
    lists: {
      country: { id: { column: 'code', type: 'string' }, label: 'name', shape: 'whole', items: true },
      city: {
        parent: { list: 'country', column: 'country' },
        label: 'name',
        fields: { population: 'integer' },
        order: ['-population'],
        items: true,
      },
    },
  };
  const files = {
    'country.csv': 'code,name\nUS,United States\nDE,Germany\nFR,France\n',
    'city.csv':
      'id,country,name,population\n1,US,San Francisco,808000\n2,US,San Jose,970000\n3,US,San Diego,1380000\n4,US,Los Angeles,3820000\n5,US,Santa Ana,310000\n1,DE,Sankt Augustin,55000\n9,DE,Berlin,3850000\n',
  };
  const ask = createDeclaredReference(declarationOf(config), files, 2);
  const city = (id: number, text: string, population: number) => ({ id, text, population });
  const [sf, sj, sd, la, sa] = [
    city(1, 'San Francisco', 808000),
    city(2, 'San Jose', 970000),
    city(3, 'San Diego', 1380000),
    city(4, 'Los Angeles', 3820000),
    city(5, 'Santa Ana', 310000),
  ];
  const augustin = city(1, 'Sankt Augustin', 55000);

  test("pages its parent's items in the list's order, and a page past the end has no items and the true total", () => {
    expect(ask('/country/US/city.json')).toEqual(ok({ total: 5, items: [la, sd] }));
    expect(ask('/country/US/city.json?page=2')).toEqual(ok({ total: 5, items: [sj, sf] }));
    expect(ask('/country/US/city.json?Page=3')).toEqual(ok({ total: 5, items: [sa] }));
    expect(ask('/country/US/city.json?Page=99999999999999999999')).toEqual(ok({ total: 5, items: [] }));
    expect(ask('/country/DE/city.json?Term=sankt')).toEqual(ok({ total: 1, items: [augustin] }));
  });

  test("Id finds an item among this parent's items only: ids repeat under other parents", () => {
    expect(ask('/country/US/city.json?Id=1')).toEqual(ok({ total: 1, items: [sf] }));
    expect(ask('/country/DE/city.json?Id=01')).toEqual(ok({ total: 1, items: [augustin] }));
    expect(ask('/country/DE/city.json?Id=2')).toEqual(ok({ total: 0, items: [] }));
    expect(ask('/country/DE/city/1.json')).toEqual(ok(augustin));
  });

  test('a known parent without items has an empty page; an unknown parent answers 404 whatever else is wrong', () => {
    expect(ask('/country/FR/city.json')).toEqual(ok({ total: 0, items: [] }));
    expect(ask('/country/FR/city.json?Term=x&Page=2')).toEqual(ok({ total: 0, items: [] }));
    expect(ask('/country/XX/city.json').status).toBe(404);
    expect(ask('/country/XX/city.json?Page=x&Id=y.z').status).toBe(404);
    expect(ask('/country/US/city.json?Page=x').status).toBe(400);
    expect(ask('/country/US/city.json?Id=x').status).toBe(400);
  });
});
