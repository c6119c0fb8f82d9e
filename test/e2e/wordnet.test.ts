// docs/examples.md's dictionary, WordNet's synsets as long labels: the
// section's commands run with `--lex noun.animal,noun.state` (11,057 synsets,
// a tree that builds in seconds), then a phrase and a typo asked through the
// client over a static server.
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseSynset, readSynsets } from '../../scripts/examples/wordnet.js';
import type { LookupClient } from '../../src/client/client.js';
import { fold } from '../../src/client/fold.js';
import { startServe, tempDir, treeClient, type Running } from '../helpers.js';

type Word = { id: string; text: string };
type Page = { total: number; items: Word[] };

const root = tempDir('reflist-wordnet-');
let server: Running;
let client: LookupClient;

const page = readFileSync('docs/examples.md', 'utf8');
const section = /\n## A dictionary: long labels\n([\s\S]*?)(?=\n## |$)/.exec(page)![1]!;
/** The section's two commands, the converter's with the part this test builds, and this test's folder for /tmp/pickers. */
const commands = /```sh\n([\s\S]*?)```/
  .exec(section)![1]!
  .trim()
  .split('\n')
  .map((line, i) => (i === 0 ? `${line} --lex noun.animal,noun.state` : line));

beforeAll(async () => {
  for (const line of commands) execSync(line.replaceAll('/tmp/pickers', root), { stdio: 'pipe' });
  server = await startServe(root);
  client = await treeClient(`${root}/wordnet-dist`, { baseUrl: `${server.url}wordnet-dist/` });
}, 120_000);
afterAll(() => server?.stop());

const ask = async (url: string) => {
  const answer = await client.request(url);
  expect(answer.status).toBe(200);
  return answer.body as Page;
};

test('the section gives the two commands, and says the part this test builds', () => {
  expect(commands.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
    'npx tsx scripts/examples/wordnet.ts',
    'node lib/cli.js build',
  ]);
  expect(section.replaceAll('\n', ' ')).toContain('`--lex noun.animal,noun.state`');
});

test('the config the section shows is the one the script wrote', () => {
  const shown = /```json\n([\s\S]*?)```/.exec(section)![1]!;
  expect(JSON.parse(shown)).toEqual(JSON.parse(readFileSync(`${root}/wordnet/reflist.config.json`, 'utf8')));
});

test('a synset is its part of speech and offset, its first word with spaces, and its gloss up to the first ;', () => {
  const line =
    '00024701 00 s 01 used_to(p) 0 001 & 00024356 a 0000 | in the habit of doing something; "they were used to those long hours"  ';
  expect(parseSynset('a', line)).toEqual({
    id: 'a00024701',
    lex: 'adj.all',
    word: 'used to',
    definition: 'in the habit of doing something',
  });
});

test("WordNet 3.1's 117,791 synsets each have an id of their own, though the four data files share offsets", () => {
  const synsets = readSynsets();
  expect(synsets).toHaveLength(117791);
  expect(new Set(synsets.map((s) => s.id)).size).toBe(117791);
  expect(new Set(synsets.map((s) => s.id[0]))).toEqual(new Set(['n', 'v', 'a', 'r']));
  expect(synsets.every((s) => s.word !== '' && s.definition !== '')).toBe(true);
});

test('the part holds the animals and the states, each a word and its definition', async () => {
  const first = await ask('/word.json');
  expect(first.total).toBe(11057);
  expect((await ask('/word.json?Id=n14171109')).items).toEqual([
    {
      id: 'n14171109',
      text: 'pneumonia: respiratory disease characterized by inflammation of the lung parenchyma (excluding the bronchi) with congestion caused by viruses or bacteria or irritants',
    },
  ]);
});

test('small dog answers the breeds whose definition holds the phrase first, affenpinscher at the top', async () => {
  const { total, items } = await ask('/word.json?Term=small%20dog');
  expect(total).toBe(17);
  expect(items.slice(0, 3).map((w) => w.text.split(':')[0])).toEqual(['affenpinscher', 'Shih-Tzu', 'toy dog']);
  for (const w of items) {
    const words = fold(w.text).split(' ');
    expect([words.some((x) => x.startsWith('small')), words.some((x) => x.startsWith('dog'))]).toEqual([true, true]);
  }
});

test('pnemonia, one typo from pneumonia, answers what pneumonia does, in label order', async () => {
  const typo = await ask('/word.json?Term=pnemonia');
  const right = await ask('/word.json?Term=pneumonia');
  expect(typo.total).toBe(19);
  expect(right.total).toBe(19);
  expect(right.items[0]!.id).toBe('n14171109');
  expect(typo.items.map((w) => w.id).sort()).toEqual(right.items.map((w) => w.id).sort());
  expect(typo.items[0]!.text).toMatch(/^aspergillosis: /);
  expect(typo.items.every((w) => w.text.toLowerCase().includes('pneumonia'))).toBe(true);
});
