// Stage 1, read: a source CSV file → its header and raw string rows, each with
// the line it starts on, handed on as they are read or kept in a table. Malformed CSV and invalid UTF-8 become located errors;
// the rows that could still be read are kept, so later checks report too.
//
// csv-parse reads every file, a chunk at a time, so that no file is held whole
// (through csv-parse.ts, which pins down what it uses of it). Why no faster
// parser of our own: docs/performance.md, "One CSV parser".
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import type { Delimiter } from '../config/declaration.js';
import { ReflistError } from '../errors.js';
import { chunkParser, type ChunkParser, type CsvParseError } from './csv-parse.js';
import { InvalidUtf8Lines, utf8Error } from './utf8.js';

export interface RawTable {
  file: string;
  header: string[];
  /** The records after the header; rows[i] starts on lines[i]. */
  rows: string[][];
  lines: number[];
}

export interface TableRead {
  table: RawTable;
  errors: ReflistError[];
}

/**
 * Where a reader hands each record after the header, with the line it starts
 * on, as it reads it. A table keeps them all; a build's checks type them as
 * they come (validate.ts), so that no file is ever held whole as strings.
 */
export type RowSink = (cells: string[], line: number) => void;

/** Makes the sink of a file's records once its header is read (never, for a file with no line at all). */
export type OpenRows = (header: string[]) => RowSink;

/** Bytes read, decoded and parsed at a time. */
const CHUNK = 1 << 20;

/** Rows that keep every record in a table. */
function tableOf(file: string): { table: RawTable; open: OpenRows } {
  const table: RawTable = { file, header: [], rows: [], lines: [] };
  const sink: RowSink = (cells, line) => {
    table.rows.push(cells.slice()); // a copy without the spare capacity
    table.lines.push(line);
  };
  return {
    table,
    open: (header) => {
      table.header = header;
      return sink;
    },
  };
}

/** A source file's table and errors. `chunk` (bytes parsed at a time) is for tests. */
export function readTable(file: string, bytes: Uint8Array, chunk = CHUNK, delimiter: Delimiter = ','): TableRead {
  const { table, open } = tableOf(file);
  const reader = new CsvReader(file, delimiter, open);
  for (let at = 0; at < bytes.length; at += chunk) reader.push(bytes.subarray(at, at + chunk));
  return { table, errors: reader.end() };
}

/** The records of a file on disk handed to the sink `open` makes as they are read, a chunk at a time; its errors. */
export function readRowsFile(file: string, path: string, open: OpenRows, delimiter: Delimiter = ','): ReflistError[] {
  const reader = new CsvReader(file, delimiter, open);
  eachChunk(path, CHUNK, (bytes) => {
    reader.push(bytes);
    return true;
  });
  return reader.end();
}

/** readTable of a file on disk, read a chunk at a time so that it is never held whole; `digest` is the SHA-1 (hex) of its bytes. */
export function readTableFile(
  file: string,
  path: string,
  chunk = CHUNK,
  delimiter: Delimiter = ',',
): TableRead & { digest: string } {
  const { table, open } = tableOf(file);
  const reader = new CsvReader(file, delimiter, open);
  const hash = createHash('sha1');
  eachChunk(path, chunk, (bytes) => {
    hash.update(bytes);
    reader.push(bytes);
    return true;
  });
  return { table, errors: reader.end(), digest: hash.digest('hex') };
}

/** The SHA-1 (hex) of a file's bytes, as readTableFile gives it, read a chunk at a time. */
export function digestFile(path: string): string {
  const hash = createHash('sha1');
  eachChunk(path, CHUNK, (bytes) => {
    hash.update(bytes);
    return true;
  });
  return hash.digest('hex');
}

/** Feeds a file's bytes to `take` until the end or until it answers false; the buffer is reused. */
function eachChunk(path: string, size: number, take: (bytes: Uint8Array) => boolean): void {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(size);
    for (let n: number; (n = readSync(fd, buffer, 0, size, null)) > 0 && take(buffer.subarray(0, n)); );
  } finally {
    closeSync(fd);
  }
}

const QUOTE = 34;
const LF = 10;

// ------------------------------------------------------------ csv-parse

const QUOTE_NOT_CLOSED = 'CSV_QUOTE_NOT_CLOSED';

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const startsWithBom = (bytes: Uint8Array, at: number) => UTF8_BOM.every((b, i) => bytes[at + i] === b);

/** The count of LF bytes in bytes[from, to). */
function lfs(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let n = 0;
  for (let i = bytes.indexOf(LF, from); i >= 0 && i < to; i = bytes.indexOf(LF, i + 1)) n++;
  return n;
}

