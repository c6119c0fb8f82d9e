// RFC 4180 CSV output: UTF-8, LF line ends, a header row, fields quoted only
// when they contain `"`, `,`, CR or LF. Rows are buffered and written in
// ~1 MB chunks (honouring stream back-pressure), so a million-row file never
// exists as one string. Each file is written to `<name>.tmp` and renamed into
// place on close, so a reader never sees a half-written file.
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';

export type Field = string | number;

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: Field): string {
  const s = typeof value === 'number' ? String(value) : value;
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function csvLine(fields: readonly Field[]): string {
  return fields.map(csvField).join(',') + '\n';
}

const CHUNK = 1 << 20;

export class CsvWriter {
  rows = 0;
  private parts: string[] = [];
  private pending = 0;
  private readonly stream: WriteStream;
  private readonly tmp: string;

  constructor(
    readonly path: string,
    header: readonly string[],
  ) {
    this.tmp = `${path}.tmp`;
    this.stream = createWriteStream(this.tmp, { encoding: 'utf8' });
    this.push(csvLine(header));
  }

  /** Buffer one data row; call `await w.flushIfFull()` now and then. */
  add(fields: readonly Field[]): void {
    this.rows++;
    this.push(csvLine(fields));
  }

  get full(): boolean {
    return this.pending >= CHUNK;
  }

  async flushIfFull(): Promise<void> {
    if (this.full) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const chunk = this.parts.join('');
    this.parts = [];
    this.pending = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    await this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
    await rename(this.tmp, this.path);
  }

  private push(line: string): void {
    this.parts.push(line);
    this.pending += line.length;
  }
}

/** Write a whole (small) table in one go; returns the number of data rows. */
export async function writeTable(
  dir: string,
  file: string,
  header: readonly string[],
  rows: Iterable<readonly Field[]>,
): Promise<number> {
  const w = new CsvWriter(join(dir, file), header);
  for (const row of rows) {
    w.add(row);
    await w.flushIfFull();
  }
  await w.close();
  return w.rows;
}
