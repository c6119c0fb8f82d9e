// A config against its schema (schema.ts): every error TypeBox's Value.Errors
// finds, each located by its JSON path (`lists.city.order[0]`) and told as a
// person reads it, `expected …, got …`, in words made from the schema node
// that refused the value: its EXPECTED, else its kind (a flag, an integer's
// range, an enum's values, an object's keys), with a did-you-mean for an
// unknown key or an enum's value. Pure.
import { Kind, type TSchema } from '@sinclair/typebox';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { didYouMean, suggest } from '../errors.js';
import { quote } from './json.js';
import { CONFIG, EXPECTED } from './schema.js';

/** One structural error: where (the keys down to the value) and what is wrong there. */
export interface SchemaError {
  at: string[];
  message: string;
}

const shown = (v: unknown) => JSON.stringify(v);
const either = (words: string[]) =>
  words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
const kindOf = (s: TSchema) => s[Kind] as string;

/** The words for what a node takes: its EXPECTED, else what its kind and bounds say. */
export function expected(s: TSchema): string {
  const words = (s as { [EXPECTED]?: string })[EXPECTED];
  if (words !== undefined) return words;
  switch (kindOf(s)) {
    case 'Boolean':
      return 'true or false';
    case 'Integer':
    case 'Number': {
      const what = kindOf(s) === 'Integer' ? 'an integer' : 'a number';
      if (s['minimum'] !== undefined && s['maximum'] !== undefined)
        return `${what} from ${s['minimum']} to ${s['maximum']}`;
      if (s['minimum'] !== undefined) return `${what} of at least ${s['minimum']}`;
      return s['maximum'] === undefined ? what : `${what} of at most ${s['maximum']}`;
    }
    case 'Literal':
      return JSON.stringify(s['const']);
    case 'Union':
      return either((s['anyOf'] as TSchema[]).map(expected));
    case 'Object':
      return `{${Object.keys(s['properties'] as object)
        .map(quote)
        .join(', ')}}`;
    case 'Array':
      return `a list, each ${expected(s['items'] as TSchema)}`;
    case 'String':
      return s['minLength'] ? 'a non-empty string' : 'a string';
    default:
      return 'an object';
  }
}

/** The values of an enum (a union of string literals), for a did-you-mean; none for other nodes. */
function words(s: TSchema): string[] {
  if (kindOf(s) !== 'Union') return [];
  const values = (s['anyOf'] as TSchema[]).map((v) => (kindOf(v) === 'Literal' ? v['const'] : undefined));
  return values.every((v) => typeof v === 'string' && /^[A-Za-z][\w-]*$/.test(v)) ? (values as string[]) : [];
}

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Whether a node takes values of a JSON type at all: which of a union's forms a value was meant for. */
function takes(s: TSchema, type: string): boolean {
  switch (kindOf(s)) {
    case 'Literal':
      return jsonType(s['const']) === type;
    case 'Union':
      return (s['anyOf'] as TSchema[]).some((v) => takes(v, type));
    case 'Integer':
    case 'Number':
      return type === 'number';
    case 'Object':
    case 'Record':
      return type === 'object';
    default:
      return kindOf(s).toLowerCase() === type;
  }
}

/** A JSON pointer's keys: `/lists/a~1b` → lists, a/b. */
const keysOf = (pointer: string) =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));