function newlinesIn(value: string): number {
  let n = 0;
  for (let i = value.indexOf('\n'); i >= 0; i = value.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Where the quote that is never closed opened, in the bytes of a record up to
 * the end of the file or to the line where a quote seemed to close it: past
 * it, quotes come only doubled, so it is the first quote of the last run of
 * an odd number of quotes. -1 if none.
 */
function unclosedQuote(bytes: Uint8Array): number {
  for (let i = bytes.lastIndexOf(QUOTE); i >= 0; ) {
    let first = i;
    while (first > 0 && bytes[first - 1] === QUOTE) first--;
    if ((i - first + 1) % 2 === 1) return first;
    i = first > 0 ? bytes.lastIndexOf(QUOTE, first - 1) : -1;
  }
  return -1;
}

const noop = () => {};

/**
 * A file read by csv-parse a chunk at a time, each record counted on the
 * line it starts on. csv-parse stops at the first malformed record; the
 * reader then reports it on its line and reads on from the next line, so a
 * broken record costs only itself: the rows after it are read and checked as
 * usual, and other files that refer to them find them. A quote that is never
 * closed is reported on the line where it opened.
 */
class CsvReader {
  /** Where the records go: made once the header is read. */
  private sink: RowSink | undefined;
  private readonly errors: ReflistError[] = [];
  private readonly utf8 = new InvalidUtf8Lines();
  /** The first bytes, held until the BOMs they may start with are skipped; undefined once parsing began. */
  private head: Buffer | undefined = Buffer.alloc(0);
  private parser: ChunkParser | undefined;
  /** The file offset of the parser's first byte. */
  private parserFrom = 0;
  /** The bytes fed from the start of the record being read on, the first of them at file offset pendingFrom. */
  private pending: Buffer[] = [];
  private pendingFrom = 0;
  /** Where the record being read starts: its file offset and line. */
  private recordFrom = 0;
  private line = 1;
  /** The file offset after the last byte fed, and whether the parser waits for the end of a malformed line. */
  private fedTo = 0;
  private skipping = false;
  /** The LF bytes in what was pushed before. */
  private lfsPushed = 0;
  private readonly take = (record: string[]) => this.record(record);

  constructor(
    private readonly file: string,
    private readonly delimiter: Delimiter,
    private readonly open: OpenRows,
  ) {}

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const bytes = Buffer.from(chunk); // a copy: the caller may reuse its buffer, and pending keeps this one
    // Invalid UTF-8 is reported on lines counted at LF bytes, as a text editor counts them.
    this.utf8.push(bytes, () => 1 + this.lfsPushed);
    this.lfsPushed += lfs(bytes);
    if (!this.head) {
      this.feed(bytes);
      return;
    }
    this.head = Buffer.concat([this.head, bytes]);
    if (this.head.length >= 2 * UTF8_BOM.length) this.start();
  }

  /** The errors found, in line order. */
  end(): ReflistError[] {
    this.utf8.end(() => 1 + this.lfsPushed);
    if (this.head) this.start();
    // A file that ends in a malformed record is read again from it; undefined: it was read to its end.
    while (this.parser!.parse(undefined, true, this.take)) {
      const rest = this.recover(true);
      if (!rest) break;
      this.parseAgain(rest);
    }
    const errors = utf8Error(this.file, this.utf8).concat(this.errors);
    return errors.sort((a, b) => a.line! - b.line!);
  }

  /** Skips up to two BOMs (as a decoder and then csv-parse did) and parses the bytes held. */
  private start(): void {
    const head = this.head!;
    this.head = undefined;
    let at = 0;
    for (let i = 0; i < 2 && startsWithBom(head, at); i++) at += UTF8_BOM.length;
    this.restart(at);
    this.fedTo = at;
    this.feed(head.subarray(at));
  }

  /** A new parser from file offset `from`, where a record starts, keeping the line end found on the file's first line. */
  private restart(from: number): void {
    this.parser = chunkParser(this.delimiter, this.parser?.recordDelimiters);
    this.parserFrom = this.recordFrom = from;
    this.pending = [];
  }

  /** Parses the next bytes of the file. */
  private feed(bytes: Buffer): void {
    const from = this.fedTo;
    this.fedTo += bytes.length;
    if (this.skipping) {
      // The rest of a malformed line.
      const lf = bytes.indexOf(LF);
      if (lf < 0) return;
      this.skipping = false;
      this.restart(from + lf + 1);
      bytes = bytes.subarray(lf + 1);
    }
    for (let next: Buffer | undefined = bytes; next && next.length > 0; ) {
      // Drop what lies wholly before the record being read.
      while (this.pending.length > 0 && this.pendingFrom + this.pending[0]!.length <= this.recordFrom) {
        this.pendingFrom += this.pending.shift()!.length;
      }
      if (this.pending.length === 0) this.pendingFrom = this.recordFrom;
      this.pending.push(next);
      const failed = this.parser!.parse(next, false, this.take);
      next = failed ? this.recover(false) : undefined;
    }
  }

  /** Parses bytes fed before, from the start of a record on, the last of them the last byte fed. */
  private parseAgain(bytes: Buffer): void {
    this.fedTo -= bytes.length;
    this.feed(bytes);
  }

  private record(record: string[]): void {
    const line = this.line;
    let lines = 1;
    for (const value of record) lines += newlinesIn(value);
    this.line += lines;
    this.recordFrom = this.parserFrom + this.parser!.bytes;
    if (record.length === 1 && record[0] === '') return; // an empty line, or one of only ""
    if (this.sink) this.sink(record, line);
    else this.sink = this.open(record.map((h) => h.trim()));
  }

  /** The bytes fed from the start of the record being read on. */
  private unread(): Buffer {
    const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    return all.subarray(this.recordFrom - this.pendingFrom);
  }

  /**
   * The parser failed somewhere from the record being read to the last byte
   * fed: feeds those bytes again to a new parser, a line at a time, reports
   * the line it fails on, and answers the bytes after that line, to be fed
   * to a parser started there (undefined if it did not fail again).
   * `final`: the file has ended.
   */
  private recover(final: boolean): Buffer | undefined {
    const from = this.recordFrom;
    const line = this.line;
    const bytes = this.unread();
    this.restart(from);
    this.pending = [bytes];
    this.pendingFrom = from;
    for (let at = 0, last = 0; ; ) {
      let failed: CsvParseError | undefined;
      if (at < bytes.length) {
        const lf = bytes.indexOf(LF, at);
        const to = lf < 0 ? bytes.length : lf + 1;
        failed = this.parser!.parse(bytes.subarray(at, to), false, this.take);
        [last, at] = [at, to];
      } else if (final) {
        failed = this.parser!.parse(undefined, true, this.take);
        if (!failed) return undefined;
      } else {
        return undefined;
      }
      if (!failed) continue;
      // The record being read, from its start to the last byte fed.
      const start = this.recordFrom - from;
      const record = bytes.subarray(start);
      let [error, lineStart] = [failed, last];
      if (error.code !== QUOTE_NOT_CLOSED) {
        // csv-parse holds back the last bytes it was given until it sees what follows them: the error may be on the line before.
        const early = this.probe(bytes.subarray(start, last));
        if (early && early.code !== QUOTE_NOT_CLOSED)
          [error, lineStart] = [early, Math.max(start, last < 2 ? 0 : bytes.lastIndexOf(LF, last - 2) + 1)];
      }
      // A quote never closed: at the end of the file, or where a quote on a later line seems to close it and is followed by text.
      // Its field is taken to end on the line it opened, where the mistake most likely is.
      const open = error.code === QUOTE_NOT_CLOSED ? record : bytes.subarray(start, lineStart);
      if (
        error.code === QUOTE_NOT_CLOSED ||
        (error.code === 'CSV_INVALID_CLOSING_QUOTE' && this.probe(open)?.code === QUOTE_NOT_CLOSED)
      ) {
        const quote = Math.max(0, unclosedQuote(open));
        const opened = this.line + lfs(record, 0, quote);
        this.fail('quote opened here is never closed', opened);
        return this.readOnAfter(record, this.recordFrom, quote, opened, final);
      }
      const failedOn = line + lfs(bytes, 0, lineStart);
      this.fail(error.message.replace(/ at line \d+/, ''), failedOn);
      return this.readOnAfter(bytes, from, lineStart, failedOn, final);
    }
  }

  /** The first error csv-parse finds in these bytes, read to their end from the start of a record (undefined if none). */
  private probe(bytes: Buffer): CsvParseError | undefined {
    if (bytes.length === 0) return undefined;
    return chunkParser(this.delimiter, this.parser!.recordDelimiters).parse(bytes, true, noop);
  }

  /**
   * Starts a parser after the line `line` that holds bytes[at] (bytes[0] is
   * at file offset `from`, and the last of them is the last byte fed), and
   * answers the bytes after that line. A line that goes on past them is
   * skipped to its end as more come, unless the file has ended (`final`).
   */
  private readOnAfter(bytes: Buffer, from: number, at: number, line: number, final: boolean): Buffer | undefined {
    const lf = bytes.indexOf(LF, at);
    this.line = line + 1;
    if (lf < 0 && !final) {
      this.restart(from + bytes.length);
      this.skipping = true;
      return undefined;
    }
    const next = lf < 0 ? bytes.length : lf + 1;
    this.restart(from + next);
    return next < bytes.length ? bytes.subarray(next) : undefined;
  }

  private fail(message: string, line: number): void {
    this.errors.push(new ReflistError('CSV_MALFORMED', message, { file: this.file, line }));
  }
}
