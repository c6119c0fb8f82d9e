import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { run } from '../../src/cli.js';
import { VALID } from '../fixtures/valid.js';
import { snapshotTree, tempDir, writeSources } from '../helpers.js';

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const out = join(tempDir(), 'dist');
const good = writeSources(tempDir(), VALID);

// [rule, file, its broken content, an expected `file:line: message` fragment]
const CASES: [string, string, string | Buffer, string][] = [
  ['a quote never closed', 'author.csv', 'id,text\n1,"Smith\n', 'author.csv:2: quote opened here is never closed'],
  ['a field with a stray quote', 'author.csv', 'id,text\n1,ok\n2,"a"b\n', 'author.csv:3: Invalid Closing Quote'],
  ['a row with too many fields', 'author.csv', 'id,text\n1,a,b\n', 'author.csv:2: expected 2 fields, got 3'],
  [
    'invalid UTF-8',
    'descriptor.csv',
    Buffer.concat([Buffer.from('id,text\n1,ok\n2,'), Buffer.from([0xff, 0xfe]), Buffer.from('\n')]),
    'descriptor.csv:3: invalid UTF-8',
  ],
  [
    'a missing column, named with the columns the header has',
    'state.csv',
    'id,text\n6,California\n',
    'state.csv:1: missing column "country_id"; its header has "id", "text"',
  ],
  [
    'an unknown column',
    'division.csv',
    'id,txt\n1,Zoology\n',
    'division.csv:1: unknown column "txt" (did you mean "text"?)',
  ],
  [
    'an error after blank lines and quoted newlines',
    'author.csv',
    'id,text\r\n\r\n1,"Smith,\r\nJohn"\r\n\r\n2,"  "\r\n',
    'author.csv:6: text: empty text',
  ],
  ['an empty text', 'author.csv', 'id,text\n1,Smith\n2,"  "\n', 'author.csv:3: text: empty text'],
  [
    'a non-integer id',
    'author.csv',
    'id,text\n1.5,Smith\n',
    'author.csv:2: id: expected a non-negative integer, got "1.5"',
  ],
  ['a negative id', 'descriptor.csv', 'id,text\n-1,Colour\n', 'descriptor.csv:2: id: expected a non-negative integer'],
  ['a duplicate key', 'author.csv', 'id,text\n5,A\n6,B\n05,C\n', 'author.csv:4: duplicate id 5 (first on line 2)'],
  [
    'a duplicate state key',
    'state.csv',
    'id,country_id,text\n6,840,California\n6,840,Cal\n',
    'state.csv:3: duplicate state 6 of country 840 (first on line 2)',
  ],
  ['an unknown country', 'state.csv', 'id,country_id,text\n6,999,California\n', 'state.csv:2: unknown country_id 999'],
  [
    'an unknown state',
    'county.csv',
    'country_id,state_id,FIPS,county,latitudeCenter,LongitudeCenter\n840,7,7001,X,1,1\n',
    'county.csv:2: unknown state_id 7 in country_id 840',
  ],
  [
    'an unknown division',
    'category.csv',
    'id,division_id,text\n10,9,Mammals\n',
    'category.csv:2: unknown division_id 9',
  ],
  ['an unknown system', 'author_count.csv', 'system,id,count\nitis,1,3\n', 'author_count.csv:2: unknown system "itis"'],
  [
    'an unknown item',
    'division_count.csv',
    'system,id,count\ngbif,99,3\n',
    'division_count.csv:2: unknown division id 99',
  ],
  [
    'a latitude outside ±90',
    'county.csv',
    'country_id,state_id,FIPS,county,latitudeCenter,LongitudeCenter\n840,6,6037,LA,90.5,-118\n',
    'county.csv:2: latitudeCenter: outside ±90, got "90.5"',
  ],
  [
    'a longitude outside ±180',
    'county.csv',
    'country_id,state_id,FIPS,county,latitudeCenter,LongitudeCenter\n840,6,6037,LA,34,-181\n',
    'county.csv:2: LongitudeCenter: outside ±180, got "-181"',
  ],
  [
    'a bad system id',
    'system.csv',
    'id,text\ngbif,GBIF\ncol,CoL\nno/slash,X\n',
    'system.csv:4: id: expected 1 to 64 of A-Z a-z 0-9 _ -, got "no/slash"',
  ],
  [
    'system ids equal but for case',
    'system.csv',
    'id,text\ngbif,GBIF\ncol,CoL\nGBIF,Other\n',
    'system.csv:4: system id "GBIF" differs only by case from system id "gbif" on line 2: a case-insensitive host',
  ],
  [
    'a count that is not an integer',
    'author_count.csv',
    'system,id,count\ngbif,1,many\n',
    'author_count.csv:2: count: expected a non-negative integer, got "many"',
  ],
];

