// Stage 1, read: a source CSV file → its header and raw string rows, each with
// the line it starts on. Malformed CSV and invalid UTF-8 become located errors;
// the rows that could still be read are kept, so later checks report too.
//
// A file is read in chunks by a hand-written RFC 4180 parser, which accepts
// only what csv-parse reads the same way; anything else (bad quoting, lone CRs,
// mixed line ends) is read whole by csv-parse, exactly as before, so its
// errors and lines do not change.
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { Parser } from 'csv-parse';
import { ReflistError } from './errors.js';
import { readWithCsvParse } from './read-slow.js';

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

/** Bytes read, decoded and parsed at a time. */
const CHUNK = 1 << 20;

/**
 * The parser that reads the sources: the hand-written one, or with
 * REFLIST_PARSER=csv-parse csv-parse alone. Read here only, for the A/B of
 * `npm run bench -- parser`.
 */
const HAND_WRITTEN = process.env['REFLIST_PARSER'] !== 'csv-parse';

/** A source file's table and errors. `chunk` (bytes parsed at a time) is for tests. */
export function readTable(file: string, bytes: Uint8Array, chunk = CHUNK): TableRead {
  if (!HAND_WRITTEN) {
    const reader = new CsvReader(file);
    for (let at = 0; at < bytes.length; at += chunk) reader.push(bytes.subarray(at, at + chunk));
    return reader.end();
  }
  return readWellFormed(file, bytes, chunk) ?? readWhole(file, bytes);
}

/** The fast path alone: undefined for a file that needs csv-parse. */
export function readWellFormed(file: string, bytes: Uint8Array, chunk = CHUNK): TableRead | undefined {
  const reader = new ChunkReader(file);
  for (let at = 0; at < bytes.length && reader.push(bytes.subarray(at, at + chunk)); at += chunk);
  return reader.end();
}

/**
 * readTable of a file on disk, read a chunk at a time so that it is never
 * held whole (unless it needs csv-parse); `digest` is the SHA-1 (hex) of its bytes.
 */
export function readTableFile(file: string, path: string, chunk = CHUNK): TableRead & { digest: string } {
  if (!HAND_WRITTEN) {
    const reader = new CsvReader(file);
    const hash = createHash('sha1');
    eachChunk(path, chunk, (bytes) => (hash.update(bytes), reader.push(bytes), true));
    return { ...reader.end(), digest: hash.digest('hex') };
  }
  const reader = new ChunkReader(file);
  const hash = createHash('sha1');
  eachChunk(path, chunk, (bytes) => (hash.update(bytes), reader.push(bytes)));
  const read = reader.end();
  if (read) return { ...read, digest: hash.digest('hex') };
  // Read again whole, and hash the very bytes that were parsed.
  const bytes = readFileSync(path);
  return { ...readWhole(file, bytes), digest: sha1(bytes) };
}

/** The SHA-1 (hex) of a file's bytes, as readTableFile gives it, read a chunk at a time. */
export function digestFile(path: string): string {
  const hash = createHash('sha1');
  eachChunk(path, CHUNK, (bytes) => (hash.update(bytes), true));
  return hash.digest('hex');
}

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

/** Feeds a file's bytes to `take` until the end or until it answers false; the buffer is reused. */
function eachChunk(path: string, size: number, take: (bytes: Uint8Array) => boolean): void {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(size);
    for (let n; (n = readSync(fd, buffer, 0, size, null)) > 0 && take(buffer.subarray(0, n)); );
  } finally {
    closeSync(fd);
  }
}

/** Decodes and parses chunk by chunk; end() answers undefined when the file needs csv-parse. */
class ChunkReader {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly utf8 = new InvalidUtf8Lines();
  private readonly records: Records;
  private failed = false;

  constructor(private readonly file: string) {
    this.records = new Records(file);
  }

  /** false once the file is known to need csv-parse: the rest need not be pushed. */
  push(bytes: Uint8Array): boolean {
    if (this.failed) return false;
    this.utf8.push(bytes, () => this.records.nextLine());
    this.failed = !this.records.push(this.decoder.decode(bytes, STREAM), false);
    return !this.failed;
  }

