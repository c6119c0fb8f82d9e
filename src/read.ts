// Stage 1, read: a source CSV file → its header and raw string rows, each with
// the line it starts on. Malformed CSV and invalid UTF-8 become located errors;
// the rows that could still be read are kept, so later checks report too.
import { isUtf8 } from 'node:buffer';
import { parse } from 'csv-parse';
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

const newlines = (s: string): number => {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
};

export async function readTable(file: string, bytes: Buffer): Promise<{ table: RawTable; errors: ReflistError[] }> {
  const errors = invalidUtf8Lines(bytes).map(
    (line) => new ReflistError('INVALID_UTF8', 'invalid UTF-8 (save the file as UTF-8)', { file, line }),
  );
  const table: RawTable = { file, header: [], rows: [] };
  const parser = parse({ bom: true, info: true, skip_empty_lines: true, skip_records_with_error: true, relax_column_count: true });
  parser.on('skip', (err: Error & { lines?: number }) => {
    errors.push(new ReflistError('CSV_MALFORMED', err.message.replace(/ at line \d+/, ''), { file, line: err.lines }));
  });
  let headerRead = false;
  const done = (async () => {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines - record.reduce((n, v) => n + newlines(v), 0);
      if (!headerRead) table.header = record.map((h) => h.trim());
      else table.rows.push({ line, values: record });
      headerRead = true;
    }
  })();
  parser.end(new TextDecoder('utf-8').decode(bytes));
  await done;
  return { table, errors };
}
