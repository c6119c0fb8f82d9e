// An edit's index (updateSearchIndex) against a clean one (buildSearchIndex),
// straight on the index's files, without a build around them: the parts the
// update keeps and those it indexes again are, together, the clean index's
// parts, file for file; or the update declines and the build indexes whole.
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { compareLabels, fold } from '../../src/client/fold.js';
import { buildSearchIndex, type SearchFile, type SearchIndex, updateSearchIndex } from '../../src/search/index.js';
import type { Entry } from '../../src/sources/model.js';
import { heldRecords } from '../../src/sources/record.js';

/** Labels from few letters: long shared prefixes, many tiny runs beside heavy ones. */
const arbLabel = fc
  .array(fc.constantFrom('a', 'b', 'c', 'd', 'q', 'z', '7', 'é', ' ', 'ab', 'ba ', 'abc'), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => parts.join('').trim())
  .filter((text) => text !== '');

/** The list of some labels, each label's id its position: an empty one is a removed row. */
const entriesOf = (labels: string[]): Entry[] =>
  labels
    .map((text, i) => ({ id: i, text, key: fold(text), counts: [] }))
    .filter((e) => e.text !== '')
    .sort(compareLabels);

const encode = (e: Entry) => JSON.stringify([e.id, e.text]);
/** These lists have no children: the index never encodes a record anew. */
const noChildren = (): string => {
  throw new Error('no entry has children');
};

/** Every file of every part, by part name, rendering them (which fills each part's page file names). */
function filesOf(index: SearchIndex): Map<string, SearchFile[]> {
  return new Map(index.fresh.map((part) => [part.meta.name, [...part.files()]]));
}

type Edit = { at: number; text: string | undefined };

test('an index updated after an edit equals the index of the edited list, part for part, or the update declines', () => {
  let updated = 0;
  fc.assert(
    fc.property(
      fc.array(arbLabel, { minLength: 20, maxLength: 160 }),
      fc.array(fc.record({ at: fc.nat(), text: fc.option(arbLabel, { nil: undefined }) }), {
        minLength: 1,
        maxLength: 4,
      }),
      fc.record({
        pageSize: fc.constantFrom(2, 3, 5),
        leafBytes: fc.constantFrom(0, 40, 120, 400),
        fileBytes: fc.constantFrom(0, 60, 300),
        pagesBytes: fc.constantFrom(0, 100),
      }),
      (labels, edits: Edit[], options) => {
        const before = entriesOf(labels);
        const old = buildSearchIndex(before, heldRecords(before.map(encode)), noChildren, options);
        const oldFiles = filesOf(old);
        const after = [...labels];
        const touched: string[] = [];
        for (const { at, text } of edits) {
          const i = at % after.length;
          touched.push(fold(after[i]!));
          // undefined removes the label (an empty one is no entry), else it is renamed.
          after[i] = text ?? '';
          if (text !== undefined) touched.push(fold(text));
        }
        const entries = entriesOf(after);
        const records = heldRecords(entries.map(encode));
        const update = updateSearchIndex(entries, records, noChildren, options, old, touched);
        if (!update) return;
        updated++;
        const freshFiles = filesOf(update);
        const clean = buildSearchIndex(entries, records, noChildren, options);
        const cleanFiles = filesOf(clean);
        expect(update.layout).toEqual(clean.layout);
        expect(update.metas.map((m) => m.name)).toEqual(clean.metas.map((m) => m.name));
        for (const meta of update.metas) {
          const files = freshFiles.get(meta.name) ?? oldFiles.get(meta.name);
          expect(files, meta.name).toEqual(cleanFiles.get(meta.name));
        }
      },
    ),
    { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 300) },
  );
  // The update is not always declined: most of these edits stay within their parts.
  expect(updated).toBeGreaterThan(30);
});