  end(): TableRead | undefined {
    if (this.failed) return undefined;
    this.utf8.end(() => this.records.nextLine());
    if (!this.records.push(this.decoder.decode(), true)) return undefined;
    return { table: this.records.table, errors: utf8Errors(this.file, this.utf8.lines) };
  }
}

const STREAM = { stream: true } as const;

const utf8Errors = (file: string, lines: number[]) =>
  lines.map((line) => new ReflistError('INVALID_UTF8', 'invalid UTF-8 (save the file as UTF-8)', { file, line }));

/**
 * The lines (1-based, counted at LF bytes) that hold bytes which are not
 * UTF-8, found chunk by chunk. A character cut by a chunk's end is held back
 * and checked with the next chunk's first bytes. A chunk is split into lines
 * only when it fails the whole-chunk check, and only then is the line it
 * starts on asked for (counting every line would cost more than the check).
 */
class InvalidUtf8Lines {
  readonly lines: number[] = [];
  private tail: Uint8Array = new Uint8Array(0);

  push(bytes: Uint8Array, lineAt: () => number): void {
    let from = 0;
    if (this.tail.length > 0) {
      const need = sequenceLength(this.tail[0]!) - this.tail.length;
      while (from < need && from < bytes.length && (bytes[from]! & 0xc0) === 0x80) from++;
      const seam = concat(this.tail, bytes.subarray(0, from));
      if (from === bytes.length && from < need) return void (this.tail = seam);
      if (!isUtf8(seam)) this.mark(lineAt());
    }
    const end = unfinished(bytes, from);
    this.tail = new Uint8Array(bytes.subarray(end)); // a copy: the caller reuses its buffer
    const body = bytes.subarray(from, end);
    if (!isUtf8(body)) this.scan(body, lineAt());
  }

  /** A character still unfinished at the end of the file is invalid. */
  end(lineAt: () => number): void {
    if (this.tail.length > 0) this.mark(lineAt());
  }

  private scan(bytes: Uint8Array, line: number): void {
    for (let start = 0; ; line++) {
      const lf = bytes.indexOf(0x0a, start);
      if (!isUtf8(bytes.subarray(start, lf < 0 ? bytes.length : lf))) this.mark(line);
      if (lf < 0) return;
      start = lf + 1;
    }
  }

  private mark(line: number): void {
    if (this.lines.at(-1) !== line) this.lines.push(line);
  }
}

/** The length a UTF-8 lead byte announces (1 for bytes that cannot lead a longer character). */
const sequenceLength = (byte: number) => (byte >= 0xf0 && byte < 0xf8 ? 4 : byte >= 0xe0 && byte < 0xf0 ? 3 : byte >= 0xc0 && byte < 0xe0 ? 2 : 1);

