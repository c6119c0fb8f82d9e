// The one module that reaches below csv-parse's public API. read.ts needs
// a parser fed a chunk at a time, synchronously, that hands each record over
// as it ends, says where in the bytes that record ended, and answers its
// first error rather than throwing it; a file is then read without being
// held whole, and a malformed record costs only itself (read.ts reads on
// after it).
//
// csv-parse's public API has no such parser: its stream hands records over
// and reports errors asynchronously, and csv-parse/sync takes the whole input.
// Both drive one parser, a Parser's `api`, which is not in csv-parse's types.
// So csv-parse is pinned to an exact version in package.json, and
// test/unit/csv-parse.test.ts asserts each behaviour used here: a version that
// changes one fails that test, not a build.
import { Parser } from 'csv-parse';
import type { Delimiter } from '../config/declaration.js';

/** A csv-parse error: `code` says which (CSV_QUOTE_NOT_CLOSED, CSV_INVALID_CLOSING_QUOTE, …). */
export type CsvParseError = Error & { code?: string };

export interface ChunkParser {
  /**
   * Parses the next bytes (`undefined` with `end`: the input has ended).
   * Each record goes to `push` as soon as it ends, before the next one is
   * parsed; the first malformed record stops the parser and is answered.
   */
  parse(bytes: Buffer | undefined, end: boolean, push: (record: string[]) => void): CsvParseError | undefined;
  /** Bytes consumed since the parser's start: read at a record's push, where that record ends, its line end included. */
  readonly bytes: number;
  /** The line ends records are split at: those given, or the one found on the first line (none before). */
  readonly recordDelimiters: string[];
}

/** The parser's `api`, as csv-parse 7.0.3 has it: its stream's _transform calls exactly this. */
interface CsvParseApi {
  parse(
    bytes: Buffer | undefined,
    end: boolean,
    push: (record: string[]) => void,
    close: () => void,
  ): CsvParseError | undefined;
}

const noop = () => {};

/** A parser of records of one `delimiter`, ragged rows allowed; `recordDelimiters` as a parser before this one found them. */
export function chunkParser(delimiter: Delimiter, recordDelimiters: readonly string[] = []): ChunkParser {
  const options = {
    relax_column_count: true,
    delimiter,
    ...(recordDelimiters.length > 0 && { record_delimiter: [...recordDelimiters] }),
  };
  const parser = new Parser(options);
  const api = (parser as unknown as { api: CsvParseApi }).api;
  return {
    parse: (bytes, end, push) => api.parse(bytes, end, push, noop),
    get bytes() {
      return parser.info.bytes;
    },
    get recordDelimiters() {
      return parser.options.record_delimiter.map(String);
    },
  };
}
