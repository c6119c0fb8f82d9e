// Stage 1, the slow path of read.ts: a file its fast parser gave up on
// (bad quoting, lone CRs, mixed line ends), read whole by csv-parse as reflist
// always read it, so such files keep their errors and lines. csv-parse is
// loaded only then: a build of well-formed files never pays for it.
import { createRequire } from 'node:module';
import type { Info } from 'csv-parse/sync';
import { ReflistError } from './errors.js';
import type { RawTable } from './read.js';

type CsvParse = typeof import('csv-parse/sync');
const require = createRequire(import.meta.url);
const parse: CsvParse['parse'] = (...args: Parameters<CsvParse['parse']>) => (require('csv-parse/sync') as CsvParse).parse(...args);

/** A file's rows and its malformed-CSV errors, by csv-parse. */
export function readWithCsvParse(file: string, text: string, chunk: number): { table: RawTable; errors: ReflistError[] } {
  try {
    return { table: countedRecords(file, text, chunk), errors: [] };
  } catch {
    return { table: locatedRecords(file, text), errors: csvErrors(file, text) };
  }
}

function newlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

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
 * A file that csv-parse reads without error: lines are counted here, one per
 * record (an empty line is a record of one empty field) plus the newlines
 * inside its quoted fields. Parsed 1 MiB at a time, as the fast parser's
 * rules assume (csv-parse takes the line end from each chunk's first line).
 */
function countedRecords(file: string, text: string, chunk: number): RawTable {
  const table: RawTable = { file, header: [], rows: [], lines: [] };
  let line = 1;
  let headerRead = false;
  for (let start = 0; start < text.length; ) {
    const end = chunkEnd(text, start, Math.min(text.length, start + chunk));
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