/** Where a character that the end of `bytes` cuts short begins (bytes.length if none does). */
function unfinished(bytes: Uint8Array, from: number): number {
  let i = bytes.length - 1;
  while (i >= from && i > bytes.length - 4 && (bytes[i]! & 0xc0) === 0x80) i--;
  return i >= from && i + sequenceLength(bytes[i]!) > bytes.length ? i : bytes.length;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const both = new Uint8Array(a.length + b.length);
  both.set(a);
  both.set(b, a.length);
  return both;
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/**
 * The fast parser, fed decoded text. It reads a record only once it has all
 * of it (a cut record waits in `rest` for the next chunk) and gives up
 * (push answers false) at anything csv-parse would reject, or would read
 * differently when given 1 MiB at a time as before: a quote inside an
 * unquoted field, text after a closing quote, an unclosed quote, a CR outside
 * quotes that is not part of the file's CRLF line ends, an LF without its CR
 * in a CRLF file. (csv-parse takes the line end from the first one outside
 * quotes and reads any other CR or LF as text.)
 */
class Records {
  readonly table: RawTable;
  private rest = '';
  private started = false;
  private ends: 'unknown' | 'lf' | 'crlf' = 'unknown';
  private headerRead = false;
  /** The line the record in `rest` starts on. */
  private line = 1;
  /** The fields of the record being read, copied out at its end so that rows hold no spare capacity. */
  private readonly fields: string[] = [];

  constructor(file: string) {
    this.table = { file, header: [], rows: [], lines: [] };
  }

  /** The line that the next character pushed will be on. */
  nextLine(): number {
    let line = this.line;
    for (let i = this.rest.indexOf('\n'); i >= 0; i = this.rest.indexOf('\n', i + 1)) line++;
    return line;
  }

  push(text: string, final: boolean): boolean {
    // Joined, not added: indexing a flat string is faster than indexing a concatenation.
    let s = this.rest === '' ? text : [this.rest, text].join('');
    if (!this.started) {
      if (s === '' && !final) return true;
      // TextDecoder drops the file's BOM; csv-parse (bom: true) drops a second one.
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      this.started = true;
    }
    const len = s.length;
    const fields = this.fields;
    // The next LF at or after the quoted field being read, for its count of lines.
    let lf = -1;
    let start = 0;
    records: while (start < len) {
      let n = 0;
      let newlines = 0;
      let i = start;
      for (;;) {
        let c = s.charCodeAt(i);
        if (c === QUOTE) {
          // Quoted fields are searched with indexOf, faster than a loop over their characters.
          const from = i + 1;
          let escaped = false;
          for (i = s.indexOf('"', from); i >= 0 && s.charCodeAt(i + 1) === QUOTE; i = s.indexOf('"', i + 2)) escaped = true;
          if (i < 0 || (i + 1 === len && !final)) {
            if (final) return false; // Quote Not Closed
            break records;
          }
          if (lf < from) lf = nextLf(s, from);
          while (lf < i) newlines++, (lf = nextLf(s, lf + 1));
          fields[n++] = escaped ? s.slice(from, i).split('""').join('"') : own(s, from, i);
          c = s.charCodeAt(++i);
        } else {
          const from = i;
          while (i < len && ((c = s.charCodeAt(i)) > COMMA || (c !== COMMA && c !== QUOTE && c !== LF && c !== CR))) i++;
          if (c === QUOTE && i < len) return false; // Invalid Opening Quote
          fields[n++] = own(s, from, i);
        }
        if (i >= len) {
          if (!final) break records;
        } else if (c === COMMA) {
          i++;
          continue;
        } else if (c === LF && this.ends !== 'crlf') {
          this.ends = 'lf';
          i++;
        } else if (c === CR && this.ends !== 'lf' && s.charCodeAt(i + 1) === LF) {
          this.ends = 'crlf';
          i += 2;
        } else if (c === CR && this.ends !== 'lf' && i + 1 === len && !final) {
          break records;
        } else {
          return false; // Invalid Closing Quote, or a line end csv-parse would read otherwise
        }
        if (n !== 1 || fields[0] !== '') this.add(row(fields, n));
        this.line += 1 + newlines;
        start = i;
        break;
      }
    }
    this.rest = s.slice(start);
    return true;
  }

  /** Like csv-parse's records, less the empty ones (a line that is empty or only `""`). */
  private add(record: string[]): void {
    if (!this.headerRead) (this.table.header = record.map((h) => h.trim())), (this.headerRead = true);
    else this.table.rows.push(record), this.table.lines.push(this.line);
  }
}

/** Where the next LF is, or the string's length. */
function nextLf(s: string, from: number): number {
  const i = s.indexOf('\n', from);
  return i < 0 ? s.length : i;
}

/**
 * The first n fields as an exact-size array. Literals for the usual widths:
 * V8 sees that the arrays made by a literal survive and then allocates them
 * straight in the old generation, which spares copying a million rows
 * through the young one (some 15% of the time of a million-row read).
 */
function row(f: string[], n: number): string[] {
  switch (n) {
    case 1: return [f[0]!];
    case 2: return [f[0]!, f[1]!];
    case 3: return [f[0]!, f[1]!, f[2]!];
    case 4: return [f[0]!, f[1]!, f[2]!, f[3]!];
    case 5: return [f[0]!, f[1]!, f[2]!, f[3]!, f[4]!];
    case 6: return [f[0]!, f[1]!, f[2]!, f[3]!, f[4]!, f[5]!];
    default: return f.slice(0, n);
  }
}

/**
 * s.slice(from, to) as a string of its own. V8 copies substrings shorter
 * than 13 characters but makes longer ones views that keep their whole parent
 * alive: here a chunk of 1 MiB, so the rows would keep the whole file. A join
 * of two parts copies them into a new flat string.
 */
const own = (s: string, from: number, to: number) => (to - from < 13 ? s.slice(from, to) : [s[from], s.slice(from + 1, to)].join(''));

// ------------------------------------------------------------ the slow path

/** A file the fast parser gave up on, read whole as before: by csv-parse, then located errors if it throws. */
function readWhole(file: string, bytes: Uint8Array): TableRead {
  const check = new InvalidUtf8Lines();
  check.push(bytes, () => 1);
  check.end(() => {
    let line = 1;
    for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) line++;
    return line;
  });
  const errors = utf8Errors(file, check.lines);
  const read = readWithCsvParse(file, new TextDecoder('utf-8').decode(bytes), CHUNK);
  return { table: read.table, errors: errors.concat(read.errors) };
}

