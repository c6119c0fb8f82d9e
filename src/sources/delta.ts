// Stage 1b, delta: what changed in a list's source since the previous build,
// read off the bytes. The old and new files share a prefix and a suffix; the
// records between them are the change. A one-row edit parses one row instead
// of the whole file. Pure.
import type { ListSpec } from '../config/declaration.js';
import type { ReflistError } from '../errors.js';
import type { Id } from './model.js';
import { readTable } from './read.js';
import { typeRows } from './rows.js';
import { listColumns } from './validate.js';

const NL = 0x0a;
const QUOTE = 0x22;

/** The records that differ between two versions of a file, and where they start. */
export interface Window {
  /** The header line, as both files have it. */
  header: Uint8Array;
  was: Uint8Array;
  now: Uint8Array;
  /** The line the window starts on in the new file. */
  line: number;
}

/** The length of the common prefix of a and b. */
function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  // Halve the range with native comparisons, then finish byte by byte.
  let lo = 0;
  const step = 1 << 16;
  while (lo + step <= n && Buffer.compare(a.subarray(lo, lo + step), b.subarray(lo, lo + step)) === 0) lo += step;
  while (lo < n && a[lo] === b[lo]) lo++;
  return lo;
}

function commonSuffix(a: Uint8Array, b: Uint8Array, max: number): number {
  let n = 0;
  while (n < max && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/**
 * Where the header ends and the last record starting at or before `at`
 * starts: positions just after a newline outside quotes.
 */
function recordStart(bytes: Uint8Array, at: number): { header: number; from: number } | undefined {
  let header = -1;
  let from = -1;
  let quoted = false;
  for (let i = 0; i < at; i++) {
    const c = bytes[i];
    if (c === QUOTE) quoted = !quoted;
    else if (c === NL && !quoted) {
      if (header < 0) header = i + 1;
      from = i + 1;
    }
  }
  return header < 0 ? undefined : { header, from };
}

/**
 * The window of whole records where two versions of a file differ, or
 * undefined when the header changed or the files are not plain CSV around it
 * (then the file is read whole).
 */
export function changedWindow(was: Uint8Array, now: Uint8Array): Window | undefined {
  const prefix = commonPrefix(was, now);
  if (prefix === was.length && prefix === now.length) return undefined;
  // The window starts at the last record start at or before the first difference, after the header.
  const start = recordStart(now, prefix);
  if (!start) return undefined;
  const { header, from } = start;
  const suffix = commonSuffix(was, now, Math.min(was.length, now.length) - from);
  // …and ends at the first record end at or after the last difference, in the shared suffix.
  let end = now.length - suffix;
  while (end < now.length && now[end - 1] !== NL) end++;
  const shift = now.length - was.length;
  const windowNow = now.subarray(from, end);
  const windowWas = was.subarray(from, end - shift);
  const quotes = (w: Uint8Array) => w.reduce((n, c) => n + (c === QUOTE ? 1 : 0), 0);
  if (quotes(windowNow) % 2 !== 0 || quotes(windowWas) % 2 !== 0) return undefined;
  let line = 1;
  for (let i = now.indexOf(NL); i >= 0 && i < from; i = now.indexOf(NL, i + 1)) line++;
  return { header: now.subarray(0, header), was: windowWas, now: windowNow, line };
}

/** An entry whose text changed, with nothing else about it. */
export interface TextEdit {
  id: Id;
  text: string;
}

/**
 * The text edits a window makes to a list, or undefined when it does more
 * (adds, removes or reorders ids) or holds anything the full checks would
 * report: then the file is read and checked whole, which says where.
 */
export function windowEdits(list: ListSpec, window: Window): TextEdit[] | undefined {
  const read = listColumns(list, []);
  const rows = (bytes: Uint8Array) => {
    const joined = new Uint8Array(window.header.length + bytes.length);
    joined.set(window.header);
    joined.set(bytes, window.header.length);
    const table = readTable(list.source.file, joined, undefined, list.source.delimiter);
    const errors: ReflistError[] = [...table.errors];
    const typed = typeRows(table.table, read.columns, errors);
    return errors.length > 0 || typed.length !== table.table.rows.length
      ? undefined
      : typed.map((r) => ({ id: r.values[read.id] as Id, text: read.label(r) }));
  };
  const was = rows(window.was);
  const now = rows(window.now);
  if (!was || !now || was.length !== now.length) return undefined;
  const edits: TextEdit[] = [];
  for (const [i, row] of now.entries()) {
    if (row.id !== was[i]!.id) return undefined;
    if (row.text !== was[i]!.text) edits.push({ id: row.id, text: row.text });
  }
  return edits;
}
