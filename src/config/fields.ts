// A list's columns as its config declares them: its id (a column, its type,
// the characters a string id may hold), its label (a column or a template of
// several) and its fields, each with the key it is written under. The schema
// has checked each value's form; these fill in the defaults and check what
// one key says of another. Pure.
import { DEFAULTS, type RawField, type RawId, type RawLabel } from './schema.js';
import type { FieldSpec, IdSpec, LabelSpec } from './spec.js';
import { quote, type Errors } from './json.js';

export { DEFAULT_ID_CHARS } from './schema.js';

/** Characters a string id may hold: RFC 3986's unreserved ones but `.` and `~`, so no id is `..` or a hidden file. */
const PATH_SAFE = /^[A-Za-z0-9_-]$/;
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

export function readId(e: Errors, path: string, v: RawId | undefined): IdSpec | undefined {
  const o: Exclude<RawId, string> = typeof v === 'object' ? v : v === undefined ? {} : { column: v };
  const d = DEFAULTS.id;
  const id: IdSpec = { column: o.column ?? d.column, type: o.type ?? d.type, key: o.key ?? d.key, chars: d.chars };
  if (o.chars === undefined) return id;
  if (id.type !== 'string') return e.fail(`${path}.chars`, 'only string ids have chars (set "type": "string")');
  const expanded = expandChars(o.chars);
  if (!Array.isArray(expanded)) return e.fail(`${path}.chars`, expanded.error);
  const bad = expanded.filter((c) => !PATH_SAFE.test(c));
  if (bad.length > 0) {
    const shown = bad.slice(0, 5).map(quote).join(', ') + (bad.length > 5 ? ', …' : '');
    return e.fail(`${path}.chars`, `${shown} cannot be in a path on every host; ids may hold A-Z a-z 0-9 _ -`);
  }
  return { ...id, chars: o.chars };
}

export function readLabel(e: Errors, path: string, v: RawLabel | undefined): LabelSpec | undefined {
  let template = `{${DEFAULTS.label.column}}`;
  let key: string = DEFAULTS.label.key;
  if (typeof v === 'string') template = v.includes('{') ? v : `{${v}}`;
  else if (v !== undefined) {
    if ((v.column === undefined) === (v.template === undefined))
      return e.fail(path, 'expected one of "column" or "template"');
    template = v.column === undefined ? v.template! : `{${v.column}}`;
    key = v.key ?? key;
  }
  const columns = [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
  if (columns.length === 0 || columns.some((c) => c.trim() === '') || /[{}]/.test(template.replace(PLACEHOLDER, ''))) {
    return e.fail(
      path,
      `expected a template naming columns in braces, like "{family}, {given}", got ${quote(template)}`,
    );
  }
  return { template, columns, key };
}

export function readFields(e: Errors, path: string, v: Record<string, RawField> | undefined): FieldSpec[] {
  const fields: FieldSpec[] = [];
  for (const [key, spec] of Object.entries(v ?? {})) {
    const o: Exclude<RawField, string> = typeof spec === 'string' ? { type: spec } : spec;
    const field: FieldSpec = { key, column: o.column ?? key, type: o.type };
    for (const bound of ['min', 'max'] as const) {
      const n = o[bound];
      if (n === undefined) continue;
      if (o.type === 'string') e.add(`${path}.${key}.${bound}`, 'only numbers have bounds');
      else field[bound] = n;
    }
    if (o.optional) field.optional = true;
    fields.push(field);
  }
  return fields;
}
