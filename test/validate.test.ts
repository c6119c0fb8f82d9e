// How a declared list's cells become its items (docs/lists.md, "Cells" and
// "Ids"), built for real from a config and its sources in a temp folder.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from '../src/build.js';
import { tempDir, writeSources } from './helpers.js';

const read = (tree: string, path: string): unknown => JSON.parse(readFileSync(join(tree, path), 'utf8'));

describe('cells', () => {
  test('ids, references, counts, numbers and group ids are read without the spaces around them; labels and string fields keep theirs', async () => {
    const sources = writeSources(tempDir(), {
      'reflist.config.json': JSON.stringify({
        groups: { source: 'collection.csv', param: 'Collection' },
        lists: {
          country: { id: { column: 'code', type: 'string' }, label: 'name', shape: 'whole', items: true },
          countryCity: {
            source: 'city.csv', path: 'city', parent: { list: 'country', column: 'country' }, label: 'name',
            fields: { pop: 'integer', lat: 'number', zip: 'string' }, shape: 'whole', items: true,
          },
          species: { counts: { source: 'species_count.csv', group: 'collection' } },
        },
      }),
      'country.csv': 'code,name\n AT ,Austria\nDE,Germany\n',
      'city.csv': 'id,name,country,pop,lat,zip\n 1 , Wien , AT,1900000 ,48.2, 1010 \n2,Berlin,\tDE, 3600000,\u00A052.5 ,10115\n',
      'collection.csv': 'id,text\n herbarium ,Herbarium\n',
      'species.csv': 'id,text\n 100,Quercus robur\n',
      'species_count.csv': 'collection,id,count\nherbarium , 100 , 12 \n',
    });
    const out = join(tempDir(), 'dist');
    await build({ sources, out });
    expect(read(out, 'country/AT.json')).toEqual({ id: 'AT', text: 'Austria' });
    expect(read(out, 'country/AT/city.json')).toEqual({ total: 1, items: [{ id: 1, text: ' Wien ', pop: 1900000, lat: 48.2, zip: ' 1010 ' }] });
    expect(read(out, 'country/DE/city/2.json')).toEqual({ id: 2, text: 'Berlin', pop: 3600000, lat: 52.5, zip: '10115' });
    expect(read(out, 'species/collection/herbarium.json')).toMatchObject({ items: [{ id: 100, text: 'Quercus robur', count: 12 }] });
  });
});
