// The model's own shortcuts must agree with the definitions they stand for.
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { fold } from '../src/client/fold.js';
import { createFolder } from '../src/model.js';

// Pieces where fold is most likely to look across a space: final sigma,
// Hangul jamo that compose, marks after a space, letters that fold to two.
const PIECES = [
  ' ', '  ', 'Σ', 'σ', 'ς', 'ΟΔΟΣ', '.', "'", '-', ',', 'ᄀ', 'ᅡ', 'ᆨ', '가', 'ㄱ', 'ㅏ', '\u0301', '\u0308', 'e', 'E', 'İ', 'ß', 'Æ',
  'ﬁ', 'Ⅻ', '²', '½', 'ǅ', 'ǈ', '\u200d', '\t', '\u00a0', '𝔄', '😀', 'ｶﾞ', 'ガ', '゛', 'Smith', 'José', 'Ørsted', 'Ιωάννης', '王', '\ud800',
];

test('folding labels word by word with a cache gives fold() of every label', () => {
  const folder = createFolder();
  const arbLabel = fc.oneof(
    fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((pieces) => pieces.join('')),
    fc.string({ unit: 'binary', maxLength: 12 }),
  );
  fc.assert(fc.property(fc.array(arbLabel, { minLength: 1, maxLength: 20 }), (labels) => {
    for (const label of labels) expect(folder(label)).toBe(fold(label));
  }), { numRuns: 2000 });
});
