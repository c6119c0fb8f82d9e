// The building blocks of reading reflist.config.json: where its errors are
// collected, each located by its JSON path, and the readers of the values
// every part of it takes (names, columns, flags, source files). A reader
// returns undefined for a value it cannot read, after adding its error. Pure.
import { ReflistError, suggest } from '../errors.js';
import type { SourceSpec } from './spec.js';

/** A name that may be a path segment on every host, of a list, a key or a column in a path. */
export const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export type Json = unknown;
export const isObject = (v: Json): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const quote = (s: string) => JSON.stringify(s);

/** Collects a config's errors, each `file: path: message`. */
export class Errors {
  readonly all: ReflistError[] = [];
  constructor(readonly file: string) {}
  add(path: string, message: string): void {
    this.all.push(new ReflistError('INVALID_CONFIG', `${path}: ${message}`, { file: this.file }));
  }
  /** Adds an error and gives nothing: what a reader returns for a value it cannot read (`return e.fail(…)`). */
  fail(path: string, message: string): undefined {
    this.add(path, message);
    return undefined;
  }
  /** Reports keys of `o` not in `known`, with a guess. */
  keys(path: string, o: Record<string, Json>, known: readonly string[]): void {
    for (const key of Object.keys(o)) {
      if (known.includes(key)) continue;
      const hint = suggest(key, known);
      this.add(
        `${path}.${key}`,
        `unknown key${hint ? ` (did you mean ${quote(hint)}?)` : `; expected one of ${known.join(', ')}`}`,
      );
    }
  }
}

export function readSource(e: Errors, path: string, v: Json, fallback: string): SourceSpec | undefined {
  if (v === undefined) return { file: fallback, delimiter: ',', detect: true };
  if (typeof v === 'string') return checkFile(e, path, v) ? { file: v, delimiter: ',', detect: true } : undefined;
  if (!isObject(v)) return e.fail(path, `expected a file name or {"file", "delimiter"}, got ${JSON.stringify(v)}`);
  e.keys(path, v, ['file', 'delimiter']);
  const file = v['file'];
  if (typeof file !== 'string') return e.fail(`${path}.file`, 'expected a file name');
  if (!checkFile(e, `${path}.file`, file)) return undefined;
  const delimiter = v['delimiter'];
  if (delimiter === undefined) return { file, delimiter: ',', detect: true };
  if (delimiter !== ',' && delimiter !== ';' && delimiter !== '\t') {
    return e.fail(`${path}.delimiter`, `expected ",", ";" or "\\t", got ${JSON.stringify(delimiter)}`);
  }
  return { file, delimiter };
}

/** A source is a file in the config's folder or below it: never a path out of it. */
function checkFile(e: Errors, path: string, file: string): boolean {
  const parts = file.split('/');
  if (!file.endsWith('.csv') || file.includes('\\') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    e.add(path, `expected a .csv file in the config's folder or below it, got ${quote(file)}`);
    return false;
  }
  return true;
}

export function readName(e: Errors, path: string, v: Json, what: string): string | undefined {
  if (typeof v !== 'string' || !NAME.test(v)) {
    e.add(path, `expected ${what}: a letter, then up to 63 of A-Z a-z 0-9 _ -, got ${JSON.stringify(v)}`);
    return undefined;
  }
  return v;
}

export function readColumn(e: Errors, path: string, v: Json): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') return e.fail(path, `expected a column name, got ${JSON.stringify(v)}`);
  return v;
}

/** A flag: true or false, false when not given. */
export function readBoolean(e: Errors, path: string, v: Json): boolean {
  if (v === undefined || typeof v === 'boolean') return v ?? false;
  e.add(path, `expected true or false, got ${JSON.stringify(v)}`);
  return false;
}
