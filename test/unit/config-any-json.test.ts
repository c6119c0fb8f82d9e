// Whatever JSON a reflist.config.json holds, checkConfig answers with a
// Declaration or with located errors, and never throws: random configs made
// of the config's own keys (so that they reach deep into the readers) with
// values of every JSON type in their places.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { checkConfig } from '../../src/config/declaration.js';

const KEYS = [
  ...['lists', 'pageSize', 'host', 'groups', 'source', 'label', 'id', 'fields', 'order', 'search', 'parent'],
  ...['children', 'counts', 'params', 'shape', 'keys', 'path', 'optional', 'column', 'type', 'template'],
  ...['file', 'delimiter', 'match', 'typos', 'columns', 'list', 'key', 'param', 'x'],
];
const key = fc.constantFrom(...KEYS);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 1 }),
    fc.constantFrom(...KEYS),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    fc.array(tie('value'), { maxLength: 3 }),
  ),
}));
const arbConfig = fc
  .record({
    top: fc.dictionary(key, value, { maxKeys: 4 }),
    lists: fc.dictionary(fc.constantFrom('a', 'b', 'city'), fc.dictionary(key, value, { maxKeys: 5 }), { maxKeys: 3 }),
  })
  .map(({ top, lists }) => ({ ...top, lists }));

test('checkConfig answers any config with a declaration or errors, each located by its path, and never throws', () => {
  fc.assert(
    fc.property(arbConfig, (json) => {
      const { declaration, errors } = checkConfig(json, 'reflist.config.json');
      expect(declaration === undefined).toBe(errors.length > 0);
      for (const error of errors) {
        expect(error.code).toBe('INVALID_CONFIG');
        expect(error.message).toMatch(/^\S.*: /);
      }
    }),
    { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 60) * 50 },
  );
});

test('a list whose children are null is an error of that list, not a TypeError', () => {
  const { errors } = checkConfig({ lists: { a: { children: null } } }, 'reflist.config.json');
  expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^lists\.a\.children: /)]);
});
