// Invalid UTF-8 in a source read a chunk at a time (read.ts): the lines that
// hold it, found without splitting a valid chunk into lines, and the one
// error that reports them, with a hint of the encoding the file looks like.
import { isUtf8 } from 'node:buffer';
import { ReflistError } from '../errors.js';
import { concat, sequenceLength, unfinished } from './bytes.js';
import { encodingHint } from './hints.js';

/** Lines named in a message at most. */
const SHOWN_LINES = 5;

/**
 * A file's invalid UTF-8 as one error, on its first line: a file saved in
 * another encoding has it on every line with a letter past ASCII, and one
 * cause is one message, with a hint of the encoding it looks like.
 */
export function utf8Error(file: string, { lines, sample }: InvalidUtf8Lines): ReflistError[] {
  if (lines.length === 0) return [];
  const more = lines.slice(1);
  const shown = more.slice(0, SHOWN_LINES).join(', ') + (more.length > SHOWN_LINES ? ', …' : '');
  const message = `invalid UTF-8${more.length === 0 ? '' : ` (and on ${more.length} more line${more.length > 1 ? 's' : ''}: ${shown})`}`;
  return [
    new ReflistError(
      'INVALID_UTF8',
      message,
      { file, line: lines[0] },
      encodingHint(file, sample?.line ?? lines[0]!, sample?.bytes ?? new Uint8Array(0)),
    ),
  ];
}

/**
 * The lines (1-based, counted at LF bytes) that hold bytes which are not
 * UTF-8, found chunk by chunk. A character cut by a chunk's end is held back
 * and checked with the next chunk's first bytes. A chunk is split into lines
 * only when it fails the whole-chunk check, and only then is the line it
 * starts on asked for.
 */
export class InvalidUtf8Lines {
  readonly lines: number[] = [];
  /** The first invalid line found whole, its bytes (at most 256), to tell the encoding by. */
  sample: { line: number; bytes: Uint8Array } | undefined;
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
      const text = bytes.subarray(start, lf < 0 ? bytes.length : lf);
      if (!isUtf8(text)) {
        this.mark(line);
        this.sample ??= { line, bytes: text.slice(0, 256) };
      }
      if (lf < 0) return;
      start = lf + 1;
    }
  }

  private mark(line: number): void {
    if (this.lines.at(-1) !== line) this.lines.push(line);
  }
}
