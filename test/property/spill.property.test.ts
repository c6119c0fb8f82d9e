// A list's records spilled to a file (src/write/spill.ts) read back as they
// were written, whatever their sizes, their characters and the order they
// are asked in; held below the size, as a build of a small list holds them.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spillingOver } from '../../src/write/spill.js';
import { tempDir } from '../helpers.js';

/** A record: short, or longer than what a spilled list reads at once (16 KB), of any characters. */
const arbRecord = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 10_000, maxLength: 40_000 }) },
);

describe('records spilled past a size', () => {
  test('read back as written, record by record and byte for byte, in any order, spilled or held', () => {
    const dir = tempDir('reflist-spill-');
    fc.assert(
      fc.property(
        fc.array(arbRecord, { maxLength: 60 }),
        fc.constantFrom(0, 100, 50_000, Infinity),
        fc.array(fc.nat(), { maxLength: 200 }),
        (records, over, asked) => {
          const store = spillingOver(over, dir)(records.length, (e) => records[e]!);
          try {
            expect(store.length).toBe(records.length);
            // In order, then in a random order, where a read may fall in the window of the one before it.
            const order = [...records.keys(), ...asked.map((n) => n % Math.max(1, records.length))];
            for (const e of order.filter((e) => e < records.length)) {
              expect(store.at(e)).toBe(records[e]);
              expect(store.bytes(e)).toBe(Buffer.byteLength(records[e]!));
            }
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 100) },
    );
    // Every file was unlinked as soon as it was open: none stays behind, whatever became of the store.
    expect(readdirSync(dir)).toEqual([]);
  });

  test('asks for each record once, in order, however often it is read back', () => {
    const made: number[] = [];
    const store = spillingOver(0, tempDir('reflist-spill-'))(3, (e) => {
      made.push(e);
      return `[${e},"r"]`;
    });
    expect([store.at(2), store.at(0), store.at(2)]).toEqual(['[2,"r"]', '[0,"r"]', '[2,"r"]']);
    store.close();
    expect(made).toEqual([0, 1, 2]);
  });

  test('a folder it cannot write in fails the build with an IO error located there', () => {
    const missing = join(tempDir('reflist-spill-'), 'gone');
    expect(() => spillingOver(0, missing)(2, () => '[1,"a"]')).toThrow(
      expect.objectContaining({ code: 'IO', errno: 'ENOENT', file: expect.stringContaining(missing) }),
    );
  });
});
