// The building blocks of reading reflist.config.json: where its errors are
// collected, each located by its JSON path, and the reader of the source
// files every part of it names. The schema (schema.ts, check.ts) has checked
// the values' forms before any reader runs; a reader fills in the defaults
// and checks the rules between keys. Pure.
import { ReflistError } from '../errors.js';
import { DEFAULTS, type RawSource } from './schema.js';
import type { SourceSpec } from './spec.js';

export { NAME } from './schema.js';
export type Json = unknown;
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
}

/** A source as declared, a file name or {file, delimiter}; `fallback` when none is. Without a delimiter, the header says which. */
export function readSource(v: RawSource | undefined, fallback: string): SourceSpec {
  const { file, delimiter } = typeof v === 'object' ? v : { file: v ?? fallback, delimiter: undefined };
  return delimiter === undefined ? { file, delimiter: DEFAULTS.delimiter, detect: true } : { file, delimiter };
}
