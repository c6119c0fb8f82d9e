// The oracle for test/read.test.ts: src/read.ts as it was before the streaming
// parser (commit 4a36597), verbatim but for this comment and the import path.
// Whatever the new reader returns must equal what this returns, byte for byte.
import { isUtf8 } from 'node:buffer';
import { parse, type Info } from 'csv-parse/sync';
import { ReflistError } from '../src/errors.js';

export interface RawTable {
  file: string;
  header: string[];
  /** The records after the header; rows[i] starts on lines[i]. */
  rows: string[][];
  lines: number[];
}

/** Lines (1-based) that hold bytes which are not UTF-8. */
function invalidUtf8Lines(bytes: Buffer): number[] {
  if (isUtf8(bytes)) return [];
  const lines: number[] = [];
  let start = 0;
  for (let line = 1; start <= bytes.length; line++) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    if (!isUtf8(bytes.subarray(start, end))) lines.push(line);
    start = end + 1;
  }
  return lines;
}

function newlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

export function readTable(file: string, bytes: Buffer): { table: RawTable; errors: ReflistError[] } {
  const errors = invalidUtf8Lines(bytes).map(
    (line) => new ReflistError('INVALID_UTF8', 'invalid UTF-8 (save the file as UTF-8)', { file, line }),
  );
  const text = new TextDecoder('utf-8').decode(bytes);
  try {
    return { table: countedRecords(file, text), errors };
  } catch {
    return { table: locatedRecords(file, text), errors: errors.concat(csvErrors(file, text)) };
  }
}

/** Bytes of text parsed at a time: the parser's own records are large, so few are held at once. */
const CHUNK = 1 << 20;

/**
 * Where the next chunk may end: after the first newline past `from` with an
 * even number of quotes before it, which in well-formed CSV is a record's end.
 * (In a malformed file a cut may fall mid-record; its parse fails and the
 * whole file takes the slow path.)
 */
export function chunkEnd(text: string, start: number, from: number): number {
  let quotes = 0;
  let q = text.indexOf('"', start);
  for (let nl = text.indexOf('\n', from); nl >= 0; nl = text.indexOf('\n', nl + 1)) {
    while (q >= 0 && q < nl) quotes++, (q = text.indexOf('"', q + 1));
    if (quotes % 2 === 0) return nl + 1;
  }
  return text.length;
}

/**
 * The fast path for a well-formed file. csv-parse's per-record line info
 * costs more than the parse itself, so lines are counted here instead: one
 * per record (an empty line is a record of one empty field) plus the newlines
 * inside its quoted fields. The text is parsed in chunks and each record
 * copied without the parser's spare capacity, which at a million rows saves
 * hundreds of MB.
 */
function countedRecords(file: string, text: string): RawTable {
  const table: RawTable = { file, header: [], rows: [], lines: [] };
  let line = 1;
  let headerRead = false;
  for (let start = 0; start < text.length; ) {
    const end = chunkEnd(text, start, Math.min(text.length, start + CHUNK));
    for (const record of parse(text.slice(start, end), { bom: start === 0, relax_column_count: true }) as string[][]) {
      const empty = record.length === 1 && record[0] === '';
      if (!empty && !headerRead) (table.header = record.map((h) => h.trim())), (headerRead = true);
      else if (!empty) table.rows.push(record.slice()), table.lines.push(line);
      line += 1;
      for (const value of record) line += newlines(value);
    }
    start = end;
  }
  return table;
}

/** The records of a malformed file with csv-parse's lines, the broken ones left out. */
function locatedRecords(file: string, text: string): RawTable {
  const table: RawTable = { file, header: [], rows: [], lines: [] };
  const options = { bom: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_error: true, info: true } as const;
  for (const [i, { record, info }] of (parse(text, options) as unknown as { record: string[]; info: Info }[]).entries()) {
    if (i === 0) table.header = record.map((h) => h.trim());
    else table.rows.push(record), table.lines.push(info.lines - record.reduce((n, v) => n + newlines(v), 0));
  }
  return table;
}

/** Every malformed-CSV error of a file with its line. */
function csvErrors(file: string, text: string): ReflistError[] {
  const errors: ReflistError[] = [];
  parse(text, {
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (err: Error & { lines?: number } | undefined) => {
      if (err) errors.push(new ReflistError('CSV_MALFORMED', err.message.replace(/ at line \d+/, ''), { file, line: err.lines }));
    },
  });
  return errors;
}