// ------------------------------------------------------------ csv-parse

/** What read.ts uses of a csv-parse Parser: its parser proper, fed bytes a chunk at a time, and where it is. */
interface CsvParseApi {
  parse(bytes: Buffer | undefined, end: boolean, push: (record: string[]) => void, close: () => void): (Error & { code?: string }) | undefined;
  /** Bytes consumed since the parser's start: at a record's push, where the record ends. */
  info: { bytes: number };
  options: { record_delimiter: Buffer[] };
}

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
 * Where the quote that is never closed opened, in the bytes of a record that
 * runs to the end of the file: past it, quotes come only doubled, so it is
 * the first quote of the last run of an odd number of quotes. -1 if none.
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
  readonly table: RawTable;
  private readonly errors: ReflistError[] = [];
  private readonly utf8 = new InvalidUtf8Lines();
  /** The first bytes, held until the BOMs they may start with are skipped; undefined once parsing began. */
  private head: Buffer | undefined = Buffer.alloc(0);
  private parser: CsvParseApi | undefined;
  /** The file offset of the parser's first byte. */
  private parserFrom = 0;
  /** The bytes fed from the start of the record being read on, the first of them at file offset pendingFrom. */
  private pending: Buffer[] = [];
  private pendingFrom = 0;
  /** Where the record being read starts: its file offset and line. */
  private recordFrom = 0;
  private line = 1;
  private headerRead = false;
  private readonly take = (record: string[]) => this.record(record);

  constructor(private readonly file: string) {
    this.table = { file, header: [], rows: [], lines: [] };
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const bytes = Buffer.from(chunk); // a copy: the caller may reuse its buffer, and pending keeps this one
    this.utf8.push(bytes, () => this.lineAtEnd());
    if (!this.head) return this.feed(bytes);
    this.head = Buffer.concat([this.head, bytes]);
    if (this.head.length >= 2 * UTF8_BOM.length) this.start();
  }

  end(): TableRead {
    this.utf8.end(() => this.lineAtEnd());
    if (this.head) this.start();
    // A file that ends in a malformed record is read again from it; undefined: it was read to its end.
    while (this.parser!.parse(undefined, true, this.take, noop)) {
      const rest = this.recover(true);
      if (!rest) break;
      this.feed(rest);
    }
    const errors = utf8Errors(this.file, this.utf8.lines).concat(this.errors);
    return { table: this.table, errors: errors.sort((a, b) => a.line! - b.line!) };
  }

  /** Skips up to two BOMs (as a decoder and then csv-parse did) and parses the bytes held. */
  private start(): void {
    const head = this.head!;
    this.head = undefined;
    let at = 0;
    for (let i = 0; i < 2 && startsWithBom(head, at); i++) at += UTF8_BOM.length;
    this.restart(at);
    if (at < head.length) this.feed(head.subarray(at));
  }

  /** A new parser from file offset `from`, where a record starts, keeping the line end found on the file's first line. */
  private restart(from: number): void {
    const found = this.parser?.options.record_delimiter.map(String) ?? [];
    const options = { relax_column_count: true, ...(found.length > 0 && { record_delimiter: found }) };
    this.parser = (new Parser(options) as unknown as { api: CsvParseApi }).api;
    this.parserFrom = this.recordFrom = from;
    this.pending = [];
  }

  private feed(bytes: Buffer): void {
    for (let next: Buffer | undefined = bytes; next; ) {
      // Drop what lies wholly before the record being read.
      while (this.pending.length > 0 && this.pendingFrom + this.pending[0]!.length <= this.recordFrom) {
        this.pendingFrom += this.pending.shift()!.length;
      }
      if (this.pending.length === 0) this.pendingFrom = this.recordFrom;
      this.pending.push(next);
      const failed = this.parser!.parse(next, false, this.take, noop);
      next = failed ? this.recover(false) : undefined;
    }
  }

  private record(record: string[]): void {
    const line = this.line;
    let lines = 1;
    for (const value of record) lines += newlinesIn(value);
    this.line += lines;
    this.recordFrom = this.parserFrom + this.parser!.info.bytes;
    if (record.length === 1 && record[0] === '') return; // an empty line, or one of only ""
    if (!this.headerRead) (this.table.header = record.map((h) => h.trim())), (this.headerRead = true);
    else this.table.rows.push(record.slice()), this.table.lines.push(line); // a copy without the spare capacity
  }

  /** The line of the last byte pushed. */
  private lineAtEnd(): number {
    return this.head ? 1 + lfs(this.head) : this.line + lfs(this.unread());
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
      let failed;
      if (at < bytes.length) {
        const lf = bytes.indexOf(LF, at);
        const to = lf < 0 ? bytes.length : lf + 1;
        failed = this.parser!.parse(bytes.subarray(at, to), false, this.take, noop);
        [last, at] = [at, to];
      } else if (final) {
        failed = this.parser!.parse(undefined, true, this.take, noop);
        if (!failed) return undefined;
      } else {
        return undefined;
      }
      if (failed?.code === 'CSV_QUOTE_NOT_CLOSED') {
        // The record being read runs to the end of the file.
        const record = bytes.subarray(this.recordFrom - from);
        const quote = Math.max(0, unclosedQuote(record));
        const opened = this.line + lfs(record, 0, quote);
        this.fail('quote opened here is never closed', opened);
        return this.readOnAfter(record, this.recordFrom, quote, opened);
      }
      if (failed) {
        // csv-parse holds back the last bytes it was given until it sees what follows them: the error may be at the end of the line before.
        const onLineBefore = last > 0 && this.failsAlone(bytes.subarray(this.recordFrom - from, last));
        const at = onLineBefore ? last - 1 : last;
        const failedOn = line + lfs(bytes, 0, at);
        this.fail(failed.message.replace(/ at line \d+/, ''), failedOn);
        return this.readOnAfter(bytes, from, at, failedOn);
      }
    }
  }

  /** Whether csv-parse finds an error in these bytes, read to their end from the start of a record, other than a quote still open. */
  private failsAlone(bytes: Buffer): boolean {
    const probe = (new Parser({ relax_column_count: true, record_delimiter: this.parser!.options.record_delimiter.map(String) }) as unknown as { api: CsvParseApi }).api;
    const failed = probe.parse(bytes, true, noop, noop);
    return failed !== undefined && failed.code !== 'CSV_QUOTE_NOT_CLOSED';
  }

  /** Starts a parser after the line `line` that holds bytes[at] (bytes[0] is at file offset `from`), and answers the bytes after it. */
  private readOnAfter(bytes: Buffer, from: number, at: number, line: number): Buffer | undefined {
    const lf = bytes.indexOf(LF, at);
    const next = lf < 0 ? bytes.length : lf + 1;
    this.restart(from + next);
    this.line = line + 1;
    return next < bytes.length ? bytes.subarray(next) : undefined;
  }

  private fail(message: string, line: number): void {
    this.errors.push(new ReflistError('CSV_MALFORMED', message, { file: this.file, line }));
  }
}