describe('a broken source fails the build and writes nothing', () => {
  test('the valid fixture builds', async () => {
    const { code, stdout } = await cli(['build', '--sources', good, '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/wrote \d+ changed files/);
  });

  test.each(CASES)('%s is reported as file:line and the old tree survives', async (_rule, file, content, expected) => {
    const before = snapshotTree(out);
    const sources = writeSources(tempDir(), { ...VALID, [file]: content });
    const { code, stderr } = await cli(['build', '--sources', sources, '--out', out]);
    expect(code).toBe(1);
    expect(stderr).toContain(expected);
    expect(stderr).toMatch(/build failed with \d+ errors?; nothing was written/);
    expect(snapshotTree(out)).toEqual(before);
  });

  test('every error of a build is reported, in file and line order', async () => {
    const sources = writeSources(tempDir(), {
      ...VALID,
      'author.csv': 'id,text\nx,A\n1,\n2,B\n2,C\n',
      'descriptor.csv': 'id,text\n1,A\n1,B\n',
    });
    const { stderr } = await cli(['build', '--sources', sources, '--out', out]);
    const lines = stderr.trim().split('\n');
    expect(lines.slice(0, -1)).toEqual([
      'author.csv:2: id: expected a non-negative integer, got "x"',
      'author.csv:3: text: empty text, got ""',
      'author.csv:5: duplicate id 2 (first on line 4)',
      'descriptor.csv:3: duplicate id 1 (first on line 2)',
    ]);
  });

  test('a quote never closed is one error, on the line it opened; the rows after it are read, so no other file errs', async () => {
    // Without reading on after line 4, authors 5 and 6 would be unknown to author_count.csv.
    const sources = writeSources(tempDir(), {
      ...VALID,
      'author.csv': 'id,text\n1,Smith\n2,Jones\n3,"Cheng\n5,Ito\n6,"Berg"\n',
      'author_count.csv': 'system,id,count\ngbif,1,10\ngbif,5,3\ncol,6,2\n',
    });
    const { code, stderr } = await cli(['build', '--sources', sources, '--out', out]);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'author.csv:4: quote opened here is never closed',
      'build failed with 1 error; nothing was written',
    ]);
  });

  test('a stray quote is one error, on its line; the rows after it are read, so no other file errs', async () => {
    const sources = writeSources(tempDir(), {
      ...VALID,
      'author.csv': 'id,text\n1,Smith\n2,"Jo"nes\n5,Ito\n',
      'author_count.csv': 'system,id,count\ngbif,1,10\ngbif,5,3\n',
    });
    const { stderr } = await cli(['build', '--sources', sources, '--out', out]);
    expect(stderr.trim().split('\n')).toEqual([
      'author.csv:3: Invalid Closing Quote: got "n" instead of delimiter, record delimiter, trimable character (if activated) or comment',
      'build failed with 1 error; nothing was written',
    ]);
  });

  test('more than a hundred errors are capped with a count of the rest', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => `${i + 1},`).join('\n');
    const sources = writeSources(tempDir(), { ...VALID, 'author.csv': `id,text\n${rows}\n` });
    const { stderr } = await cli(['build', '--sources', sources, '--out', out]);
    expect(stderr).toContain('… and 50 more errors');
    expect(stderr).toContain('build failed with 150 errors');
  });

  test('an absent file is an empty list, and the build says so', async () => {
    const { 'descriptor.csv': _omitted, ...rest } = VALID;
    const sources = writeSources(tempDir(), rest);
    const fresh = join(tempDir(), 'dist');
    const { code, stdout } = await cli(['build', '--sources', sources, '--out', fresh]);
    expect(code).toBe(0);
    expect(stdout).toContain(`no reflist.config.json in ${sources}: built as the lookup-service preset, from `);
    expect(stdout).toContain('; absent, so empty: descriptor.csv\n');
  });

  test('a folder that is not a reflist tree is never replaced', async () => {
    const precious = writeSources(tempDir(), { 'thesis.txt': 'years of work' });
    const { code, stderr } = await cli(['build', '--sources', good, '--out', precious]);
    expect(code).toBe(1);
    expect(stderr).toContain('holds no lookup.json: refusing to replace it');
    expect(snapshotTree(precious).size).toBe(1);
  });
});

