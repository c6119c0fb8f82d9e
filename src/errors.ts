// The one error type of reflist: a stable code, a message that says what was
// expected and what came, and where (file and line) when a source is at fault.
// Each code means one thing (docs/architecture.md, "Error codes").

export type ErrorCode =
  | 'CSV_MALFORMED'
  | 'INVALID_UTF8'
  | 'MISSING_SOURCE'
  | 'MISSING_COLUMN'
  | 'UNKNOWN_COLUMN'
  | 'INVALID_VALUE'
  | 'DUPLICATE_KEY'
  | 'UNKNOWN_REFERENCE'
  | 'INVALID_OPTION'
  | 'INVALID_CONFIG'
  | 'OVER_CAP'
  | 'NOT_A_TREE'
  | 'LOCKED'
  | 'IN_THE_WAY'
  | 'IO'
  | 'OUT_OF_MEMORY'
  | 'INTERNAL';

export interface Location {
  file?: string;
  line?: number;
}

export interface Origin {
  /** What failed underneath: a file system call's error, or the writer thread's error. */
  cause?: unknown;
  /** An IO error's Node error code (`ENOSPC`, `EACCES`, …). */
  errno?: string;
}

export class ReflistError extends Error {
  readonly code: ErrorCode;
  readonly file: string | undefined;
  readonly line: number | undefined;
  /** The fix, when the error is one of many with one cause (a delimiter, an id type, an encoding): printed once, after the errors. */
  readonly hint: string | undefined;
  readonly errno: string | undefined;

  constructor(code: ErrorCode, message: string, location: Location = {}, hint?: string, origin: Origin = {}) {
    super(message, 'cause' in origin ? { cause: origin.cause } : undefined);
    this.name = 'ReflistError';
    this.code = code;
    this.file = location.file;
    this.line = location.line;
    this.hint = hint;
    this.errno = origin.errno;
  }

  /** This error with a hint. */
  withHint(hint: string): ReflistError {
    return new ReflistError(this.code, this.message, { file: this.file, line: this.line }, hint, {
      cause: this.cause,
      errno: this.errno,
    });
  }

  /** `file:line: message`, the form every source error is printed in. */
  override toString(): string {
    if (this.file === undefined) return visible(this.message);
    return visible(`${this.file}${this.line === undefined ? '' : `:${this.line}`}: ${this.message}`);
  }
}

/** What a file system error code means, and what a person can do about it. */
const IO_FIXES: Record<string, string> = {
  ENOSPC: 'no space left on the device: free some space, then build again',
  EDQUOT: 'over the disk quota: free some space, then build again',
  EACCES: 'permission denied: let this user write there, or build into another --out',
  EPERM: 'operation not permitted: let this user write there, or build into another --out',
  EROFS: 'a read-only file system: build into another --out',
};

/**
 * A file system call's failure (ENOSPC, EACCES, …) as an IO error located at
 * its path, with its errno and the Node error as its cause; any other error
 * as it is.
 */
export function ioError(err: unknown): unknown {
  const e = err as NodeJS.ErrnoException;
  if (
    err instanceof ReflistError ||
    !(err instanceof Error) ||
    typeof e.code !== 'string' ||
    typeof e.syscall !== 'string'
  )
    return err;
  const fix = IO_FIXES[e.code] ?? `a file system call failed: ${e.message}`;
  return new ReflistError('IO', `${e.syscall} failed with ${e.code}, ${fix}`, { file: e.path }, undefined, {
    cause: err,
    errno: e.code,
  });
}

/** Characters a terminal shows as nothing, or as a plain space: controls, format characters (a BOM, a zero-width space), other spaces. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|(?! )\p{Zs}/gu;

/** A text with each invisible character written as its code point, `<U+FEFF>`, so that a message shows what is there. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`);
}

/** Several errors at once: a build reports all that it found, not just the first. */
export class ReflistErrors extends Error {
  readonly errors: ReflistError[];
  constructor(errors: ReflistError[]) {
    super(errors.map(String).join('\n'));
    this.name = 'ReflistErrors';
    this.errors = errors;
  }
}

/** Errors printed at most; the rest are counted. */
const MAX_PRINTED = 100;

/**
 * A build's failure as a person reads it: each error `file:line: message`,
 * the first 100, then a count, then each hint the errors carry, once.
 */
export function errorLines(err: ReflistError | ReflistErrors): string[] {
  const all = err instanceof ReflistError ? [err] : err.errors;
  const lines = all.slice(0, MAX_PRINTED).map(String);
  if (all.length > MAX_PRINTED) lines.push(`… and ${all.length - MAX_PRINTED} more errors`);
  for (const hint of new Set(all.flatMap((e) => e.hint ?? []))) lines.push(visible(`hint: ${hint}`));
  return lines;
}

/**
 * The candidate a word most likely meant: the closest by edit distance, else
 * one that is the other's first or last word (`country` for `country_code`
 * or `countryCode`: a column named by its first word).
 */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return (
    best ?? candidates.filter((c) => isWordOf(word, c) || isWordOf(c, word)).sort((a, b) => b.length - a.length)[0]
  );
}

/** " (did you mean "x"?)" when a candidate is close, else nothing. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const hint = suggest(word, candidates);
  return hint ? ` (did you mean ${JSON.stringify(hint)}?)` : '';
}

/** Whether `part` (3 letters or more) is the first or the last word of `whole`, words split at `_`, `-`, a space and a capital after a small letter. */
function isWordOf(part: string, whole: string): boolean {
  const words = whole.split(/[_\- ]+|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w !== '');
  const p = part.toLowerCase();
  return p.length >= 3 && words.length > 1 && (words[0]!.toLowerCase() === p || words.at(-1)!.toLowerCase() === p);
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
