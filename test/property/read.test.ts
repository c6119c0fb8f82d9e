import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import {
  digestFile,
  readRowsFile,
  readTable,
  readTableFile,
  type RawTable,
  type TableRead,
} from '../../src/sources/read.js';

// Not helpers.ts's tempDir: that module loads the whole build, and this one tests only the reader.
const dir = mkdtempSync(join(process.env['REFLIST_TEST_TMP'] ?? tmpdir(), 'reflist-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function onDisk(bytes: Uint8Array): string {
  const path = join(dir, `${files++}.csv`);
  writeFileSync(path, bytes);
  return path;
}

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

/** A read as plain data, errors included, so that two reads compare with toEqual. */
const plain = ({ table, errors }: TableRead) => ({
  ...table,
  errors: errors.map(({ code, file, line, message }) => ({ code, file, line, message })),
});

/** Every way of reading `bytes` (whole, in chunks of `chunk` bytes, from disk) reads the same; answers that read. */
function expectSameInChunks(bytes: Uint8Array, chunk: number) {
  const expected = plain(readTable('t.csv', bytes));
  expect(plain(readTable('t.csv', bytes, chunk))).toEqual(expected);
  const path = onDisk(bytes);
  const read = readTableFile('t.csv', path, chunk);
  expect(plain(read)).toEqual(expected);
  expect(read.digest).toBe(sha1(bytes));
  // A build's checks take the rows as they are read, a row at a time: the same rows, lines and errors.
  const streamed: RawTable = { file: 't.csv', header: [], rows: [], lines: [] };
  const errors = readRowsFile('t.csv', path, (header) => {
    streamed.header = header;
    return (cells, line) => {
      streamed.rows.push([...cells]);
      streamed.lines.push(line);
    };
  });
  expect(plain({ table: streamed, errors })).toEqual(expected);
  return expected;
}

describe('reading a source file', () => {
  test('a file of many chunks, with quoted newlines, quotes and blank lines, reads every row on its own line', () => {
    // Quoted fields that hold newlines and doubled quotes fall on every
    // possible place around the 1 MiB chunk boundaries.
    const text: string[] = ['\ufeffid,text\r\n'];
    const rows: string[][] = [];
    const lines: number[] = [];
    let line = 2;
    for (let i = 0; i < 120_000; i++) {
      if (i % 11 === 0) {
        text.push('\r\n');
        line += 1;
      } else if (i % 7 === 0) {
        const value = `line one\nline "two",\r\n${'x'.repeat(i % 13)}`;
        text.push(`${i},"${value.replaceAll('"', '""')}"\r\n`);
        rows.push([String(i), value]);
        lines.push(line);
        line += 3;
      } else {
        text.push(`${i},plain ${'y'.repeat(i % 17)}\r\n`);
        rows.push([String(i), `plain ${'y'.repeat(i % 17)}`]);
        lines.push(line);
        line += 1;
      }
    }
    const bytes = Buffer.from(text.join(''));
    expect(bytes.length).toBeGreaterThan(2 * (1 << 20));
    for (const { table, errors } of [readTable('author.csv', bytes), readTableFile('author.csv', onDisk(bytes))]) {
      expect(errors).toEqual([]);
      expect(table.header).toEqual(['id', 'text']);
      expect(table.rows.length).toBe(rows.length);
      // Compared as text: a failing deep comparison of 100,000 rows takes minutes to print.
      expect(JSON.stringify(table.rows) === JSON.stringify(rows)).toBe(true);
      expect(table.lines.join() === lines.join()).toBe(true);
    }
  });

  test('a stray quote past the first chunk is reported on its line, and every other row is read', () => {
    const rows = Array.from({ length: 80_000 }, (_, i) => `${i},name ${i}`);
    rows[70_000] = '70000,"a"b';
    const bytes = Buffer.from(['id,text', ...rows].join('\n') + '\n');
    for (const { table, errors } of [readTable('author.csv', bytes), readTableFile('author.csv', onDisk(bytes))]) {
      expect(errors.map(String)).toEqual([
        'author.csv:70002: Invalid Closing Quote: got "b" instead of delimiter, record delimiter, trimable character (if activated) or comment',
      ]);
      expect(table.rows.length).toBe(79_999);
      expect(table.rows[70_000]).toEqual(['70001', 'name 70001']);
      expect(table.lines[70_000]).toBe(70_003);
    }
  });

  test('a quote never closed, past the first chunk, is reported on the line it opened, and the rows after it are read', () => {
    const rows = Array.from({ length: 80_000 }, (_, i) => `${i},name ${i}`);
    rows[70_000] = '70000,"a, b';
    const bytes = Buffer.from(['id,text', ...rows].join('\r\n') + '\r\n');
    for (const { table, errors } of [readTable('author.csv', bytes), readTableFile('author.csv', onDisk(bytes))]) {
      expect(errors.map(String)).toEqual(['author.csv:70002: quote opened here is never closed']);
      expect(table.rows.length).toBe(79_999);
      expect(table.rows.at(-1)).toEqual(['79999', 'name 79999']);
      expect(table.lines.at(-1)).toBe(80_001);
    }
  });
});

const bytesOf = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

// [behaviour, file, expected table and `line: message` errors]
type Case = [string, string | Buffer, { header?: string[]; rows?: string[][]; lines?: number[]; errors?: string[] }];
const INVALID_CLOSING = (c: string) =>
  `Invalid Closing Quote: got "${c}" instead of delimiter, record delimiter, trimable character (if activated) or comment`;
const EDGE_CASES: Case[] = [
  ['a BOM is skipped', '\ufeffid,text\n1,a\n', { header: ['id', 'text'], rows: [['1', 'a']], lines: [2] }],
  ['a second BOM is skipped too', '\ufeff\ufeffid\n1\n', { header: ['id'], rows: [['1']] }],
  ['a BOM that starts a later line is text', 'id,text\n\ufeff1,a\n', { rows: [['\ufeff1', 'a']] }],
  ['an empty file has no header and no rows', '', { header: [], rows: [], lines: [] }],
  ['a file of only a BOM has no header and no rows', '\ufeff', { header: [], rows: [] }],
  ['a header alone, without a line end, is read', 'id,text', { header: ['id', 'text'], rows: [] }],
  [
    'CRLF line ends are read like LF ones',
    'id,text\r\n1,a\r\n2,b\r\n',
    {
      rows: [
        ['1', 'a'],
        ['2', 'b'],
      ],
      lines: [2, 3],
    },
  ],
  ['a final line without a line end is read', 'id,text\n1,a', { rows: [['1', 'a']], lines: [2] }],
  ['a final quoted field without a line end is read', 'id,text\n1,"a"', { rows: [['1', 'a']] }],
  ['a comma at the very end makes an empty last field', 'id,text\n1,', { rows: [['1', '']] }],
  [
    'empty lines are skipped but counted, before the header too',
    '\n\nid,text\n\n1,a\n',
    { header: ['id', 'text'], rows: [['1', 'a']], lines: [5] },
  ],
  ['a line of only "" is skipped like an empty one', 'id,text\n""\n1,a\n', { rows: [['1', 'a']], lines: [3] }],
  [
    'quoted fields hold commas, doubled quotes, CRs and line ends, which count as lines',
    'id,text\n1,"a, ""b""\r\nc\rd"\n2,e\n',
    {
      rows: [
        ['1', 'a, "b"\r\nc\rd'],
        ['2', 'e'],
      ],
      lines: [2, 4],
    },
  ],
  [
    'the header is trimmed and the rows are not',
    ' id , text \n 1 , a \n',
    { header: ['id', 'text'], rows: [[' 1 ', ' a ']] },
  ],
  ['rows may have fewer or more fields than the header', 'id,text\n1\n1,2,3\n', { rows: [['1'], ['1', '2', '3']] }],
  [
    'astral characters and other scripts are kept',
    'id,text\n1,"😀 山田, Ōtsuka"\n',
    { rows: [['1', '😀 山田, Ōtsuka']] },
  ],
  [
    'a long field that starts with an astral character is kept whole',
    'id,text\n1,😀 Ōtsuka Hiroshi the Third\n',
    { rows: [['1', '😀 Ōtsuka Hiroshi the Third']] },
  ],
  [
    'invalid UTF-8 is one error, on its first line, that names the others; it is read as U+FFFD',
    bytesOf('id,text\n1,', [0xff, 0xfe], '\n2,ok\n3,', [0xe2, 0x82], '\n'),
    {
      rows: [
        ['1', '\ufffd\ufffd'],
        ['2', 'ok'],
        ['3', '\ufffd'],
      ],
      errors: ['2: invalid UTF-8 (and on 1 more line: 4)'],
    },
  ],
  [
    'a character cut short by the end of the file is invalid UTF-8',
    bytesOf('id,text\n1,', [0xe2, 0x82]),
    { errors: ['2: invalid UTF-8'] },
  ],
  [
    'a file that starts with the bytes of a UTF-16 BOM is invalid UTF-8, not UTF-16',
    bytesOf([0xff, 0xfe], 'id\n1\n'),
    { header: ['\ufffd\ufffdid'], rows: [['1']], errors: ['1: invalid UTF-8'] },
  ],
  [
    'a lone CR as the line end is read as one',
    'id,text\r1,a\r2,b',
    {
      rows: [
        ['1', 'a'],
        ['2', 'b'],
      ],
      lines: [2, 3],
    },
  ],
  ['a CR in an unquoted field of an LF file is text', 'id,text\n1,a\rb\n', { rows: [['1', 'a\rb']] }],
  [
    'the first line sets the line end: CRLF lines after an LF header keep their CRs',
    'id,text\n1,a\r\n',
    { rows: [['1', 'a\r']] },
  ],
  [
    'the first line sets the line end: an LF without its CR in a CRLF file is text',
    'id,text\r\n1,a\nb\r\n2,c\r\n',
    {
      rows: [
        ['1', 'a\nb'],
        ['2', 'c'],
      ],
      lines: [2, 4],
    },
  ],
  [
    'a quote inside an unquoted field is an error on its line; the next line is read',
    'id,text\n1,a"b\n2,c\n',
    { rows: [['2', 'c']], lines: [3], errors: ['2: Invalid Opening Quote: a quote is found on field 1, value is "a"'] },
  ],
  [
    'a space before an opening quote is one error',
    'id,text\n1, "a"\n2,b\n',
    { rows: [['2', 'b']], errors: ['2: Invalid Opening Quote: a quote is found on field 1, value is " "'] },
  ],
  [
    'text after a closing quote is one error; the next line is read',
    'id,text\n1,"a"b\n2,c\n',
    { rows: [['2', 'c']], lines: [3], errors: [`2: ${INVALID_CLOSING('b')}`] },
  ],
  [
    'a space after a closing quote is an error',
    'id,text\n1,"a" \n',
    { rows: [], errors: [`2: ${INVALID_CLOSING(' ')}`] },
  ],
  [
    'a CRLF after a closing quote in an LF file is an error',
    'id,text\n1,"a"\r\n2,b\n',
    { rows: [['2', 'b']], errors: [`2: ${INVALID_CLOSING('\r')}`] },
  ],
  [
    'text after a quote that would close a field of several lines: the quote that opened it is taken as never closed, and the lines after it are read',
    'id,text\n1,"a\nb"c\n2,d\n',
    {
      rows: [['2', 'd']],
      lines: [4],
      errors: [
        '2: quote opened here is never closed',
        '3: Invalid Opening Quote: a quote is found on field 0, value is "b"',
      ],
    },
  ],
  [
    'an error at the very end of a file without a final line end is on the last line',
    'id,text\n1,a\n2,"b"c',
    { rows: [['1', 'a']], errors: [`3: ${INVALID_CLOSING('c')}`] },
  ],
  [
    'a quote never closed is reported on the line it opened; the lines after it are read',
    'id,text\n1,a\n2,"b\n3,c\n4,d\n',
    {
      rows: [
        ['1', 'a'],
        ['3', 'c'],
        ['4', 'd'],
      ],
      lines: [2, 4, 5],
      errors: ['3: quote opened here is never closed'],
    },
  ],
  [
    'a quote never closed, after a quoted field of several lines in the same record, is on the line it opened',
    'id,a,b\n1,"x\ny","z\n2,p,q\n',
    { rows: [['2', 'p', 'q']], lines: [4], errors: ['3: quote opened here is never closed'] },
  ],
  [
    'a quote never closed is on the line it opened; the lines after it are read as records, and a broken one is reported too',
    'id,text\n1,"a\nb ""c"" d\n2,e\n',
    {
      rows: [['2', 'e']],
      errors: [
        '2: quote opened here is never closed',
        '3: Invalid Opening Quote: a quote is found on field 0, value is "b "',
      ],
    },
  ],
  [
    'a quote never closed on the last line, without a line end',
    'id,text\n1,a\n2,"b',
    { rows: [['1', 'a']], errors: ['3: quote opened here is never closed'] },
  ],
  [
    'a quote left open up to the opening quote of a later field is reported where it opened; the lines between are read',
    'id,text\n1,"a\n2,b\n3,"c\n4,d\n',
    {
      rows: [
        ['2', 'b'],
        ['4', 'd'],
      ],
      lines: [3, 5],
      errors: ['2: quote opened here is never closed', '4: quote opened here is never closed'],
    },
  ],
  [
    'a quote never closed in the header is reported on line 1',
    'id,"text\n1,a\n',
    { header: ['1', 'a'], errors: ['1: quote opened here is never closed'] },
  ],
  [
    'errors on several lines are each reported once, in line order',
    'id,text\n1,a"b\n2,ok\n3,"c"d\n4,"e\n5,f\n',
    {
      rows: [
        ['2', 'ok'],
        ['5', 'f'],
      ],
      lines: [3, 6],
      errors: [
        '2: Invalid Opening Quote: a quote is found on field 1, value is "a"',
        `4: ${INVALID_CLOSING('d')}`,
        '5: quote opened here is never closed',
      ],
    },
  ],
];

describe('edge cases', () => {
  test.each(EDGE_CASES)('%s', (_behaviour, file, { header, rows, lines, errors = [] }) => {
    const bytes = Buffer.from(file);
    for (let chunk = 1; chunk <= 4; chunk++) expectSameInChunks(bytes, chunk);
    const read = plain(readTable('t.csv', bytes));
    expect(read).toMatchObject({ ...(header && { header }), ...(rows && { rows }), ...(lines && { lines }) });
    expect(read.errors.map((e) => `${e.line}: ${e.message}`)).toEqual(errors);
    expect(
      read.errors.every(
        (e) =>
          e.code === (e.message.startsWith('invalid UTF-8') ? 'INVALID_UTF8' : 'CSV_MALFORMED') && e.file === 't.csv',
      ),
    ).toBe(true);
  });

  test('a character cut by any chunk boundary, valid or not, is read and reported on its line', () => {
    // 2-, 3- and 4-byte characters, then an invalid byte and a truncated character, on lines 2 to 4.
    const bytes = bytesOf('id,text\n1,é山😀\n2,a', [0xff], 'b\n3,', [0xf0, 0x9f, 0x98], ',c\n');
    for (let chunk = 1; chunk <= 12; chunk++) {
      const read = plain(readTableFile('t.csv', onDisk(bytes), chunk));
      expect(read.rows).toEqual([
        ['1', 'é山😀'],
        ['2', 'a\ufffdb'],
        ['3', '\ufffd', 'c'],
      ]);
      expect(read.errors.map((e) => `${e.line}: ${e.message}`)).toEqual(['3: invalid UTF-8 (and on 1 more line: 4)']);
    }
  });
});

// ------------------------------------------------------------ property tests

// Characters, and words long enough to make fields of 13 characters and more (which V8 would slice rather than copy).
const CHARS = [
  'a',
  'Z',
  '7',
  ' ',
  ',',
  '"',
  '\r',
  '\n',
  'é',
  'ō',
  'Ж',
  '山',
  '😀',
  '\ufeff',
  'Ōtsuka, Hiroshi',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 text',
];
const arbText = fc.array(fc.constantFrom(...CHARS), { maxLength: 5 }).map((chars) => chars.join(''));
const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
const unquoted = (text: string) => text.replace(/[",\r\n]/g, '');
const BROKEN = [
  (t: string) => `"${t}`,
  (t: string) => `"${t}"x`,
  (t: string) => ` "${t}"`,
  (t: string) => `"${t}" `,
  (t: string) => `${t}"`,
];

/** A field as written: mostly quoted or plain, sometimes raw (quotes, CRs, LFs anywhere) or with broken quoting. */
const arbField = fc.oneof(
  { weight: 4, arbitrary: arbText.map(quoted) },
  { weight: 4, arbitrary: arbText.map(unquoted) },
  { weight: 1, arbitrary: arbText },
  { weight: 1, arbitrary: fc.tuple(arbText, fc.constantFrom(...BROKEN)).map(([text, broken]) => broken(text)) },
);

/** Lines of fields (none: a blank line), each with its line end, after 0 to 2 BOMs, maybe without a final line end. */
function arbCsv(field: fc.Arbitrary<string>, ends: fc.Arbitrary<string>) {
  return fc
    .record({
      bom: fc.constantFrom('', '', '\ufeff', '\ufeff\ufeff'),
      lines: fc.array(fc.tuple(fc.array(field, { maxLength: 4 }), ends), { maxLength: 8 }),
      finalEnd: fc.boolean(),
    })
    .map(
      ({ bom, lines, finalEnd }) =>
        bom +
        lines.map(([fields, end], i) => fields.join(',') + (i < lines.length - 1 || finalEnd ? end : '')).join(''),
    );
}

/** Line ends of one kind for the whole file, or mixed. */
const arbEnds = fc
  .constantFrom('\n', '\r\n', '\r', 'mixed')
  .chain((kind) => (kind === 'mixed' ? fc.constantFrom('\n', '\r\n', '\r') : fc.constant(kind)));

const BAD_BYTES = [
  [0xff],
  [0x80],
  [0xc3],
  [0xe2, 0x82],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf0, 0x9f],
];

/** The file's bytes, sometimes with bytes that are not UTF-8 put in anywhere (inside characters too) or cut anywhere. */
function arbBytes(text: fc.Arbitrary<string>) {
  const damage = fc.array(fc.tuple(fc.nat(), fc.oneof(fc.constantFrom(...BAD_BYTES), fc.constant('cut' as const))), {
    minLength: 1,
    maxLength: 3,
  });
  return fc
    .tuple(text, fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: damage }))
    .map(([t, harms]) => {
      let bytes = Buffer.from(t);
      for (const [at, harm] of harms) {
        const i = at % (bytes.length + 1);
        bytes =
          harm === 'cut'
            ? bytes.subarray(0, i)
            : Buffer.concat([bytes.subarray(0, i), Buffer.from(harm), bytes.subarray(i)]);
      }
      return bytes;
    });
}

