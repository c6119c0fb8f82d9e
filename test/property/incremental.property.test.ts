// Rebuilds after random edits: each equals a clean build of the edited
// sources byte for byte, and touches exactly the files whose bytes changed.
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { buildTuned } from '../../src/build.js';
import { arbPageSize, arbSources, toCsvFiles } from '../arbitraries.js';
import { pastMtimes, snapshotTree, tempDir, writeSources } from '../helpers.js';
import type { RefSources } from '../reference.js';

type Edit = (src: RefSources) => void;
type Labelled = { id: number; text: string };

const SUFFIXES = [' x', ' (edited)', 'é', ' Smith', ', J.', 'a'];

/** Changes the text of the chosen rows: a suffix, another row's text (a duplicate), or a cut. */
const arbTextEdits = (pick: (src: RefSources) => Labelled[]) =>
  fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('suffix', 'copy', 'cut')), { minLength: 1, maxLength: 3 }).map(
    (picks): Edit =>
      (src) => {
        const rows = pick(src);
        if (rows.length === 0) return;
        for (const [i, j, how] of picks) {
          const row = rows[i % rows.length]!;
          const other = rows[j % rows.length]!;
          if (how === 'suffix') row.text += SUFFIXES[j % SUFFIXES.length];
          else if (how === 'copy') row.text = other.text;
          else if (row.text.trim().length > 1) row.text = row.text.slice(0, Math.max(1, row.text.length - 1 - (j % 3)));
        }
      },
  );

const arbEdit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 6, arbitrary: arbTextEdits((src) => src.author) },
  { weight: 2, arbitrary: arbTextEdits((src) => src.descriptor) },
  { weight: 1, arbitrary: arbTextEdits((src) => [...src.division, ...src.category]) },
  { weight: 1, arbitrary: arbTextEdits((src) => [...src.country, ...src.state]) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.nat(), fc.nat({ max: 1000 })).map(
      ([i, count]): Edit =>
        (src) => {
          const row = src.author_count[i % Math.max(1, src.author_count.length)];
          if (row) row.count = count;
        },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.nat().map(
      (i): Edit =>
        (src) => {
          // A removed author takes its counts along, or the sources would not be valid.
          const gone = src.author.splice(i % Math.max(1, src.author.length), 1)[0];
          if (gone) src.author_count = src.author_count.filter((c) => c.id !== gone.id);
        },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constant<Edit>(
      (src) => void src.author.push({ id: 1 + Math.max(0, ...src.author.map((a) => a.id)), text: 'Zzyzx, Added' }),
    ),
  },
  { weight: 1, arbitrary: fc.constant<Edit>(() => {}) },
);

// Tiny search files, so that small lists already have large prefixes, head parts and several parts per letter.
const arbSearch = fc.record({
  leafBytes: fc.constantFrom(0, 60, 300),
  fileBytes: fc.constantFrom(0, 100, 600),
  pagesBytes: fc.constantFrom(0, 200, 2000),
  // Listed in two levels from 2 or 8 search files on (an edit may cross it), or in one.
  directoryStarts: fc.constantFrom(2, 8, 4096),
});

const mtimes = (root: string, paths: Iterable<string>) =>
  new Map([...paths].map((p) => [p, statSync(join(root, p)).mtimeMs]));

test('a rebuild after any edits equals a clean build and rewrites exactly the files that changed', async () => {
  await fc.assert(
    fc.asyncProperty(
      arbSources({ maxAuthors: 300, maxDescriptors: 60 }),
      arbPageSize,
      arbSearch,
      fc.array(fc.array(arbEdit, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
      async (generated, pageSize, search, steps) => {
        const src = structuredClone(generated); // edited in place: fast-check may run it again while shrinking
        const sources = tempDir('reflist-src-');
        const out = join(tempDir(), 'dist');
        writeSources(sources, toCsvFiles(src));
        await buildTuned({ sources, out, pageSize, search });
        for (const edits of steps) {
          const before = snapshotTree(out);
          const times = mtimes(out, before.keys());
          for (const edit of edits) edit(src);
          writeSources(sources, toCsvFiles(src));
          await pastMtimes(times.values());
          const report = await buildTuned({ sources, out, pageSize, search });
          const clean = join(tempDir(), 'clean');
          // Built with every list's records spilled, the rebuilds with them held: the one tree either way.
          await buildTuned({ sources, out: clean, pageSize, search, spill: 0 });
          const after = snapshotTree(out);
          expect(after).toEqual(snapshotTree(clean));
          const changed = [...after]
            .filter(([path, bytes]) => before.get(path) !== bytes)
            .map(([path]) => path)
            .sort();
          const touched = [...mtimes(out, after.keys())]
            .filter(([path, t]) => times.get(path) !== t)
            .map(([path]) => path)
            .sort();
          expect(touched).toEqual(changed);
          expect(report.written).toBe(changed.length);
        }
      },
    ),
    { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 40) },
  );
}, 600_000);
