// The contract of src/sources/csv-parse.ts with csv-parse: each behaviour of
// the parser it reaches outside csv-parse's public API that read.ts relies on.
// A csv-parse version that changes one fails here, named, before any build.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse } from 'csv-parse/sync';
import { chunkParser, type ChunkParser } from '../../src/sources/csv-parse.js';

/** Feeds `chunks` (then the end, with `end`), recording each record with the parser's byte count at its push. */
function feed(parser: ChunkParser, chunks: string[], end = true) {
  const records: [string[], number][] = [];
  const push = (record: string[]) => void records.push([record.slice(), parser.bytes]);
  const errors = chunks.map((chunk) => parser.parse(Buffer.from(chunk), false, push));
  if (end) errors.push(parser.parse(undefined, true, push));
  return { records, errors: errors.filter((e) => e !== undefined) };
}

describe('csv-parse as src/sources/csv-parse.ts uses it', () => {
  test('is pinned to the exact version installed, the one this contract was checked on', () => {
    const pinned = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies['csv-parse'];
    const manifest = createRequire(import.meta.url)
      .resolve('csv-parse')
      .replace(/\/(lib|dist)\/.*$/, '/package.json');
    const installed = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(pinned);
  });

  test('hands each record over during the parse of the chunk it ends in, with the bytes up to its line end', () => {
    const parser = chunkParser(',');
    const first = feed(parser, ['id,text\n1,"a\nb"\n2,c'], false);
    expect(first).toEqual({
      records: [
        [['id', 'text'], 8],
        [['1', 'a\nb'], 16],
      ],
      errors: [],
    });
    // A record cut by a chunk's end comes with the chunk that ends it, the count going on across chunks;
    // one whose line end is a chunk's last byte, with the next (see below).
    expect(feed(parser, ['d\n3,e\n'], false).records).toEqual([[['2', 'cd'], 21]]);
    // The last line without a line end comes at the end of the input.
    expect(feed(parser, ['4,f'], true).records).toEqual([
      [['3', 'e'], 25],
      [['4', 'f'], 28],
    ]);
  });

  test('counts a CRLF as two bytes, keeps ragged rows as they are, and splits at the delimiter given', () => {
    expect(feed(chunkParser(','), ['a,b\r\n1\r\n2,x,y\r\n']).records).toEqual([
      [['a', 'b'], 5],
      [['1'], 8],
      [['2', 'x', 'y'], 15],
    ]);
    expect(feed(chunkParser(';'), ['a;b,c\n']).records).toEqual([[['a', 'b,c'], 6]]);
  });

  test('finds the line end on the first line, and a parser given it keeps it', () => {
    const parser = chunkParser(',');
    expect(parser.recordDelimiters).toEqual([]);
    feed(parser, ['a,b\r\n1,"x\ny"\r\n'], false);
    expect(parser.recordDelimiters).toEqual(['\r\n']);
    const next = chunkParser(',', parser.recordDelimiters);
    expect(feed(next, ['1,x\ny\r\n']).records).toEqual([[['1', 'x\ny'], 7]]);
  });

  test("answers the first malformed record's error, with its code, after the records before it", () => {
    const closing = feed(chunkParser(','), ['a,b\n"x"y,z\n2,w\n']);
    expect(closing.records).toEqual([[['a', 'b'], 4]]);
    expect(closing.errors).toHaveLength(1);
    expect(closing.errors[0]).toMatchObject({
      code: 'CSV_INVALID_CLOSING_QUOTE',
      message: expect.stringMatching(/ at line 2/),
    });
    const open = feed(chunkParser(','), ['a,b\n1,"never closed\n2,x\n']);
    expect(open.records).toEqual([[['a', 'b'], 4]]);
    expect(open.errors.map((e) => e.code)).toEqual(['CSV_QUOTE_NOT_CLOSED']);
  });

  test("holds back a chunk's last bytes until it sees what follows them: the error comes with the next chunk", () => {
    const parser = chunkParser(',');
    expect(parser.parse(Buffer.from('a,b\n1,"x"y'), false, () => {})).toBeUndefined();
    expect(parser.parse(Buffer.from(',z\n'), false, () => {})).toMatchObject({ code: 'CSV_INVALID_CLOSING_QUOTE' });
  });

  test('reads the records csv-parse/sync, its public API, reads', () => {
    const text = 'id,text\n1,"quoted, ""twice"""\n2,\n\n3,"multi\nline"\n4,last';
    const records = feed(chunkParser(','), [text.slice(0, 13), text.slice(13, 31), text.slice(31)]).records.map(
      ([r]) => r,
    );
    expect(records).toEqual(parse(text, { relax_column_count: true }));
  });
});
