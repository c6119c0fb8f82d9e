// The words rule on a list of one's own and the phrase rule on the lookup
// service (docs/lists.md, Term search): the same authors, built for real from
// the preset's example rows, asked through the client a tree carries.
import { expect, test } from 'vitest';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PRESETS } from '../../src/config/preset.js';
import { buildFrom, tempDir, treeClient } from '../helpers.js';

const AUTHORS = PRESETS['lookup-service'].sources.find((s) => s.file === 'author.csv')!.text;

async function authorsAnswer(config: object | undefined, url: string) {
  const out = join(tempDir(), 'dist');
  await buildFrom({ 'author.csv': AUTHORS, ...(config ? { 'reflist.config.json': JSON.stringify(config) } : {}) }, out);
  const client = await treeClient(out, { baseUrl: pathToFileURL(`${out}/`) });
  return (await client.request(url)).body;
}

test('the authors declared as a list of one’s own answer john smith with Smith, John', async () => {
  expect(await authorsAnswer({ lists: { author: {} } }, '/author.json?Term=john%20smith')).toEqual({
    total: 1,
    items: [{ id: 2, text: 'Smith, John' }],
  });
});

test('the lookup service keeps its contract: john smith is no phrase of any author, smith j is', async () => {
  expect(await authorsAnswer(undefined, '/author.json?Term=john%20smith')).toEqual({ total: 0, items: [] });
  expect(await authorsAnswer(undefined, '/author.json?Term=smith%20j')).toEqual({
    total: 1,
    items: [{ id: 2, text: 'Smith, John' }],
  });
});

test('a list of one’s own forgives a typo, unless it says "typos": false', async () => {
  const typo = '/author.json?Term=smiht';
  expect(await authorsAnswer({ lists: { author: {} } }, typo)).toEqual({
    total: 1,
    items: [{ id: 2, text: 'Smith, John' }],
  });
  expect(await authorsAnswer({ lists: { author: { search: { typos: false } } } }, typo)).toEqual({
    total: 0,
    items: [],
  });
});

test('a typo answer keeps only the items with the fewest typos, in list order, and pages them', async () => {
  const out = join(tempDir(), 'dist');
  const places = 'id,text\n1,Wishington\n2,Washington\n3,Washington Heights\n4,Wishingtown\n5,Walsingham\n';
  await buildFrom({ 'place.csv': places, 'reflist.config.json': JSON.stringify({ lists: { place: {} } }) }, out, 1);
  const client = await treeClient(out, { baseUrl: pathToFileURL(`${out}/`) });
  const ask = async (url: string) => (await client.request(url)).body;
  // washingtn is one typo from the start of Washington, two from Wishington's: only the fewest count.
  expect(await ask('/place.json?Term=washingtn')).toEqual({ total: 2, items: [{ id: 2, text: 'Washington' }] });
  expect(await ask('/place.json?Term=washingtn&Page=2')).toEqual({
    total: 2,
    items: [{ id: 3, text: 'Washington Heights' }],
  });
  // Every word's typos count: heights is exact, washingtn one typo; wishingtn heights two.
  expect(await ask('/place.json?Term=heights%20wishingtn')).toEqual({
    total: 1,
    items: [{ id: 3, text: 'Washington Heights' }],
  });
});
