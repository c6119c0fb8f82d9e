// A declaration against its sources' headers: every column it names must be
// in its source's header, matched case-insensitively, as the sources' columns
// always were. Pure: load.ts reads the headers.
import { didYouMean, ReflistError } from '../errors.js';
import type { Declaration } from './declaration.js';

const quote = (s: string) => JSON.stringify(s);

/** A header's columns named in a message at most; the rest are counted. */
const SHOWN = 12;

/** The columns a header has, for a message about one it lacks. */
export function headerHas(header: readonly string[]): string {
  if (header.length === 0) return '';
  const more = header.length > SHOWN ? `, … (${header.length} in all)` : '';
  return `; its header has ${header.slice(0, SHOWN).map(quote).join(', ')}${more}`;
}

/** What to say of a column a header lacks: the closest of its columns, else the columns it has. */
export const columnHint = (column: string, header: readonly string[]): string => didYouMean(column, header) || headerHas(header);

/**
 * Every column a declaration names that its source's header lacks. A missing
 * column is the source's error when the config names it as a relation, and
 * the config's when a template or field does.
 */
export function checkColumns(d: Declaration, configFile: string, headers: ReadonlyMap<string, string[]>): ReflistError[] {
  const errors: ReflistError[] = [];
  const has = (header: string[], column: string) => header.some((h) => h.toLowerCase() === column.toLowerCase());
  const configError = (path: string, message: string) => errors.push(new ReflistError('INVALID_CONFIG', `${path}: ${message}`, { file: configFile }));
  const sourceError = (file: string, message: string) => errors.push(new ReflistError('MISSING_COLUMN', message, { file, line: 1 }));
  for (const list of d.lists) {
    const header = headers.get(list.source.file);
    if (!header) continue;
    const at = `lists.${list.name}`;
    const missing = (column: string) => !has(header, column);
    const hint = (column: string) => columnHint(column, header);
    list.parent?.columns.filter(missing).forEach((c) => sourceError(list.source.file, `no column ${quote(c)} (declared by ${at}.parent)${hint(c)}`));
    if (missing(list.id.column)) sourceError(list.source.file, `no column ${quote(list.id.column)} (declared by ${at}.id)${hint(list.id.column)}`);
    for (const c of list.label.columns.filter(missing)) configError(`${at}.label`, `the template names column ${quote(c)}, which ${list.source.file} does not have${hint(c)}`);
    for (const f of list.fields.filter((f) => missing(f.column))) configError(`${at}.fields.${f.key}`, `no column ${quote(f.column)} in ${list.source.file}${hint(f.column)}`);
    if (list.counts) {
      const h = headers.get(list.counts.source.file);
      for (const c of h ? [list.counts.group, list.counts.id, list.counts.count].filter((c) => !has(h, c)) : []) {
        sourceError(list.counts.source.file, `no column ${quote(c)} (declared by ${at}.counts)${columnHint(c, h!)}`);
      }
    }
  }
  const g = d.groups;
  const h = g && headers.get(g.source.file);
  for (const c of h ? [g!.id, g!.label].filter((c) => !has(h, c)) : []) sourceError(g!.source.file, `no column ${quote(c)} (declared by groups)${columnHint(c, h!)}`);
  return errors;
}
