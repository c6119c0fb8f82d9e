// A list's records in a file of their own (docs/architecture.md, Memory):
// past a size, the records of a list are written to a temp file as they are
// made and read back a record at a time, so a build's heap holds eight bytes
// of each (where it starts), not the record. The file is unlinked as soon as
// it is open: it goes when the build lets go of it, or when the process
// ends, whatever the way.
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ioError } from '../errors.js';
import { heldRecords, type Records, type RecordStore } from '../sources/record.js';

/** What a spilled list reads and writes at once: its records come and go in list order mostly, many to a window. */
const WINDOW = 1 << 14;

/**
 * The store that holds a list's records while they take at most `bytes`
 * (UTF-8), and spills them all to a file in `dir` once they take more.
 */
export function spillingOver(bytes: number, dir = tmpdir()): RecordStore {
  return (count, record) => {
    const held: string[] = [];
    let size = 0;
    let e = 0;
    for (; e < count && size <= bytes; e++) {
      const r = record(e);
      held.push(r);
      size += Buffer.byteLength(r);
    }
    if (size <= bytes) return heldRecords(held);
    const file = new RecordFile(dir, count);
    for (const r of held) file.push(r);
    held.length = 0;
    for (; e < count; e++) file.push(record(e));
    return file.written();
  };
}

/** Records appended to an unlinked temp file, then read back by where each starts (offsets[e]) and ends. */
class RecordFile implements Records {
  private readonly path: string;
  private readonly fd: number;
  private readonly offsets: Float64Array;
  private pushed = 0;
  private buffer = Buffer.allocUnsafe(WINDOW);
  private filled = 0;
  /** The file's bytes [from, from + windowed) are in buffer, once written. */
  private from = -1;
  private windowed = 0;

  constructor(
    dir: string,
    readonly length: number,
  ) {
    this.path = join(dir, `reflist-records-${process.pid}-${randomBytes(6).toString('hex')}`);
    this.fd = this.io(() => openSync(this.path, 'wx+', 0o600));
    this.io(() => unlinkSync(this.path));
    this.offsets = new Float64Array(length + 1);
  }

  push(record: string): void {
    const bytes = Buffer.byteLength(record);
    if (this.filled + bytes > this.buffer.length) this.flush();
    if (bytes > this.buffer.length) this.io(() => writeSync(this.fd, record, this.offsets[this.pushed]));
    else this.filled += this.buffer.write(record, this.filled);
    this.offsets[this.pushed + 1] = this.offsets[this.pushed]! + bytes;
    this.pushed++;
  }

  written(): Records {
    this.flush();
    return this;
  }

  at(e: number): string {
    const start = this.offsets[e]!;
    const end = this.offsets[e + 1]!;
    if (start < this.from || end > this.from + this.windowed) {
      const bytes = end - start;
      if (bytes > WINDOW) return this.read(Buffer.allocUnsafe(bytes), start).toString('utf8');
      // A record right after the window is read in list order: a window's worth. One elsewhere (a search
      // file's, an Id bucket's) alone: a window for each read 76.7 GB at a million species, 5.2 so.
      const next = start === this.from + this.windowed;
      this.from = start;
      this.windowed = this.read(next ? this.buffer : this.buffer.subarray(0, bytes), start).length;
    }
    return this.buffer.toString('utf8', start - this.from, end - this.from);
  }

  bytes(e: number): number {
    return this.offsets[e + 1]! - this.offsets[e]!;
  }

  close(): void {
    closeSync(this.fd);
  }

  private flush(): void {
    if (this.filled === 0) return;
    const { buffer, filled } = this;
    this.io(() => writeSync(this.fd, buffer, 0, filled, this.offsets[this.pushed]! - filled));
    this.filled = 0;
  }

  /** As much of the file from `position` as `into` holds (less at its end). */
  private read(into: Buffer, position: number): Buffer {
    const n = this.io(() => readSync(this.fd, into, 0, into.length, position));
    return into.subarray(0, n);
  }

  /** A file system call, its failure located at the file's path. */
  private io<T>(call: () => T): T {
    try {
      return call();
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      e.path ??= this.path;
      throw ioError(e);
    }
  }
}