describe('a source that fails one way throughout gets one hint that names the fix', () => {
  /** A build's stderr lines, of a folder with these files. */
  async function failing(files: Record<string, string | Buffer>): Promise<string[]> {
    const { code, stderr } = await cli([
      'build',
      '--sources',
      writeSources(tempDir(), files),
      '--out',
      join(tempDir(), 'dist'),
    ]);
    expect(code).toBe(1);
    return stderr.trimEnd().split('\n');
  }

  test('a file separated by semicolons, declared as read with commas: the delimiter to declare', async () => {
    const lines = await failing({
      'reflist.config.json': JSON.stringify({
        lists: { city: { source: { file: 'city.csv', delimiter: ',' }, label: 'name', fields: { country: 'string' } } },
      }),
      'city.csv': 'id;name;country\n1;Wien;AT\n2;Berlin;DE\n',
    });
    expect(lines).toContain('city.csv:1: no column "id" (declared by lists.city.id); its header has "id;name;country"');
    expect(lines.filter((l) => l.startsWith('hint: '))).toEqual([
      'hint: city.csv is separated by ";": declare "source": {"file": "city.csv", "delimiter": ";"}',
    ]);
    expect(lines.at(-1)).toBe('build failed with 3 errors; nothing was written');
    // The lookup service's files, read without a config, are comma-separated by contract and get it too; a tab is named as such.
    const tabs = await failing({ ...VALID, 'author.csv': 'id\ttext\n1\tSmith\n' });
    expect(tabs[0]).toBe('author.csv:1: missing columns "id", "text"; its header has "id\\ttext"');
    expect(tabs.filter((l) => l.startsWith('hint: '))).toEqual([
      'hint: author.csv is separated by tabs: declare "source": {"file": "author.csv", "delimiter": "\\t"}',
    ]);
  });

  test('codes in an integer id column: the id type to declare, once, after every error', async () => {
    const codes = Array.from(
      { length: 150 },
      (_, i) => `${String.fromCharCode(65 + (i % 26), 65 + Math.floor(i / 26), 75)},Airport ${i}`,
    );
    const lines = await failing({
      'reflist.config.json': JSON.stringify({ lists: { airport: { id: 'iata' } } }),
      'airport.csv': `iata,text\n${codes.join('\n')}\n`,
    });
    expect(lines.slice(0, 2)).toEqual([
      'airport.csv:2: iata: expected a non-negative integer, got "AAK"',
      'airport.csv:3: iata: expected a non-negative integer, got "BAK"',
    ]);
    expect(lines.slice(-3)).toEqual([
      '… and 50 more errors',
      'hint: lists.airport has integer ids, but most of airport.csv\'s "iata" cells are codes ("AAK", "BAK", "CAK", …): declare "id": {"column": "iata", "type": "string"} in lists.airport',
      'build failed with 150 errors; nothing was written',
    ]);
    // One code among integers is a typo, not a type: no hint.
    expect(
      (await failing({ ...VALID, 'author.csv': 'id,text\n1,A\n2,B\nX3,C\n' })).some((l) => l.startsWith('hint: ')),
    ).toBe(false);
  });

  test('a file in Windows-1252: one error on its first line, and the encoding it looks like', async () => {
    const names = ['Zürich', 'München', 'Malmö', 'São Paulo'];
    const rows = Array.from({ length: 418 }, (_, i) => `${i + 1},${names[i % names.length]}`);
    const lines = await failing({
      ...VALID,
      'descriptor.csv': Buffer.from(`id,text\r\n${rows.join('\r\n')}\r\n`, 'latin1'),
    });
    expect(lines).toEqual([
      'descriptor.csv:2: invalid UTF-8 (and on 417 more lines: 3, 4, 5, 6, 7, …)',
      'hint: descriptor.csv looks like Windows-1252 or Latin-1 (line 2 would read "1,Zürich"): save it as UTF-8',
      'build failed with 1 error; nothing was written',
    ]);
    // A stray byte in a line of UTF-8 is no other encoding.
    const stray = Buffer.concat([Buffer.from('id,text\n1,Malmö '), Buffer.from([0xff]), Buffer.from('\n')]);
    expect(await failing({ ...VALID, 'descriptor.csv': stray })).toEqual([
      'descriptor.csv:2: invalid UTF-8',
      'hint: save descriptor.csv as UTF-8',
      'build failed with 1 error; nothing was written',
    ]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('id,text\n1,Zürich\n', 'utf16le')]);
    expect(await failing({ ...VALID, 'descriptor.csv': utf16 })).toContain(
      "hint: descriptor.csv looks like UTF-16 (it starts with UTF-16's byte order mark): save it as UTF-8",
    );
  });
});
