// A declaration against its sources' headers: every column it names must be
// in its source's header, matched case-insensitively, as the sources' columns
// always were. Pure: load.ts reads the headers.
import { didYouMean, ReflistError, suggest } from '../errors.js';
import type { Declaration, Delimiter } from './declaration.js';

const quote = (s: string) => JSON.stringify(s);
const DELIMITERS: Delimiter[] = [',', ';', '\t'];
const named = (d: Delimiter) => (d === '\t' ? 'tabs' : quote(d));

/**
 * When a header read with the declared delimiter lacks columns that it holds
 * once split by another one (`id;name;country` read with `,`): the delimiter
 * to declare.
 */
export function delimiterHint(file: string, header: readonly string[], wanted: readonly string[]): string | undefined {
  const has = (cells: readonly string[], column: string) => cells.some((h) => h.toLowerCase() === column.toLowerCase());
  const found = wanted.filter((c) => has(header, c)).length;
  for (const d of DELIMITERS) {
    const split = header.flatMap((h) => h.split(d).map((c) => c.trim()));
    if (split.length > header.length && wanted.filter((c) => has(split, c)).length > found) {
      return `${file} is separated by ${named(d)}: declare "source": {"file": ${quote(file)}, "delimiter": ${quote(d)}}`;
    }
  }
  return undefined;
}

/**
 * The delimiter of a source that declares none, from its header line (its
 * text up to the first line break): the one of `,` `;` and tab that comes most
 * often outside double quotes, `,` on a tie or when none does. A header names
 * columns, which seldom hold a delimiter, so its count is a sure sign where
 * the rows' cells (free text, decimal commas) are not.
 */
export function detectDelimiter(headerLine: string): Delimiter {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const c of headerLine) {
    if (c === '"') quoted = !quoted;
    else if (c === '\n' || c === '\r') break;
    else if (!quoted && (DELIMITERS as string[]).includes(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let best: Delimiter = ',';
  for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

/** A header's columns named in a message at most; the rest are counted. */
const SHOWN = 12;

/** The columns a header has, for a message about one it lacks. */
export function headerHas(header: readonly string[]): string {
  if (header.length === 0) return '';
  const more = header.length > SHOWN ? `, … (${header.length} in all)` : '';
  return `; its header has ${header.slice(0, SHOWN).map(quote).join(', ')}${more}`;
}

/** A column a relation needs that the header lacks, with who declared it and, in the one bracket, the closest column: `no column "genus_id" (declared by lists.species.parent; did you mean "genus"?)`. */
function noColumn(column: string, by: string, header: readonly string[]): string {
  const close = suggest(column, header);
  return close === undefined
    ? `no column ${quote(column)} (declared by ${by})${headerHas(header)}`
    : `no column ${quote(column)} (declared by ${by}; did you mean ${quote(close)}?)`;
}

/** What to say of a column a header lacks: the closest of its columns, else the columns it has. */
export const columnHint = (column: string, header: readonly string[]): string =>
  didYouMean(column, header) || headerHas(header);

/**
 * Every column a declaration names that its source's header lacks. A missing
 * column is the source's error when the config names it as a relation, and
 * the config's when a template or field does.
 */
export function checkColumns(
  d: Declaration,
  configFile: string,
  headers: ReadonlyMap<string, string[]>,
): ReflistError[] {
  const errors: ReflistError[] = [];
  const has = (header: string[], column: string) => header.some((h) => h.toLowerCase() === column.toLowerCase());
  // A file whose header lacks columns may be split by another delimiter than the declared one: each of its errors carries the fix.
  const wanted = new Map<string, string[]>();
  const want = (file: string, columns: string[]) => wanted.set(file, [...(wanted.get(file) ?? []), ...columns]);
  const hintOf = (file: string) => delimiterHint(file, headers.get(file) ?? [], wanted.get(file) ?? []);
  const configError = (path: string, file: string, message: string) =>
    errors.push(new ReflistError('INVALID_CONFIG', `${path}: ${message}`, { file: configFile }, hintOf(file)));
  const sourceError = (file: string, message: string) =>
    errors.push(new ReflistError('MISSING_COLUMN', message, { file, line: 1 }, hintOf(file)));
  for (const list of d.lists) {
    want(list.source.file, [
      ...(list.parent?.columns ?? []),
      list.id.column,
      ...list.label.columns,
      ...list.fields.map((f) => f.column),
    ]);
    if (list.counts) want(list.counts.source.file, [list.counts.group, list.counts.id, list.counts.count]);
  }
  if (d.groups) want(d.groups.source.file, [d.groups.id, d.groups.label]);
  for (const list of d.lists) {
    const file = list.source.file;
    const header = headers.get(file);
    if (!header) continue;
    const at = `lists.${list.name}`;
    const missing = (column: string) => !has(header, column);
    const hint = (column: string) => columnHint(column, header);
    for (const c of list.parent?.columns.filter(missing) ?? []) sourceError(file, noColumn(c, `${at}.parent`, header));
    if (missing(list.id.column)) sourceError(file, noColumn(list.id.column, `${at}.id`, header));
    for (const c of list.label.columns.filter(missing))
      configError(`${at}.label`, file, `the template names column ${quote(c)}, which ${file} does not have${hint(c)}`);
    for (const f of list.fields.filter((f) => missing(f.column)))
      configError(`${at}.fields.${f.key}`, file, `no column ${quote(f.column)} in ${file}${hint(f.column)}`);
    if (list.counts) {
      const h = headers.get(list.counts.source.file);
      for (const c of h ? [list.counts.group, list.counts.id, list.counts.count].filter((c) => !has(h, c)) : []) {
        sourceError(list.counts.source.file, noColumn(c, `${at}.counts`, h!));
      }
    }
  }
  const g = d.groups;
  const h = g && headers.get(g.source.file);
  for (const c of h ? [g!.id, g!.label].filter((c) => !has(h, c)) : [])
    sourceError(g!.source.file, noColumn(c, 'groups', h!));
  return errors;
}