describe('any file', () => {
  test('any bytes, well-formed or not, read the same whole and in chunks of any size, from memory and from disk', () => {
    fc.assert(
      fc.property(arbBytes(arbCsv(arbField, arbEnds)), fc.integer({ min: 1, max: 9 }), (bytes, chunk) => {
        expectSameInChunks(bytes, chunk);
      }),
      { numRuns: 1500 },
    );
  });

  test('text just past the first MiB, where a chunk of the file ends, reads the same whole and in other chunks', () => {
    // Rows of padding up to a little before the cut, in the file's line ends; then any text.
    const padding = (end: string, length: number) => {
      const rows = ['id,text'];
      for (let i = 0, size = 8; size < length; i++) {
        rows.push(`${i},padding`);
        size += `${i},padding`.length + end.length;
      }
      return rows.join(end) + end;
    };
    const arbBig = fc
      .tuple(fc.constantFrom('\n', '\r\n'), fc.integer({ min: 0, max: 300 }), arbCsv(arbField, arbEnds))
      .map(([end, short, text]) => Buffer.from(padding(end, (1 << 20) - short) + text));
    fc.assert(
      fc.property(arbBig, fc.integer({ min: 1000, max: 70_000 }), (bytes, chunk) => {
        expectSameInChunks(bytes, chunk);
      }),
      { numRuns: 15 },
    );
  }, 180_000); // 15 files of a MiB, each read whole and in chunks: ~14 s on a quiet machine

  test('every error of any file is coded and located in it', () => {
    fc.assert(
      fc.property(arbBytes(arbCsv(arbField, arbEnds)), (bytes) => {
        const breaks = bytes.filter((b) => b === 0x0a || b === 0x0d).length;
        for (const e of readTable('t.csv', bytes).errors) {
          expect(e.code === 'CSV_MALFORMED' || e.code === 'INVALID_UTF8').toBe(true);
          expect(e.file).toBe('t.csv');
          expect(e.line).toBeGreaterThanOrEqual(1);
          expect(e.line).toBeLessThanOrEqual(1 + breaks);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('a well-formed file reads back exactly the records it was written from, each on the line it starts on', () => {
    const word = fc.constantFrom('id', 'text', ' name ', 'count', 'x');
    const arbFile = fc.record({
      bom: fc.constantFrom('', '\ufeff', '\ufeff\ufeff'),
      end: fc.constantFrom('\n', '\r\n'),
      header: fc.array(word, { minLength: 1, maxLength: 3 }),
      // Each record: its fields, each written quoted or not (if it can be), after 0 to 2 blank lines.
      records: fc.array(
        fc.tuple(fc.array(fc.tuple(arbText, fc.boolean()), { minLength: 1, maxLength: 4 }), fc.nat(2)),
        { maxLength: 8 },
      ),
      finalEnd: fc.boolean(),
    });
    fc.assert(
      fc.property(arbFile, fc.integer({ min: 1, max: 9 }), ({ bom, end, header, records, finalEnd }, chunk) => {
        const written = [header.join(',')];
        const rows: string[][] = [];
        const lines: number[] = [];
        let line = 2;
        for (const [fields, blanks] of records) {
          for (let b = 0; b < blanks; b++) {
            written.push('');
            line++;
          }
          const values = fields.map(([text, quote]) => (quote ? text : unquoted(text)));
          written.push(fields.map(([text, quote], k) => (quote ? quoted(text) : values[k])).join(','));
          // A record of one empty field is a blank line, or one of only "": skipped, but counted.
          if (!(values.length === 1 && values[0] === '')) {
            rows.push(values);
            lines.push(line);
          }
          line += 1 + values.join('').split('\n').length - 1;
        }
        const bytes = Buffer.from(bom + written.join(end) + (finalEnd ? end : ''));
        const read = expectSameInChunks(bytes, chunk);
        expect(read.errors).toEqual([]);
        expect(read.header).toEqual(header.map((h) => h.trim()));
        expect(read.rows).toEqual(rows);
        expect(read.lines).toEqual(lines);
      }),
      { numRuns: 1000 },
    );
  });

  test('a broken line among plain ones is the one error, on its line, and every other row is read on its line', () => {
    const arbPlain = arbText.map(unquoted);
    fc.assert(
      fc.property(
        fc.array(fc.array(arbPlain, { maxLength: 2 }), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.tuple(arbPlain, fc.constantFrom(...BROKEN)),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        (values, at, [text, broken], end, finalEnd) => {
          const rows = values.map((v, i) => [`r${i}`, ...v]);
          const i = at % rows.length;
          const written = ['id,text', ...rows.map((r) => r.join(','))];
          written[i + 1] = `r${i},${broken(text)}`;
          const bytes = Buffer.from(written.join(end) + (finalEnd ? end : ''));
          const read = plain(readTable('t.csv', bytes));
          expect(read.errors.map((e) => [e.code, e.line])).toEqual([['CSV_MALFORMED', i + 2]]);
          expect(read.rows).toEqual(rows.filter((_, k) => k !== i));
          expect(read.lines).toEqual(rows.map((_, k) => k + 2).filter((_, k) => k !== i));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('digests', () => {
  test("a file's digest is the SHA-1 of its bytes, read by chunks or whole, malformed or not", () => {
    const big = Buffer.from(
      'id,text\n' + Array.from({ length: 150_000 }, (_, i) => `${i},"Katō, Hiroshi ${i}"\n`).join(''),
    );
    expect(big.length).toBeGreaterThan(3 << 20);
    for (const bytes of [big, Buffer.from(''), Buffer.from('id,text\n1,"a"b\n')]) {
      const path = onDisk(bytes);
      expect(digestFile(path)).toBe(sha1(bytes));
      expect(readTableFile('t.csv', path).digest).toBe(sha1(bytes));
    }
  });
});

describe('memory', () => {
  test('rows hold their own strings, not views that keep whole chunks of the file alive', () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    // A collection that finishes a marking begun during the read keeps what was made meanwhile; the next ones free it.
    const gc = () => [1, 2, 3].forEach(() => collect());
    // Long fields, which V8 would make views of their chunk; one row in 1,000 is kept.
    const bytes = Buffer.from(
      'id,text\n' + Array.from({ length: 100_000 }, (_, i) => `${i},"${'Ōtsuka, Hiroshi '.repeat(4)}${i}"\n`).join(''),
    );
    const path = onDisk(bytes);
    gc();
    const before = process.memoryUsage().heapUsed;
    // In a function of its own, so that no register of this frame still holds the whole table.
    const keep = () => readTableFile('author.csv', path).table.rows.filter((_, i) => i % 1000 === 0);
    const kept = keep();
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(kept.length).toBe(100);
    // 100 rows of ~70 characters are some 30 kB; views would keep every chunk (2 MB each as UTF-16), 14 MB in all.
    expect(grown).toBeLessThan(2e6);
  });
});
