// How a declared list's cells become its items (docs/lists.md, "Cells" and
// "Ids"), built for real from a config and its sources in a temp folder.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from '../../src/build.js';
import { ReflistErrors } from '../../src/errors.js';
import { tempDir, writeSources } from '../helpers.js';

const read = (tree: string, path: string): unknown => JSON.parse(readFileSync(join(tree, path), 'utf8'));

describe('cells', () => {
  test('ids, references, counts, numbers and group ids are read without the spaces around them; labels and string fields keep theirs', async () => {
    const sources = writeSources(tempDir(), {
      'reflist.config.json': JSON.stringify({
        groups: { source: 'collection.csv', param: 'Collection' },
        lists: {
          country: { id: { column: 'code', type: 'string' }, label: 'name', shape: 'whole', items: true },
          countryCity: {
            source: 'city.csv',
            path: 'city',
            parent: { list: 'country', column: 'country' },
            label: 'name',
            fields: { pop: 'integer', lat: 'number', zip: 'string' },
            shape: 'whole',
            items: true,
          },
          species: { counts: { source: 'species_count.csv', group: 'collection' } },
        },
      }),
      'country.csv': 'code,name\n AT ,Austria\nDE,Germany\n',
      'city.csv':
        'id,name,country,pop,lat,zip\n 1 , Wien , AT,1900000 ,48.2, 1010 \n2,Berlin,\tDE, 3600000,\u00A052.5 ,10115\n',
      'collection.csv': 'id,text\n herbarium ,Herbarium\n',
      'species.csv': 'id,text\n 100,Quercus robur\n',
      'species_count.csv': 'collection,id,count\nherbarium , 100 , 12 \n',
    });
    const out = join(tempDir(), 'dist');
    await build({ sources, out });
    expect(read(out, 'country/AT.json')).toEqual({ id: 'AT', text: 'Austria' });
    expect(read(out, 'country/AT/city.json')).toEqual({
      total: 1,
      items: [{ id: 1, text: ' Wien ', pop: 1900000, lat: 48.2, zip: ' 1010 ' }],
    });
    expect(read(out, 'country/DE/city/2.json')).toEqual({
      id: 2,
      text: 'Berlin',
      pop: 3600000,
      lat: 52.5,
      zip: '10115',
    });
    expect(read(out, 'species/collection/herbarium.json')).toMatchObject({
      items: [{ id: 100, text: 'Quercus robur', count: 12 }],
    });
  });
});

describe('ids', () => {
  const CLASH =
    "a case-insensitive host (macOS, Windows, some S3 front ends) serves one's file for the other's; rename one";
  const country = { id: { column: 'code', type: 'string' }, label: 'name', shape: 'whole', items: true };
  const state = {
    parent: { list: 'country', column: 'country' },
    id: { column: 'code', type: 'string' },
    label: 'name',
    shape: 'whole',
    items: true,
  };

  /** The errors of a build of these lists and sources, or [] when it succeeds. */
  async function errorsOf(lists: object, files: Record<string, string>): Promise<string[]> {
    const sources = writeSources(tempDir(), { 'reflist.config.json': JSON.stringify({ lists }), ...files });
    try {
      await build({ sources, out: join(tempDir(), 'dist') });
      return [];
    } catch (err) {
      if (!(err instanceof ReflistErrors)) throw err;
      return err.errors.map(String);
    }
  }

  const CASES: [string, object, Record<string, string>, string][] = [
    [
      'a paged list',
      { tag: { id: { type: 'string' } } },
      { 'tag.csv': 'id,text\nDE,Deutsch\nde,deutsch\n' },
      `tag.csv:3: id de differs only by case from id DE on line 2: ${CLASH}`,
    ],
    [
      'a whole list',
      { country },
      { 'country.csv': 'code,name\nDE,Germany\nAT,Austria\nde,Deutschland\n' },
      `country.csv:4: code de differs only by case from code DE on line 2: ${CLASH}`,
    ],
    [
      'a grid',
      { tag: { id: { type: 'string' }, shape: 'grid' } },
      { 'tag.csv': 'id,text\nab-1,A\nAB-1,B\n' },
      `tag.csv:3: id AB-1 differs only by case from id ab-1 on line 2: ${CLASH}`,
    ],
    [
      'a list under one parent',
      { country, state },
      { 'country.csv': 'code,name\nDE,Germany\n', 'state.csv': 'code,country,name\nBY,DE,Bayern\nby,DE,Bavaria\n' },
      `state.csv:3: state by of country DE differs only by case from state BY of country DE on line 2: ${CLASH}`,
    ],
    [
      'embedded children, even under two parents,',
      {
        division: { children: 'category' },
        category: { parent: { list: 'division', column: 'division_id' }, id: { type: 'string' } },
      },
      {
        'division.csv': 'id,text\n1,Zoology\n2,Botany\n',
        'category.csv': 'id,division_id,text\nmam,1,Mammals\nMAM,2,Mosses\n',
      },
      `category.csv:3: id MAM differs only by case from id mam on line 2: ${CLASH}`,
    ],
  ];

  test.each(CASES)(
    "ids of %s that differ only by case are an error on the second one's line",
    async (_where, lists, files, error) => {
      expect(await errorsOf(lists, files)).toEqual([error]);
    },
  );

  test('ids that differ only by case under two parents are no error: their files are in two folders', async () => {
    const files = {
      'country.csv': 'code,name\nAT,Austria\nDE,Germany\n',
      'state.csv': 'code,country,name\nBY,DE,Bayern\nby,AT,Bregenz\n',
    };
    expect(await errorsOf({ country, state }, files)).toEqual([]);
  });
});
