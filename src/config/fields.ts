// A list's columns as its config declares them: its id (a column, its type,
// the characters a string id may hold), its label (a column or a template of
// several) and its fields, each with the key it is written under. Pure.
import { didYouMean } from '../errors.js';
import type { FieldSpec, FieldType, IdSpec, LabelSpec } from './spec.js';
import { isObject, quote, readBoolean, readColumn, readName, type Errors, type Json } from './json.js';

/** Characters a string id may hold: RFC 3986's unreserved ones but `.` and `~`, so no id is `..` or a hidden file. */
const PATH_SAFE = /^[A-Za-z0-9_-]$/;
export const DEFAULT_ID_CHARS = 'A-Za-z0-9_-';
/** A label template's placeholder, `{column}`: the one pattern the config, its ranking and the sources read templates by. */
export const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The characters a `[…]` body admits, each once: `A-Z0-9_-` → A…Z, 0…9, _, -. */
function expandChars(body: string): string[] | { error: string } {
  const chars = [...body];
  const out = new Set<string>();
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (chars[i + 1] === '-' && i + 2 < chars.length) {
      const from = c.codePointAt(0)!;
      const to = chars[i + 2]!.codePointAt(0)!;
      if (to < from) return { error: `range ${c}-${chars[i + 2]} is backwards` };
      for (let p = from; p <= to; p++) out.add(String.fromCodePoint(p));
      i += 2;
    } else out.add(c);
  }
  return [...out];
}

export function readId(e: Errors, path: string, v: Json): IdSpec | undefined {
  if (v === undefined || typeof v === 'string') {
    const column = v === undefined ? 'id' : readColumn(e, path, v);
    return column === undefined ? undefined : { column, type: 'integer', key: 'id', chars: DEFAULT_ID_CHARS };
  }
  if (!isObject(v))
    return e.fail(path, `expected a column name or {"column", "type", "key", "chars"}, got ${JSON.stringify(v)}`);
  e.keys(path, v, ['column', 'type', 'key', 'chars']);
  const column = v['column'] === undefined ? 'id' : readColumn(e, `${path}.column`, v['column']);
  const type = v['type'] ?? 'integer';
  if (type !== 'integer' && type !== 'string')
    return e.fail(`${path}.type`, `expected "integer" or "string", got ${JSON.stringify(type)}`);
  const key = v['key'] === undefined ? 'id' : readName(e, `${path}.key`, v['key'], 'a key');
  let chars = DEFAULT_ID_CHARS;
  if (v['chars'] !== undefined) {
    if (type !== 'string') e.add(`${path}.chars`, 'only string ids have chars (set "type": "string")');
    else if (typeof v['chars'] !== 'string' || v['chars'] === '')
      e.add(`${path}.chars`, `expected characters like "A-Z0-9-", got ${JSON.stringify(v['chars'])}`);
    else {
      const expanded = expandChars(v['chars']);
      if (!Array.isArray(expanded)) e.add(`${path}.chars`, expanded.error);
      else {
        const bad = expanded.filter((c) => !PATH_SAFE.test(c));
        if (bad.length > 0) {
          const shown =
            bad
              .slice(0, 5)
              .map((c) => quote(c))
              .join(', ') + (bad.length > 5 ? ', …' : '');
          e.add(`${path}.chars`, `${shown} cannot be in a path on every host; ids may hold A-Z a-z 0-9 _ -`);
        } else chars = v['chars'];
      }
    }
  }
  return column === undefined || key === undefined ? undefined : { column, type, key, chars };
}

export function readLabel(e: Errors, path: string, v: Json): LabelSpec | undefined {
  let template: Json = '{text}';
  let key: string | undefined = 'text';
  if (typeof v === 'string') template = v.includes('{') ? v : `{${v}}`;
  else if (isObject(v)) {
    e.keys(path, v, ['column', 'template', 'key']);
    if ((v['column'] === undefined) === (v['template'] === undefined))
      return e.fail(path, 'expected one of "column" or "template"');
    if (v['column'] !== undefined) {
      const column = readColumn(e, `${path}.column`, v['column']);
      if (column === undefined) return undefined;
      template = `{${column}}`;
    } else template = v['template'];
    if (v['key'] !== undefined) key = readName(e, `${path}.key`, v['key'], 'a key');
  } else if (v !== undefined)
    return e.fail(
      path,
      `expected a column, a template like "{family}, {given}", or {"column"|"template", "key"}, got ${JSON.stringify(v)}`,
    );
  if (typeof template !== 'string')
    return e.fail(`${path}.template`, `expected a template like "{family}, {given}", got ${JSON.stringify(template)}`);
  const columns = [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
  if (columns.length === 0 || columns.some((c) => c.trim() === '') || /[{}]/.test(template.replace(PLACEHOLDER, ''))) {
    return e.fail(
      path,
      `expected a template naming columns in braces, like "{family}, {given}", got ${quote(template)}`,
    );
  }
  return key === undefined ? undefined : { template, columns, key };
}

const FIELD_TYPES = ['integer', 'number', 'string'] as const;

export function readFields(e: Errors, path: string, v: Json): FieldSpec[] {
  if (v === undefined) return [];
  if (!isObject(v)) {
    e.add(path, 'expected an object of key: type or key: {"column", "type", "min", "max", "optional"}');
    return [];
  }
  const fields: FieldSpec[] = [];
  for (const [key, spec] of Object.entries(v)) {
    const at = `${path}.${key}`;
    if (readName(e, at, key, 'a key') === undefined) continue;
    const o: Record<string, Json> = typeof spec === 'string' ? { type: spec } : isObject(spec) ? spec : {};
    if (!isObject(spec) && typeof spec !== 'string') {
      e.add(
        at,
        `expected a type (integer, number, string) or {"column", "type", "min", "max", "optional"}, got ${JSON.stringify(spec)}`,
      );
      continue;
    }
    e.keys(at, o, ['column', 'type', 'min', 'max', 'optional']);
    const type = o['type'];
    if (!FIELD_TYPES.includes(type as FieldType)) {
      e.add(
        `${at}${typeof spec === 'string' ? '' : '.type'}`,
        `expected integer, number or string, got ${JSON.stringify(type)}${typeof type === 'string' ? didYouMean(type, FIELD_TYPES) : ''}`,
      );
      continue;
    }
    const column = o['column'] === undefined ? key : readColumn(e, `${at}.column`, o['column']);
    const field: FieldSpec = { key, column: column ?? key, type: type as FieldType };
    for (const bound of ['min', 'max'] as const) {
      const n = o[bound];
      if (n === undefined) continue;
      if (typeof n !== 'number' || type === 'string')
        e.add(
          `${at}.${bound}`,
          type === 'string' ? 'only numbers have bounds' : `expected a number, got ${JSON.stringify(n)}`,
        );
      else field[bound] = n;
    }
    if (readBoolean(e, `${at}.optional`, o['optional'])) field.optional = true;
    if (column !== undefined) fields.push(field);
  }
  return fields;
}
