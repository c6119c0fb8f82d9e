// The one error type as a person reads it: located lines, a count past 100,
// each hint once, invisible characters shown, and did you mean.
import { expect, test } from 'vitest';
import { didYouMean, errorLines, ReflistError, ReflistErrors, suggest, visible } from '../../src/errors.js';

test.each([
  ['txet', ['id', 'text'], 'text'], // one letter swapped
  ['Text', ['id', 'text'], 'text'], // case aside
  ['country', ['id', 'country_code', 'name'], 'country_code'], // a column named by its first word
  ['code', ['id', 'countryCode'], 'countryCode'], // or its last
  ['population', ['id', 'name'], undefined], // nothing close
  ['id', ['ident', 'name'], undefined], // too short to be a word of another
])('%s among %j suggests %s', (word, candidates, expected) => {
  expect(suggest(word, candidates)).toBe(expected);
});

test('did you mean is a clause to append, or nothing', () => {
  expect(didYouMean('txet', ['text'])).toBe(' (did you mean "text"?)');
  expect(didYouMean('population', ['id'])).toBe('');
});

test('an error reads file:line: message, and a hint shared by many errors is printed once, after them', () => {
  const hint = 'author.csv looks split by ";": declare "delimiter": ";"';
  const errors = new ReflistErrors([
    new ReflistError('MISSING_COLUMN', 'no column "id"', { file: 'author.csv', line: 1 }, hint),
    new ReflistError('MISSING_COLUMN', 'no column "text"', { file: 'author.csv', line: 1 }, hint),
  ]);
  expect(errorLines(errors)).toEqual([
    'author.csv:1: no column "id"',
    'author.csv:1: no column "text"',
    `hint: ${hint}`,
  ]);
});

test('past 100 errors, the rest are counted', () => {
  const errors = new ReflistErrors(
    Array.from(
      { length: 102 },
      (_, i) => new ReflistError('INVALID_VALUE', `row ${i}`, { file: 'a.csv', line: i + 2 }),
    ),
  );
  const lines = errorLines(errors);
  expect(lines).toHaveLength(101);
  expect(lines.at(-1)).toBe('… and 2 more errors');
});

test('invisible characters are shown by their code points, a plain space as it is', () => {
  expect(visible('\uFEFFid\u200B a\u00A0b\tc')).toBe('<U+FEFF>id<U+200B> a<U+00A0>b<U+0009>c');
});
