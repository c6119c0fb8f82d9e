// Stage 2a, typing: a source's raw cells → typed values by the columns a list
// reads from it, every bad cell an error with its file and line (docs/lists.md, "Cells").
import { delimiterHint, headerHas } from '../config/columns.js';
import { DEFAULT_ID_CHARS, type FieldSpec, type ListSpec } from '../config/declaration.js';
import { ReflistError, suggest } from '../errors.js';
import { CodesInIntegerIds } from './hints.js';
import type { Value } from './model.js';
import type { RawTable } from './read.js';
import { isId } from '../client/request.js';

export type Kind =
  | { is: 'id'; list: ListSpec }
  | { is: 'text' }
  | { is: 'field'; field: FieldSpec }
  | { is: 'group' }
  | { is: 'count' };

export interface Column {
  name: string;
  kind: Kind;
}

/** A row's values, in the order of the columns it was typed by. */
export interface Row {
  line: number;
  values: Value[];
}

const MAX_ID = Number.MAX_SAFE_INTEGER;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** How a set of id characters reads in a message. */
const shownChars = (chars: string) => (chars === DEFAULT_ID_CHARS ? 'A-Z a-z 0-9 _ -' : chars);

function nonNegative(value: string): number | { error: string } {
  if (!/^\d+$/.test(value)) return { error: 'expected a non-negative integer' };
  const n = Number(value);
  return n <= MAX_ID ? n : { error: `too large (at most ${MAX_ID})` };
}

function bounded(n: number, field: FieldSpec): number | { error: string } {
  const { min, max } = field;
  if ((min === undefined || n >= min) && (max === undefined || n <= max)) return n;
  if (min !== undefined && max !== undefined)
    return { error: min === -max ? `outside ±${max}` : `outside ${min} to ${max}` };
  return { error: min !== undefined ? `below ${min}` : `above ${max}` };
}

/**
 * A cell's value by its column's kind. Texts (labels, string fields) are kept
 * as written; every other cell is read without the white space around it,
 * which no id, reference, count or number can hold (docs/lists.md, "Cells").
 */
function parseValue(kind: Kind, cell: string): Value | { error: string } {
  if (kind.is === 'text') return cell.trim() === '' ? { error: 'empty text' } : cell;
  const value = cell.trim();
  if (kind.is === 'field' && kind.field.optional && value === '') return null;
  if (kind.is === 'field' && kind.field.type === 'string') return cell;
  switch (kind.is) {
    case 'group':
      return isId({ id: 'string', chars: DEFAULT_ID_CHARS }, value)
        ? value
        : { error: `expected 1 to 64 of ${shownChars(DEFAULT_ID_CHARS)}` };
    case 'count':
      return nonNegative(value);
    case 'id': {
      const { type, chars } = kind.list.id;
      if (type === 'integer') return nonNegative(value);
      return isId({ id: 'string', chars }, value) ? value : { error: `expected 1 to 64 of ${shownChars(chars)}` };
    }
    case 'field': {
      const { type } = kind.field;
      const n = (type === 'integer' ? /^[+-]?\d+$/ : DECIMAL).test(value) ? Number(value) : NaN;
      if (Number.isNaN(n)) return { error: type === 'integer' ? 'expected an integer' : 'expected a decimal number' };
      if (type === 'integer' && !Number.isSafeInteger(n)) return { error: `too large (at most ±${MAX_ID})` };
      return bounded(n, kind.field);
    }
  }
}

/** What to do when a field's cells may be empty: printed once, after the errors (src/errors.ts, errorLines). */
const optionalHint = ({ key, column, type }: FieldSpec) =>
  `if a row may leave "${key}" empty, declare it optional: "fields": {"${key}": {${column === key ? '' : `"column": "${column}", `}"type": "${type}", "optional": true}} (an empty cell is then null)`;

/** Types a source's records one at a time, as they are read: a Row, or undefined for a row dropped (its errors pushed). */
export interface RowTyper {
  type(cells: string[], line: number): Row | undefined;
  /** Pushes what the errors of every row suggest together (CodesInIntegerIds), once the file is read. */
  end(): void;
}

/**
 * The typer of one source's records by the columns a list reads from it, once
 * its header is read; undefined when the header lacks a column (its errors
 * pushed, and no row is typed). Every bad value is reported.
 */
export function rowTyper(
  file: string,
  header: readonly string[],
  columns: readonly Column[],
  errors: ReflistError[],
): RowTyper | undefined {
  const names = columns.map((c) => c.name);
  const positions = new Map<string, number>();
  const unknown: string[] = [];
  header.forEach((h, i) => {
    const column = names.find((c) => c.toLowerCase() === h.toLowerCase());
    if (column === undefined) unknown.push(h);
    else if (positions.has(column))
      errors.push(new ReflistError('UNKNOWN_COLUMN', `column "${column}" appears twice`, { file, line: 1 }));
    else positions.set(column, i);
  });
  const missing = names.filter((c) => !positions.has(c));
  if (missing.length > 0) {
    // A column the source does not declare is read past, unless it looks like a missing one misspelt.
    let misspelt = false;
    for (const h of unknown) {
      const hint = suggest(h, missing);
      if (hint)
        errors.push(
          new ReflistError('UNKNOWN_COLUMN', `unknown column "${h}" (did you mean "${hint}"?)`, { file, line: 1 }),
        );
      misspelt ||= hint !== undefined;
    }
    const message = `missing column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `"${c}"`).join(', ')}${misspelt ? '' : headerHas(header)}`;
    errors.push(new ReflistError('MISSING_COLUMN', message, { file, line: 1 }, delimiterHint(file, header, names)));
    return undefined;
  }
  const codes = new CodesInIntegerIds(file, errors);
  const at = names.map((c) => positions.get(c)!);
  let rows = 0;
  const type = (cells: string[], line: number): Row | undefined => {
    rows++;
    if (cells.length !== header.length) {
      errors.push(
        new ReflistError('CSV_MALFORMED', `expected ${header.length} fields, got ${cells.length}`, { file, line }),
      );
      return undefined;
    }
    const values: Value[] = [];
    let good = true;
    for (const [c, column] of columns.entries()) {
      const raw = cells[at[c]!]!;
      const value = parseValue(column.kind, raw);
      if (value !== null && typeof value === 'object') {
        const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
        if (column.kind.is === 'id') codes.failed(c, column.name, column.kind.list, raw);
        errors.push(
          new ReflistError(
            'INVALID_VALUE',
            `${column.name}: ${value.error}, got "${shown}"`,
            { file, line },
            column.kind.is === 'field' && raw.trim() === '' ? optionalHint(column.kind.field) : undefined,
          ),
        );
        // A row with a bad key is dropped; one with a bad label or field keeps
        // its key, so rows that refer to it do not report it as unknown too.
        if (column.kind.is === 'id' || column.kind.is === 'group') good = false;
        values.push(raw);
      } else values.push(value);
    }
    return good ? { line, values } : undefined;
  };
  return { type, end: () => codes.hint(rows) };
}

/** Typed rows of a table read whole (rowTyper's, a row at a time). */
export function typeRows(table: RawTable | undefined, columns: readonly Column[], errors: ReflistError[]): Row[] {
  if (!table) return [];
  const typer = rowTyper(table.file, table.header, columns, errors);
  if (!typer) return [];
  const rows: Row[] = [];
  for (const [i, cells] of table.rows.entries()) {
    const row = typer.type(cells, table.lines[i]!);
    if (row) rows.push(row);
  }
  typer.end();
  return rows;
}
