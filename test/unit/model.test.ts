// A list's declared order (docs/lists.md, Order): src/sources/model.ts sorts
// every list by it before anything is rendered, ties by the default order;
// and the fields it sorts by, as the check reads them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { checkConfig, type OrderKey } from '../../src/config/declaration.js';
import { sectionsOf } from '../../src/config/sections.js';
import { checkSources } from '../../src/sources/check.js';
import { labelled, sortInOrder, type Value } from '../../src/sources/model.js';
import { idOrder, laterRows } from '../../src/sources/validate.js';
import type { ReflistError } from '../../src/errors.js';

/** Items with fields [population, name]. */
const item = (id: number, text: string, population: number, name: string) => ({
  ...labelled({ id, text }),
  fields: [population, name] as Value[],
});
const ITEMS = [
  item(1, 'Wien', 1897491, 'Wien'),
  item(2, 'Graz', 291072, 'Graz'),
  item(3, 'Linz', 207247, ''),
  item(4, 'Salzburg', 155021, 'Salzburg'),
  item(5, 'Ätna', 291072, 'Etna'),
  item(6, 'graz', 291072, 'graz'),
  item(7, 'Graz', 291072, 'Graz'),
];

describe('a declared order', () => {
  // [what a user sees, the order keys, the ids in order]
  const CASES: [string, OrderKey[] | undefined, number[]][] = [
    ['without one, the default order: fold(label), then the label, then the id', undefined, [5, 2, 7, 6, 3, 4, 1]],
    ['a descending number, ties in the default order', [{ field: 0, descending: true }], [1, 5, 2, 7, 6, 3, 4]],
    ['an ascending number, ties in the default order', [{ field: 0, descending: false }], [4, 3, 5, 2, 7, 6, 1]],
    [
      'a string by code unit, no locale: an empty one first, capitals before small letters',
      [{ field: 1, descending: false }],
      [3, 5, 2, 7, 4, 1, 6],
    ],
    ['a descending string puts an empty one last', [{ field: 1, descending: true }], [6, 1, 4, 2, 7, 5, 3]],
    [
      'a second key orders the ties of the first',
      [
        { field: 0, descending: true },
        { field: 1, descending: true },
      ],
      [1, 6, 2, 7, 5, 3, 4],
    ],
  ];
  test.each(CASES)('%s', (_what, order, ids) => {
    expect(sortInOrder([...ITEMS], order).map((it) => it.id)).toEqual(ids);
  });
});

describe('the fields as read', () => {
  test('rows with equal fields share one array of them, and a number too large for JSON is not taken for an empty cell', () => {
    const dir = mkdtempSync(join(process.env['REFLIST_TEST_TMP'] ?? tmpdir(), 'fields-'));
    writeFileSync(join(dir, 'city.csv'), 'id,name,size\n1,A,5\n2,B,\n3,C,1e999\n4,D,5\n5,E,\n');
    const config = { lists: { city: { label: 'name', fields: { size: { type: 'number', optional: true } } } } };
    const { declaration } = checkConfig(config, 'reflist.config.json');
    const items = checkSources(dir, declaration!, sectionsOf(declaration!)).items['city']!;
    expect(items.map((it) => it.fields)).toEqual([[5], [null], [Infinity], [5], [null]]);
    expect(items[3]!.fields).toBe(items[0]!.fields);
    expect(items[4]!.fields).toBe(items[1]!.fields);
    // Descending, an empty cell last and the largest number first.
    expect(sortInOrder(items, [{ field: 0, descending: true }]).map((it) => it.id)).toEqual([3, 1, 4, 2, 5]);
  });
});

describe('the duplicates of a list', () => {
  test('are the rows whose key a row before them has, each told of the first, however the rows are ordered', () => {
    const id = fc.constantFrom('a', 'A', 'b', 'B', 'ab', 'aB', 'c');
    fc.assert(
      fc.property(fc.array(id, { maxLength: 40 }), (ids) => {
        const errors: ReflistError[] = [];
        const later = laterRows('x.csv', errors, {
          count: ids.length,
          compare: idOrder(ids, true),
          id: (i) => ids[i]!,
          line: (i) => i + 2,
          what: (_, x) => `id ${x}`,
        });
        // Brute force: the first row of each key, in the order read; a later row's line and its message's start.
        const first = new Map<string, number>();
        const expected: [number, string][] = [];
        ids.forEach((x, i) => {
          const f = first.get(x.toLowerCase());
          if (f === undefined) return void first.set(x.toLowerCase(), i);
          const says =
            ids[f] === x
              ? `duplicate id ${x} (first on line ${f + 2})`
              : `id ${x} differs only by case from id ${ids[f]} on line ${f + 2}:`;
          expected.push([i + 2, says]);
        });
        expect([...later].map((i) => i + 2).sort((a, b) => a - b)).toEqual(expected.map(([line]) => line));
        const told = errors.map((e): [number, string] => [
          e.line!,
          e.message.slice(0, expected.find(([l]) => l === e.line)?.[1].length),
        ]);
        expect(told.sort(([a], [b]) => a - b)).toEqual(expected);
        expect(errors.every((e) => e.file === 'x.csv' && e.code === 'DUPLICATE_KEY')).toBe(true);
      }),
    );
  });
});
