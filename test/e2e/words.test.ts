// The words rule on a list of one's own and the phrase rule on the lookup
// service (docs/lists.md, Term search): the same authors, built for real from
// the preset's example rows, asked through the client a tree carries.
import { expect, test } from 'vitest';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PRESETS } from '../../src/config/preset.js';
import { askedOf } from '../asked.js';
import { buildFrom, tempDir, treeClient } from '../helpers.js';
import { SMALL_SEARCH } from '../host-checks.js';

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

/**
 * Plants under search files cut tiny: viola matches more than a pool holds,
 * and so do its matches with a word of t, which no pair pool can hold.
 */
function violas(): string {
  const epithets = ['tricolor', 'tenuis', 'tristis', 'alba', 'odorata', 'arvensis', 'tomentosa', 'canina'];
  const rows = ['id,text'];
  for (let i = 1; i <= 96; i++) rows.push(`${i},Viola ${epithets[i % epithets.length]} Author${i}`);
  // The words the other way round, a t-word first: a later tier.
  rows.push('97,Trifolium violaceum Tausch', '98,Tulipa violacea Boiss', '99,Salix alba L');
  return `${rows.join('\n')}\n`;
}

test('a common word and one letter, which share more than a pool holds, read one file: the pair head, page 1 as the reference answers', async () => {
  const out = join(tempDir(), 'dist');
  const files = { 'plant.csv': violas(), 'reflist.config.json': JSON.stringify({ lists: { plant: {} } }) };
  const pageSize = 5;
  // Room for every word's pairs and heads: a list this small has room for a few bytes of them.
  const { read, answer } = await askedOf(files, out, pageSize, { ...SMALL_SEARCH, pairBytes: 1_000_000 });
  for (const term of ['v', 'vi', 'vio', 'viol', 'viola']) await answer(`/plant.json?Term=${term}`);
  read.length = 0;
  await answer('/plant.json?Term=viola%20t');
  expect(read).toHaveLength(1);
  expect(read[0]).toMatch(/\/plant\/pools\/[0-9a-f]{2}\/[0-9a-f]{14}\.json\.gz$/);
  // Its other pages, the letters with pools of their own, the words the other way round, longer words: as the reference answers.
  for (const term of ['viola t', 'viola a', 'viola c', 't viola', 'viola tr', 'viola tri', 'violaceum t', 'viola  t'])
    for (const page of [1, 2, 3]) await answer(`/plant.json?Term=${encodeURIComponent(term)}&Page=${page}`);
});

test('a common word and a prefix beyond a pool, without a pair pool for its letter, read the word’s wide pool: one file, not every block', async () => {
  const out = join(tempDir(), 'dist');
  const files = { 'plant.csv': violas(), 'reflist.config.json': JSON.stringify({ lists: { plant: {} } }) };
  const pageSize = 5;
  // viola's matches take some 4 KB of records: more than a pool, within a wide pool; and no room for pairs.
  const tuning = { ...SMALL_SEARCH, pairBytes: 4_500, wideBytes: 6_000 };
  const { read, answer } = await askedOf(files, out, pageSize, tuning);
  const ask = (term: string, page = 1) => answer(`/plant.json?Term=${encodeURIComponent(term)}&Page=${page}`);
  await ask('viola');
  await ask('viola t');
  read.length = 0;
  await ask('viola tr');
  expect(read).toHaveLength(1);
  expect(read[0]).toMatch(/\/plant\/pools\//);
  // Typing on reads nothing more, and no order of the words reads a block.
  read.length = 0;
  await ask('viola tri');
  await ask('viola tric');
  expect(read).toEqual([]);
  const terms = ['viola', 'viola t', 'viola tr', 'viola tri', 'viola tric', 'tr viola', 'tricolor viola'];
  for (const term of terms) await ask(term);
  expect(read.filter((url) => url.includes('/blocks/'))).toEqual([]);
  // Every page of each as the reference answers.
  for (const term of terms) for (const page of [2, 3, 4]) await ask(term, page);
  // Without it (no room for one), the same Term reads the blocks viola and tr have matches in: many files.
  const without = await askedOf(files, join(tempDir(), 'dist'), pageSize, { ...tuning, wideBytes: 0 });
  await without.answer('/plant.json?Term=viola%20t');
  without.read.length = 0;
  await without.answer('/plant.json?Term=viola%20tr');
  expect(without.read.filter((url) => url.includes('/blocks/')).length).toBeGreaterThan(3);
});

test('under a parent, the pair head is of the parent’s items: its page 1 as the reference answers, in one file', async () => {
  const out = join(tempDir(), 'dist');
  const plants = violas()
    .trimEnd()
    .split('\n')
    .map((row, i) => (i === 0 ? `${row},family_id` : `${row},${Number(row.split(',')[0]) % 7 === 0 ? 2 : 1}`));
  const files = {
    'family.csv': 'id,name\n1,Violaceae\n2,Fabaceae\n',
    'plant.csv': `${plants.join('\n')}\n`,
    'reflist.config.json': JSON.stringify({
      lists: {
        family: { label: 'name', shape: 'whole' },
        plant: { parent: { list: 'family', column: 'family_id' } },
      },
    }),
  };
  const pageSize = 5;
  // Room for every word's pairs and heads, as above.
  const { read, answer } = await askedOf(files, out, pageSize, { ...SMALL_SEARCH, pairBytes: 1_000_000 });
  for (const term of ['v', 'vi', 'vio', 'viol', 'viola']) await answer(`/family/1/plant.json?Term=${term}`);
  read.length = 0;
  await answer('/family/1/plant.json?Term=viola%20t');
  expect(read).toHaveLength(1);
  expect(read[0]).toMatch(/\/family\/~plant\/pools\//);
  for (const family of [1, 2])
    for (const term of ['viola t', 'viola a', 't viola', 'viola tr'])
      for (const page of [1, 2])
        await answer(`/family/${family}/plant.json?Term=${encodeURIComponent(term)}&Page=${page}`);
});
