// A declaration against its sources' headers, with no file read: each column
// it names that a header lacks is one located error, with the closest column
// the header has or its columns.
import { expect, test } from 'vitest';
import { checkColumns, detectDelimiter } from '../../src/config/columns.js';
import { checkConfig } from '../../src/config/declaration.js';
import { LOOKUP_SERVICE_CONFIG } from '../../src/config/preset.js';

const DECLARATION = checkConfig(structuredClone(LOOKUP_SERVICE_CONFIG), 'reflist.config.json').declaration!;
const GOOD = new Map([
  ['author.csv', ['id', 'text']],
  ['author_count.csv', ['system', 'id', 'count']],
  ['state.csv', ['id', 'country_id', 'text']],
  ['county.csv', ['country_id', 'state_id', 'FIPS', 'county', 'latitudeCenter', 'LongitudeCenter']],
]);

/** The errors of these headers as `reflist build` locates them: code, file, line and message. */
const errorsWith = (headers: Record<string, string[]>) =>
  checkColumns(DECLARATION, 'reflist.config.json', new Map([...GOOD, ...Object.entries(headers)])).map((e) => ({
    code: e.code,
    file: e.file,
    line: e.line,
    message: e.message,
  }));

test('headers with every declared column, in any case and order, give no error', () => {
  expect(errorsWith({ 'author.csv': ['TEXT', 'Id'] })).toEqual([]);
});

test.each([
  [
    { 'author.csv': ['id', 'txt'] },
    'INVALID_CONFIG',
    'reflist.config.json',
    undefined,
    'lists.author.label: the template names column "text", which author.csv does not have (did you mean "txt"?)',
  ],
  [
    { 'author.csv': ['ID_', 'text'] },
    'MISSING_COLUMN',
    'author.csv',
    1,
    'no column "id" (declared by lists.author.id; did you mean "ID_"?)',
  ],
  [
    { 'state.csv': ['id', 'text'] },
    'MISSING_COLUMN',
    'state.csv',
    1,
    'no column "country_id" (declared by lists.state.parent); its header has "id", "text"',
  ],
  [
    { 'author_count.csv': ['system', 'id', 'n'] },
    'MISSING_COLUMN',
    'author_count.csv',
    1,
    'no column "count" (declared by lists.author.counts); its header has "system", "id", "n"',
  ],
  [
    { 'county.csv': ['country_id', 'state_id', 'FIPS', 'county', 'latitudeCenter', 'longitude'] },
    'INVALID_CONFIG',
    'reflist.config.json',
    undefined,
    'lists.county.fields.LongitudeCenter: no column "LongitudeCenter" in county.csv (did you mean "latitudeCenter"?)',
  ],
])('headers %j: %s in %s:%s, %s', (headers, code, file, line, message) => {
  expect(errorsWith(headers)).toEqual([{ code, file, line, message }]);
});

test.each([
  ['commas', 'id,name,country', ','],
  ['semicolons', 'id;name;country', ';'],
  ['tabs', 'id\tname\tcountry', '\t'],
  ['semicolons, with a comma inside a quoted column name', '"id";"name, official";"country"', ';'],
  ['the first line only: the rows may hold any delimiter', 'id;name\r\n1,2,3,4,5;Wien', ';'],
  ['a tie, or a single column: commas', 'id;name,country', ','],
  ['a single column', 'id', ','],
])('a source that declares no delimiter is read by its header line: %s', (_, line, delimiter) => {
  expect(detectDelimiter(line)).toBe(delimiter);
});
