// What a list's answers are ordered and searched by (docs/lists.md, Order and
// Term search): its `order` keys and its `search` (the text Term matches,
// the columns it also searches, exact matches first), checked against the
// list's declared fields, which are all a client has of an item. The schema
// has checked each value's form. Pure.
import { didYouMean } from '../errors.js';
import type { RawSearch } from './schema.js';
import type { FieldSpec, OrderKey, SearchSpec, Shape, TextSpec } from './spec.js';
import { quote, type Errors } from './json.js';
import { PLACEHOLDER } from './fields.js';

/** The field a name means, by its key or (in any case) its column, or -1. */
const fieldNamed = (fields: readonly FieldSpec[], name: string) =>
  fields.findIndex((f) => f.key === name || f.column.toLowerCase() === name.toLowerCase());

/** The names a field goes by, for a did-you-mean: keys and columns. */
const fieldNames = (fields: readonly FieldSpec[]) => [...new Set(fields.flatMap((f) => [f.key, f.column]))];

/**
 * A list's declared order (docs/lists.md, Order): field names, each with `-`
 * for descending or `+` (the default) for ascending. Only fields can be keys,
 * since their types say how they compare. Undefined when none is declared.
 */
export function readOrder(
  e: Errors,
  path: string,
  v: readonly string[] | undefined,
  fields: readonly FieldSpec[],
): OrderKey[] | undefined {
  if (v === undefined) return undefined;
  const keys: OrderKey[] = [];
  const seen = new Map<number, number>();
  for (const [k, raw] of v.entries()) {
    const at = `${path}[${k}]`;
    const name = raw.replace(/^[+-]/, '');
    const field = fieldNamed(fields, name);
    if (field < 0)
      e.add(
        at,
        `${quote(name)} is not one of the list's fields${didYouMean(name, fieldNames(fields))}; declare it in "fields" to order by it`,
      );
    else if (seen.has(field)) e.add(at, `${quote(name)} is already an order key (${path}[${seen.get(field)}])`);
    else {
      seen.set(field, k);
      keys.push({ field, descending: raw.startsWith('-') });
    }
  }
  return keys.length > 0 ? keys : undefined;
}

/**
 * A list's search text: one field, or a template over fields, every one a
 * declared field so that a client can make the text from what an item carries.
 */
function readText(e: Errors, path: string, v: string, fields: readonly FieldSpec[]): TextSpec | undefined {
  const template = v.includes('{') ? v : `{${v}}`;
  const parts: (string | number)[] = [];
  let ok = true;
  let last = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    if (m.index > last) parts.push(template.slice(last, m.index));
    last = m.index + m[0].length;
    const field = fieldNamed(fields, m[1]!);
    if (field < 0) {
      e.add(
        path,
        `${quote(m[1]!)} is not one of the list's fields${didYouMean(m[1]!, fieldNames(fields))}; declare it in "fields" too, since the client makes the text from what items carry`,
      );
      ok = false;
    } else parts.push(field);
  }
  if (last < template.length) parts.push(template.slice(last));
  if (!parts.some((p) => typeof p === 'number') || parts.some((p) => typeof p === 'string' && /[{}]/.test(p))) {
    e.add(path, `expected a field, or a template naming fields in braces like "{name} {ascii}", got ${quote(v)}`);
    return undefined;
  }
  return ok ? { template, parts } : undefined;
}

/**
 * The fields a list's Term also searches, named by column (or by key): only
 * string fields, because the client matches what an item carries, and a
 * number there is no longer the text of its cell ("1.50" is 1.5).
 */
function readColumns(e: Errors, path: string, v: readonly string[], fields: readonly FieldSpec[]): number[] {
  const out: number[] = [];
  for (const c of v) {
    const i = fieldNamed(fields, c);
    if (i < 0)
      e.add(
        path,
        `${quote(c)} is not one of the list's fields: declare it in "fields" too, since the client searches what items carry${didYouMean(
          c,
          fields.map((f) => f.column),
        )}`,
      );
    else if (fields[i]!.type !== 'string')
      e.add(path, `${quote(c)} is a field of type ${fields[i]!.type}; only string fields are searched`);
    else if (!out.includes(i)) out.push(i);
  }
  return out;
}

/** What a list declares of `search` (docs/lists.md, Term search): off, on over its label, or an object of text, columns and exact. */
export function readSearch(
  e: Errors,
  path: string,
  v: RawSearch | undefined,
  list: { fields: readonly FieldSpec[]; shape: Shape; children: boolean },
): false | SearchSpec {
  if (v === undefined) return list.shape === 'grid' ? false : { fields: [] };
  if (v === false) return false;
  if (list.shape === 'grid') {
    e.add(path, 'a grid has no search');
    return false;
  }
  if (v === true) return { fields: [] };
  const search: SearchSpec = {
    fields: v.columns === undefined ? [] : readColumns(e, `${path}.columns`, v.columns, list.fields),
  };
  if (v.text !== undefined) {
    const text = readText(e, `${path}.text`, v.text, list.fields);
    if (text) search.text = text;
  }
  if (v.exact) search.exact = true;
  if (v.match === 'phrase') search.phrase = true;
  if (v.typos === false) search.noTypos = true;
  else if (v.typos === true && search.phrase)
    e.add(`${path}.typos`, 'the phrase rule forgives no typos: drop "typos", or "match": "phrase"');
  if (list.children) {
    const searches = "a list with children searches its labels and its children's";
    if (v.text !== undefined) e.add(`${path}.text`, `${searches}, no other text`);
    if (search.fields.length > 0) e.add(`${path}.columns`, `${searches}, no other column`);
  }
  return search;
}
