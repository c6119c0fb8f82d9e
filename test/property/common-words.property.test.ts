// Terms made of common words (docs/search-index.md, Common words): random
// lists whose every text is made of a few words, so that words and prefixes
// match more than a pool holds, built with random room for pair pools, pair
// heads and wide pools (none, some, all), and asked Terms of two or three of
// those words and prefixes, in any order, page by page, through the client a
// tree carries: every answer held to the brute-force reference's. Between
// them, the cases read every way a Term of such words has: pair pools, pair
// heads, wide pools and the record blocks.
import { test } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { askedOf } from '../asked.js';
import { tempDir } from '../helpers.js';
import { SMALL_SEARCH } from '../host-checks.js';

const GENERA = ['viola', 'violetta', 'salix', 'sal'];
const EPITHETS = ['tricolor', 'tristis', 'tenuis', 'alba', 'arvensis', 'saliva', 'été'];
const AUTHORS = ['l', 'thunb', 'tausch', 'boiss', 'smith'];

/** A text of a genus, an epithet and an author, now and then the other way round. */
const arbText = fc
  .tuple(fc.constantFrom(...GENERA), fc.constantFrom(...EPITHETS), fc.constantFrom(...AUTHORS), fc.boolean())
  .map(([g, e, a, turned]) => (turned ? `${e} ${g} ${a}` : `${g} ${e} ${a}`));

/** A word of the texts, whole (as a Term's first words are, as a rule) or cut short. */
const arbWord = fc
  .tuple(fc.constantFrom(...GENERA, ...EPITHETS, ...AUTHORS), fc.boolean(), fc.integer({ min: 1, max: 4 }))
  .map(([w, whole, n]) => (whole ? w : [...w].slice(0, n).join('')));

/** A Term: a genus and a word as people type a name, or any two or three words. */
const arbTerm = fc.oneof(
  fc.tuple(fc.constantFrom(...GENERA), arbWord),
  fc.array(arbWord, { minLength: 2, maxLength: 3 }),
);

const arbCase = fc.record({
  texts: fc.array(arbText, { minLength: 30, maxLength: 120 }),
  underParent: fc.boolean(),
  pageSize: fc.constantFrom(2, 5, 30),
  pairBytes: fc.constantFrom(0, 3_000, 1_000_000),
  wideBytes: fc.constantFrom(0, 1_600, 100_000),
  terms: fc.array(arbTerm, { minLength: 4, maxLength: 10 }),
});

test('Terms of common words answer like the reference, whatever room pair pools, pair heads and wide pools have', async () => {
  await fc.assert(
    fc.asyncProperty(arbCase, async ({ texts, underParent, pageSize, pairBytes, wideBytes, terms }) => {
      const rows = texts.map((text, i) => (underParent ? `${i + 1},${text},${(i % 3) + 1}` : `${i + 1},${text}`));
      const files: Record<string, string> = underParent
        ? {
            'family.csv': 'id,name\n1,Violaceae\n2,Salicaceae\n3,Fabaceae\n',
            'plant.csv': `id,text,family_id\n${rows.join('\n')}\n`,
            'reflist.config.json': JSON.stringify({
              lists: {
                family: { label: 'name', shape: 'whole' },
                plant: { parent: { list: 'family', column: 'family_id' } },
              },
            }),
          }
        : {
            'plant.csv': `id,text\n${rows.join('\n')}\n`,
            'reflist.config.json': JSON.stringify({ lists: { plant: {} } }),
          };
      const { answer } = await askedOf(files, join(tempDir(), 'dist'), pageSize, {
        ...SMALL_SEARCH,
        pairBytes,
        wideBytes,
      });
      const path = underParent ? '/family/1/plant.json' : '/plant.json';
      for (const words of terms) {
        const term = encodeURIComponent(words.join(' '));
        for (const page of [1, 2, 3]) await answer(`${path}?Term=${term}&Page=${page}`);
      }
    }),
    { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 30) },
  );
});
