// Term's tiers (src/client/rank.ts, docs/lists.md "Term search"): the one
// definition the client ranks with and the builder's index ranks its keys
// with, by the phrase rule and the words rule; the typos the words rule
// forgives (typos.ts) and what a widget marks of a label (highlight.ts).
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { fold } from '../../src/client/fold.js';
import {
  AT_COLUMN,
  AT_COLUMN_WORD,
  AT_TEXT,
  AT_TEXT_FIRST,
  AT_TEXT_WORD,
  byTier,
  COLUMN,
  EXACT,
  foldTexts,
  itemTier,
  keyTier,
  MIXED,
  NONE,
  rankTexts,
  SCATTERED,
  START,
  textTier,
  WORD,
  type KeyAt,
  type ItemTexts,
  type Tier,
} from '../../src/client/rank.js';
import { highlight } from '../../src/client/highlight.js';
import { itemTypos, typoAllowance, typoCost } from '../../src/client/typos.js';
import { collectPairs } from '../../src/search/keys.js';
import { keyAt } from '../../src/search/types.js';
import { skipsOf, skipText, type Blocks } from '../../src/search/blocks.js';
import { labelled, type Entry } from '../../src/sources/model.js';

describe('the tiers', () => {
  // [what a user sees, the item, the Term, exact, its tier]
  const CASES: [string, ItemTexts, string, boolean, Tier][] = [
    ['a text that is the Term is exact, first, in a list that asks for it', { text: 'German' }, 'german', true, EXACT],
    ['a text that is the Term starts with it where exact is not declared', { text: 'German' }, 'german', false, START],
    ['a text that starts with the Term is tier 1', { text: 'San Francisco' }, 'san', true, START],
    ['a text whose later word starts with the Term is tier 2', { text: 'San Francisco' }, 'francisco', true, WORD],
    [
      'a later word that is the Term is still tier 2: only the whole text is exact',
      { text: 'New York' },
      'york',
      true,
      WORD,
    ],
    ['a searched column that is the Term is exact', { text: 'German', columns: ['de', 'deu'] }, 'de', true, EXACT],
    [
      'a searched column that starts with the Term is tier 4',
      { text: 'German', columns: ['de', 'deu'] },
      'de',
      false,
      COLUMN,
    ],
    [
      'a searched column whose later word starts with the Term is tier 4',
      { text: 'Quercus robur', columns: ['English oak'] },
      'oa',
      true,
      COLUMN,
    ],
    ['a text match beats a column match', { text: 'Deutsch', columns: ['de'] }, 'deu', true, START],
    ['an exact column beats a text match', { text: 'Deutsch', columns: ['deu'] }, 'deu', true, EXACT],
    [
      "a child's label that is the Term makes its parent exact",
      { text: 'Reptiles', children: ['Snakes', 'Boa'] },
      'boa',
      true,
      EXACT,
    ],
    [
      "a child's label that starts with the Term ranks its parent tier 1",
      { text: 'Reptiles', children: ['Snakes'] },
      'sna',
      true,
      START,
    ],
    [
      "a child's later word ranks its parent tier 2",
      { text: 'Reptiles', children: ['Grass snakes'] },
      'sna',
      true,
      WORD,
    ],
    ['texts fold before they compare: accents, case, punctuation', { text: 'Zürich (ZH)' }, 'zurich zh', true, EXACT],
    ['a Term inside a word matches nothing', { text: 'Frankfurt' }, 'furt', true, NONE],
    ['nothing matches nothing', { text: 'Paris', columns: ['fr'], children: ['Louvre'] }, 'x', true, NONE],
  ];
  test.each(CASES)('%s', (_what, item, term, exact, tier) => {
    expect(itemTier(item, fold(term), exact)).toBe(tier);
  });

  test('the tiers are numbered as they rank: 0 (exact), 1 to 5, and no match after them', () => {
    expect([EXACT, START, WORD, SCATTERED, COLUMN, MIXED, NONE]).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  test('an answer lists tier 0, then 1 to 5, each in list order, and leaves out what does not match', () => {
    const items = ['a1', 'b4', 'c0', 'd2', 'e-', 'f1', 'g0', 'h5', 'i3'];
    const tiers = [START, COLUMN, EXACT, WORD, NONE, START, EXACT, MIXED, SCATTERED] as Tier[];
    expect(byTier(items, tiers)).toEqual(['c0', 'g0', 'a1', 'f1', 'd2', 'i3', 'b4', 'h5']);
  });
});

describe('the words rule', () => {
  // [what a user sees, the item, the Term, exact, its tier by the words rule]
  const CASES: [string, ItemTexts, string, boolean, Tier][] = [
    ['words in another order are tier 3', { text: 'San Francisco' }, 'francisco san', false, SCATTERED],
    [
      'every word is a prefix, not only the last',
      { text: 'Fracture of shaft of right femur' },
      'fract fem',
      false,
      SCATTERED,
    ],
    ['the phrase still ranks as the phrase rule ranks it', { text: 'San Francisco' }, 'san fr', true, START],
    ['the phrase at a later word is tier 2', { text: 'Puerto San José' }, 'san jo', true, WORD],
    ['a word that starts no word leaves the item out', { text: 'San Francisco' }, 'san diego', false, NONE],
    ['a name given first name first', { text: 'Smith, John' }, 'john smith', false, SCATTERED],
    ['two words may start one word', { text: 'Sanaa' }, 'san sana', false, SCATTERED],
    ['two words may start the same word', { text: 'Santa Cruz' }, 'santa san', false, SCATTERED],
    [
      'a word found only in a searched column makes the item tier 5, after every text match',
      { text: 'Type 1 diabetes mellitus with kidney complications', columns: ['E10.2'] },
      'diabetes type 2',
      false,
      MIXED,
    ],
    [
      'the words in the text alone rank before a column',
      { text: 'Type 2 diabetes mellitus without complications', columns: ['E11.9'] },
      'diabetes type 2',
      false,
      SCATTERED,
    ],
    [
      'the phrase in a column is tier 4',
      { text: 'Sankt Pölten', columns: ['Sankt Poelten'] },
      'sankt poel',
      false,
      COLUMN,
    ],
    [
      "one child's label holding every word ranks its parent",
      { text: 'Animals', children: ['Grass snakes'] },
      'snake grass',
      false,
      SCATTERED,
    ],
    [
      "two children's labels together do not",
      { text: 'Animals', children: ['Grass', 'Snakes'] },
      'snake grass',
      false,
      NONE,
    ],
    ['with exact, a text that is the Term is tier 0', { text: 'San Jose' }, 'san jose', true, EXACT],
  ];
  test.each(CASES)('%s', (_what, item, term, exact, tier) => {
    expect(itemTier(item, fold(term), exact, true)).toBe(tier);
  });

  test('of one word, the words rule ranks as the phrase rule', () => {
    const items: ItemTexts[] = [
      { text: 'San Francisco' },
      { text: 'German', columns: ['de', 'deu'] },
      { text: 'Reptiles', children: ['Grass snakes', 'Boa'] },
      { text: 'Zürich (ZH)' },
    ];
    for (const item of items)
      for (const q of ['san', 'francisco', 'de', 'deu', 'sna', 'boa', 'zh', 'x'])
        for (const exact of [false, true]) expect(itemTier(item, q, exact, true)).toBe(itemTier(item, q, exact));
  });

  test('a parent keeps every child when its own text matches, else the children that match', () => {
    const f = foldTexts({ text: 'Reptiles', children: ['Grass snakes', 'Boa', 'Sea snakes'] });
    expect(rankTexts(f, 'snake sea', false, true).children).toEqual([2]);
    expect(rankTexts(f, 'rept', false, true).children).toEqual([0, 1, 2]);
  });
});

describe('typos', () => {
  // [what a user sees, the Term word, the item word, the typos]
  const CASES: [string, string, string, number][] = [
    ['a word that starts the item word has none', 'franc', 'francisco', 0],
    ['a letter substituted is one', 'fransisco', 'francisco', 1],
    ['a letter left out is one', 'pnemonia', 'pneumonia', 1],
    ['a letter put in is one', 'asthama', 'asthma', 1],
    ['two letters swapped are one', 'fratcure', 'fracture', 1],
    ['a word with a typo may still be a prefix', 'fransi', 'francisco', 1],
    ['two typos in a word of 9 letters', 'fransiscoo', 'francisco', 2],
    ['the first letter is never a typo', 'bracture', 'fracture', Infinity],
    ['nor two letters swapped at the start', 'rfacture', 'fracture', Infinity],
  ];
  test.each(CASES)('%s', (_what, t, w, typos) => {
    expect(typoCost(t, w, typoAllowance(t))).toBe(typos);
  });

  test('a word may have 1 typo from 5 letters and 2 from 9, none below 5 nor with a digit', () => {
    expect(['arow', 'arrow', 'fransisc', 'fransisco', 'e11a9', 'ΑΒΓΔΕ'].map(typoAllowance)).toEqual([0, 1, 1, 2, 0, 1]);
  });

  test("an item's typos are the sum over the Term's words, the least over its own texts or one child's label", () => {
    expect(itemTypos(foldTexts({ text: 'San Francisco' }), 'san fransisco').typos).toBe(1);
    expect(itemTypos(foldTexts({ text: 'San Francisco' }), 'sna fransisco').typos).toBe(Infinity);
    expect(itemTypos(foldTexts({ text: 'Animals', children: ['Grass snakes'] }), 'grasss snakse')).toEqual({
      typos: 2,
      own: Infinity,
      children: [2],
    });
  });
});

describe('highlighting', () => {
  const marked = (label: string, term: string, typos = true) =>
    highlight(label, term, { typos }).map(([a, b]) => label.slice(a, b));

  test('marks each word a Term word starts, as far as it goes, in any order', () => {
    expect(marked('Fracture of shaft of right femur', 'fem fract')).toEqual(['Fract', 'fem']);
  });

  test('marks the letters as written, accents and case kept, a mark with its letter', () => {
    expect(marked('Crème brûlée', 'creme bru')).toEqual(['Crème', 'brû']);
    expect(marked('Cre\u0300me', 'cre')).toEqual(['Cre\u0300']);
  });

  test('marks what a word with typos matched, unless typos are off', () => {
    expect(marked('San Francisco', 'san fransi')).toEqual(['San', 'Franci']);
    expect(marked('San Francisco', 'san fransi', false)).toEqual(['San']);
  });

  test('marks the text of a label holding markup as text: ranges, never HTML', () => {
    expect(marked('<img src=x onerror=alert(1)>', 'img onerr')).toEqual(['img', 'onerr']);
  });

  test('marks nothing for an empty Term or one that matches nothing', () => {
    expect(highlight('San Francisco', '  ')).toEqual([]);
    expect(highlight('San Francisco', 'xyz')).toEqual([]);
  });
});

describe('the keys of the index', () => {
  // Every way a key can stand in its item, and whether the query is the whole key.
  const KEYS: [KeyAt, boolean, boolean, Tier][] = [
    [AT_TEXT_FIRST, true, true, START],
    [AT_TEXT_FIRST, false, true, START],
    [AT_TEXT, false, false, START],
    [AT_TEXT, true, false, START],
    [AT_TEXT, true, true, EXACT],
    [AT_TEXT, false, true, START],
    [AT_TEXT_WORD, false, true, WORD],
    [AT_TEXT_WORD, true, true, WORD],
    [AT_COLUMN, false, true, COLUMN],
    [AT_COLUMN, true, true, EXACT],
    [AT_COLUMN, true, false, COLUMN],
    [AT_COLUMN_WORD, true, true, COLUMN],
    [AT_COLUMN_WORD, false, false, COLUMN],
  ];
  test.each(KEYS)('a key at %i, the whole key asked: %s, exact: %s, is in tier %i', (at, equal, exact, tier) => {
    expect(keyTier(at, equal, exact)).toBe(tier);
  });

  test("a text's tier is the best of its keys' that the Term starts, as the index reckons it", () => {
    const texts = ['san jose', 'jose san', 'san', 'sanaa san', 'a b c'];
    for (const text of texts) {
      const keys = [
        [text, AT_TEXT] as const,
        ...[...text.matchAll(/ /g)].map((m) => [text.slice(m.index + 1), AT_TEXT_WORD] as const),
      ];
      for (const q of ['s', 'san', 'san ', 'jose', 'a b', 'c', 'x', 'san jose']) {
        for (const exact of [false, true]) {
          const best = Math.min(
            NONE,
            ...keys.filter(([key]) => key.startsWith(q)).map(([key, at]) => keyTier(at, key === q, exact)),
          );
          expect({ text, q, exact, tier: textTier(text, q, exact) }).toEqual({ text, q, exact, tier: best });
        }
      }
    }
  });

  test('the index keeps both keys of one word when each ranks better for some query, else the better one', () => {
    const entry = (text: string, fields: string[]): Entry => ({ ...labelled({ id: 1, text }), counts: [], fields });
    const pairsOf = (exact: boolean) => {
      const e = entry('Old de', ['de']);
      const pairs = collectPairs([e], undefined, { exact, columns: [['de']] });
      return Array.from(pairs.at, (at, i) => `${keyAt(pairs, i)}@${at}`);
    };
    // "de" is a later word of the text (tier 2) and the whole searched column (tier 3, or 0 when the Term is "de" and exact).
    expect(pairsOf(false)).toEqual(['de@1', 'old de@0']);
    expect(pairsOf(true)).toEqual(['de@1', 'de@2', 'old de@0']);
  });

  test("the words rule's keys are the words, the first of a longer text never exact", () => {
    const e: Entry = { ...labelled({ id: 1, text: 'San Jose de San' }), counts: [], fields: ['sj'] };
    const pairs = collectPairs([e], undefined, { exact: true, words: true, columns: [['sj']] });
    expect(Array.from(pairs.at, (at, i) => `${keyAt(pairs, i)}@${at}`)).toEqual(['de@1', 'jose@1', 'san@4', 'sj@2']);
  });

  test('the keys come sorted by code unit, each with its entries in list order, however their first two units fall', () => {
    // Units at the edges of the groups the keys are kept in: one-unit keys, the last unit, surrogates, a space.
    const unit = fc.constantFrom('a', 'b', ' ', '\u0000', '\uffff', '\ud83d', '\ude00', 'é');
    const label = fc.array(unit, { minLength: 1, maxLength: 4 }).map((u) => u.join(''));
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 30 }), (texts) => {
        const entries = texts.map((key) => ({ key }));
        const pairs = collectPairs(entries, (_, start) => start === 0);
        const expected = texts
          .map((key, e) => [key, e] as const)
          .sort(([a, e], [b, f]) => (a < b ? -1 : a > b ? 1 : e - f));
        expect(Array.from(pairs.owners, (e, i) => [keyAt(pairs, i), e])).toEqual(expected);
        // Every key once, sorted.
        expect(pairs.distinct).toEqual([...new Set(texts)].sort());
      }),
    );
  });
});

describe("a skipped word's skip file", () => {
  test('names each block its matches are in once, in list order, with its matches counted by tier', () => {
    const tier = fc.constantFrom(EXACT, START, WORD, 4);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.record({ e: fc.nat(), tier }), { maxLength: 80 }),
        (blockOf, picks) => {
          const matches = Int32Array.from(picks, ({ e }) => e % blockOf.length);
          const tiers = Uint8Array.from(picks, (p) => p.tier);
          const text = skipText(skipsOf(matches, tiers, Int32Array.from(blockOf)), {
            names: Array.from({ length: 41 }, (_, b) => `b${b}`),
          } as Blocks);
          // Each block's counts by tier, brute force.
          const byBlock = new Map<number, number[]>();
          matches.forEach((e, k) => {
            const counts = byBlock.get(blockOf[e]!) ?? [0, 0, 0, 0];
            counts[[EXACT, START, WORD, 4].indexOf(tiers[k]!)]!++;
            byBlock.set(blockOf[e]!, counts);
          });
          const rows = [...byBlock].sort(([a], [b]) => a - b).map(([b, counts]) => [`b${b}`, ...counts]);
          expect(JSON.parse(text)).toEqual({ blocks: rows });
        },
      ),
    );
  });
});
