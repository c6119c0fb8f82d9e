// Stage 1, read: a source CSV file → its header and raw string rows, each with
// the line it starts on. Malformed CSV and invalid UTF-8 become located errors;
// the rows that could still be read are kept, so later checks report too.
import { isUtf8 } from 'node:buffer';
import { parse, type Info } from 'csv-parse/sync';
import { ReflistError } from './errors.js';

export interface RawRow {
  line: number;
  values: string[];
}

export interface RawTable {
  file: string;
  header: string[];
  rows: RawRow[];
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

/**
 * The fast path for a well-formed file. csv-parse's per-record line info
 * costs more than the parse itself, so lines are counted here instead: one
 * per record (an empty line is a record of one empty field) plus the newlines
 * inside its quoted fields.
 */
function countedRecords(file: string, text: string): RawTable {
  const table: RawTable = { file, header: [], rows: [] };
  let line = 1;
  let headerRead = false;
  for (const record of parse(text, { bom: true, relax_column_count: true }) as string[][]) {
    const empty = record.length === 1 && record[0] === '';
    if (!empty && !headerRead) (table.header = record.map((h) => h.trim())), (headerRead = true);
    else if (!empty) table.rows.push({ line, values: record });
    line += 1;
    for (const value of record) line += newlines(value);
  }
  return table;
}

/** The records of a malformed file with csv-parse's lines, the broken ones left out. */
function locatedRecords(file: string, text: string): RawTable {
  const table: RawTable = { file, header: [], rows: [] };
  const options = { bom: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_error: true, info: true } as const;
  for (const [i, { record, info }] of (parse(text, options) as unknown as { record: string[]; info: Info }[]).entries()) {
    if (i === 0) table.header = record.map((h) => h.trim());
    else table.rows.push({ line: info.lines - record.reduce((n, v) => n + newlines(v), 0), values: record });
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
