// Term's tiers (src/client/rank.ts, docs/lists.md "Term search"): the one
// definition the client ranks with and the builder's index ranks its keys with.
import { describe, expect, test } from 'vitest';
import { fold } from '../src/client/fold.js';
import {
  AT_COLUMN,
  AT_COLUMN_WORD,
  AT_TEXT,
  AT_TEXT_WORD,
  byTier,
  COLUMN,
  EXACT,
  itemTier,
  keyTier,
  NONE,
  START,
  textTier,
  WORD,
  type KeyAt,
  type ItemTexts,
  type Tier,
} from '../src/client/rank.js';
import { collectPairs } from '../src/search/keys.js';
import { labelled, type Entry } from '../src/sources/model.js';

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
      'a searched column that starts with the Term is tier 3',
      { text: 'German', columns: ['de', 'deu'] },
      'de',
      false,
      COLUMN,
    ],
    [
      'a searched column whose later word starts with the Term is tier 3',
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

  test('the tiers are numbered as they rank: 0 (exact), 1, 2, 3, and no match after them', () => {
    expect([EXACT, START, WORD, COLUMN, NONE]).toEqual([0, 1, 2, 3, 4]);
  });

  test('an answer lists tier 0, then 1, 2 and 3, each in list order, and leaves out what does not match', () => {
    const items = ['a1', 'b3', 'c0', 'd2', 'e-', 'f1', 'g0'];
    const tiers = [START, COLUMN, EXACT, WORD, NONE, START, EXACT] as Tier[];
    expect(byTier(items, tiers)).toEqual(['c0', 'g0', 'a1', 'f1', 'd2', 'b3']);
  });

  // Every way a key can stand in its item, and whether the query is the whole key.
  const KEYS: [KeyAt, boolean, boolean, Tier][] = [
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
      const { keys, at } = collectPairs([e], undefined, { exact, columns: [['de']] });
      return keys.map((key, i) => `${key}@${at[i]}`);
    };
    // "de" is a later word of the text (tier 2) and the whole searched column (tier 3, or 0 when the Term is "de" and exact).
    expect(pairsOf(false)).toEqual(['de@1', 'old de@0']);
    expect(pairsOf(true)).toEqual(['de@1', 'de@2', 'old de@0']);
  });
});