/** The errors one TypeBox error stands for, at most one a path. */
function told(error: ValueError, root: unknown): SchemaError[] {
  const at = keysOf(error.path);
  const { schema, value } = error;
  switch (error.type) {
    case ValueErrorType.Union:
      return union(error, at, root);
    case ValueErrorType.ObjectRequiredProperty:
      return [{ at, message: `expected ${expected(schema)}` }];
    case ValueErrorType.ObjectAdditionalProperties: {
      const known = Object.keys(schema['properties'] as object);
      const hint = suggest(at.at(-1)!, known);
      return [
        {
          at,
          message: `unknown key${hint ? ` (did you mean ${quote(hint)}?)` : `; expected one of ${known.join(', ')}`}`,
        },
      ];
    }
    case ValueErrorType.Never: // a record's key of the wrong form (schema.ts, named)
      return [{ at, message: `expected ${expected(schema)}, got ${quote(at.at(-1)!)}` }];
    case ValueErrorType.ArrayUniqueItems: {
      const items = (value as unknown[]).map((v) => JSON.stringify(v));
      const again = items.findIndex((v, i) => items.indexOf(v) < i);
      const first = pathOf([...at, String(items.indexOf(items[again]!))], root);
      return [{ at: [...at, String(again)], message: `${items[again]} is there already, at ${first}` }];
    }
    default:
      // Missing: the required property's own error says so.
      if (value === undefined) return [];
      return [{ at, message: `expected ${expected(schema)}, got ${shown(value)}${hint(schema, value)}` }];
  }
}

const hint = (s: TSchema, value: unknown) => (typeof value === 'string' ? didYouMean(value, words(s)) : '');

/**
 * A value none of a union's forms takes: the errors of the form meant for it
 * (of its JSON type, the one with the fewest when several are), else the
 * union's own words. An enum's value is no form of its own: a wrong one is
 * told with every value, and the closest.
 */
function union(error: ValueError, at: string[], root: unknown): SchemaError[] {
  if (error.value === undefined) return []; // missing: the required property's own error says so
  const type = jsonType(error.value);
  let best: SchemaError[] | undefined;
  let tie = false;
  (error.schema['anyOf'] as TSchema[]).forEach((form, i) => {
    if (kindOf(form) === 'Literal' || !takes(form, type)) return;
    const found = unique([...error.errors[i]!].flatMap((e) => told(e, root)));
    if (best === undefined || found.length < best.length) [best, tie] = [found, false];
    else if (found.length === best.length) tie = true;
  });
  if (best !== undefined && !tie) return best;
  return [
    { at, message: `expected ${expected(error.schema)}, got ${shown(error.value)}${hint(error.schema, error.value)}` },
  ];
}

/** The first error at each path. */
function unique(errors: SchemaError[]): SchemaError[] {
  const seen = new Set<string>();
  const first: SchemaError[] = [];
  for (const e of errors) {
    const key = JSON.stringify(e.at);
    if (seen.has(key)) continue;
    seen.add(key);
    first.push(e);
  }
  return first;
}

/** Where a key comes in the config as written: its place in its object, or its index; a missing key after the rest. */
function place(container: unknown, key: string): number {
  if (Array.isArray(container)) return Number(key);
  const keys = typeof container === 'object' && container !== null ? Object.keys(container) : [];
  return keys.includes(key) ? keys.indexOf(key) : keys.length;
}

/** Orders errors as their places come in the config, so that they read from the top down. */
function byPlace(root: unknown) {
  return (a: SchemaError, b: SchemaError): number => {
    let container = root;
    for (let i = 0; i < Math.min(a.at.length, b.at.length); i++) {
      if (a.at[i] !== b.at[i]) return place(container, a.at[i]!) - place(container, b.at[i]!);
      container = (container as Record<string, unknown> | undefined)?.[a.at[i]!];
    }
    return a.at.length - b.at.length;
  };
}

/** A path as messages write it: `lists.city.order[0]`, `(top)` for the whole config. */
export function pathOf(at: readonly string[], root: unknown): string {
  let path = '';
  let container = root;
  for (const key of at) {
    path += Array.isArray(container) ? `[${key}]` : path === '' ? key : `.${key}`;
    container = (container as Record<string, unknown> | undefined)?.[key];
  }
  return path === '' ? '(top)' : path;
}

/** Every structural error of a config's JSON, one a path, from the top down. */
export function schemaErrors(json: unknown): SchemaError[] {
  return unique([...Value.Errors(CONFIG, json)].flatMap((e) => told(e, json))).sort(byPlace(json));
}
