// Writes schema/reflist.config.schema.json, the JSON Schema editors read for
// reflist.config.json (shipped as reflist/schema.json), from the one schema
// the build checks configs by (src/config/schema.ts): `npm run schema`, and
// `npm run compile` (scripts/compile.mjs) each time. test/e2e/config.test.ts
// holds the shipped file to what this writes, so the two never drift.
//
// The TypeBox schema as it is, made to read as a hand-written one: each node
// marked DEF written once under $defs and referred to elsewhere, a union of
// constants as an enum, Never as false, the keys in a reading order, and a
// node that fits on a line on one.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CONFIG, DEF, DEFS } from '../src/config/schema.js';

type Node = Record<string, unknown>;

/** Where the package ships it, from the project's folder. */
export const SCHEMA_FILE = 'schema/reflist.config.schema.json';

/** The order keys are written in: what a node is, then what it holds. */
const ORDER = [
  '$schema',
  '$id',
  '$ref',
  'title',
  'description',
  'default',
  'type',
  'const',
  'enum',
  'pattern',
  'minimum',
  'maximum',
  'minLength',
  'minItems',
  'minProperties',
  'uniqueItems',
  'required',
  'additionalProperties',
  'properties',
  'patternProperties',
  'items',
  'anyOf',
  'oneOf',
  'not',
  '$defs',
];
const rank = (key: string) => (ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length);

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A node's JSON alone: TypeBox's and reflist's symbols (Kind, EXPECTED, DEF) are no part of a schema. */
const plain = (node: Node): Node => JSON.parse(JSON.stringify(node)) as Node;
/** What a reference may add to the node it refers to: its own words and default. */
const SIBLINGS = ['description', 'default'];

/** A node as the file writes it: `top` is a $defs entry itself, written out rather than referred to. */
function written(node: Node, top = false): Node {
  const def = (node as { [DEF]?: string })[DEF];
  if (def !== undefined && !top) {
    const { description: _d, default: _f, ...own } = plain(node);
    const { description: _e, default: _g, ...shared } = plain(DEFS[def]! as Node);
    if (JSON.stringify(own) !== JSON.stringify(shared)) throw new Error(`a node marked ${def} is not $defs.${def}`);
    const canonical = plain(DEFS[def]! as Node);
    const siblings = SIBLINGS.filter((k) => node[k] !== undefined && node[k] !== canonical[k]);
    return { $ref: `#/$defs/${def}`, ...Object.fromEntries(siblings.map((k) => [k, node[k]])) };
  }
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && isNode(value) && isNode(value['not'])) out[key] = false;
    else if (key === 'anyOf' && (value as Node[]).every((v) => 'const' in v && typeof v['const'] === 'string'))
      out['enum'] = (value as Node[]).map((v) => v['const']);
    else if (Array.isArray(value)) out[key] = value.map((v) => (isNode(v) ? written(v) : v));
    else if (isNode(value))
      out[key] = ['properties', 'patternProperties'].includes(key)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, written(v as Node)]))
        : written(value);
    else out[key] = value;
  }
  // An enum's strings need no type beside them.
  if ('enum' in out && out['type'] === 'string') delete out['type'];
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => rank(a) - rank(b)));
}

/** The JSON Schema document: draft 2020-12, as `Ajv2020` and editors read it. */
export function jsonSchema(): Node {
  return {
    ...written({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://reflist.dev/schema/reflist.config.schema.json',
      ...CONFIG,
    }),
    $defs: Object.fromEntries(Object.entries(DEFS).map(([name, node]) => [name, written(node as Node, true)])),
  };
}

/** JSON on one line, `{ "a": 1 }`, as the file writes a node that fits. */
function oneLine(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(oneLine).join(', ')}]`;
  if (isNode(v)) {
    const entries = Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${oneLine(x)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return JSON.stringify(v);
}

/** Whether a value holds no object: written on one line, however long (a description is one line anyway). */
const flat = (v: unknown): boolean =>
  Array.isArray(v)
    ? v.every((x) => !isNode(x) && !Array.isArray(x))
    : isNode(v)
      ? Object.values(v).every((x) => !isNode(x) && (!Array.isArray(x) || flat(x)))
      : true;

function pretty(v: unknown, indent: string, room: number): string {
  const line = oneLine(v);
  if (flat(v) || line.length <= room) return line;
  const inner = `${indent}  `;
  if (Array.isArray(v))
    return `[\n${v.map((x) => inner + pretty(x, inner, 118 - inner.length)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(v as Node).map(([k, x]) => {
    const key = `${JSON.stringify(k)}: `;
    return inner + key + pretty(x, inner, 118 - inner.length - key.length);
  });
  return `{\n${entries.join(',\n')}\n${indent}}`;
}

/** The file's text. */
export function schemaText(): string {
  return `${pretty(jsonSchema(), '', 118)}\n`;
}

// Run, not imported (compile.mjs imports it): writes the file, from the project's folder as npm runs it.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(SCHEMA_FILE, schemaText());
  console.log(`wrote ${SCHEMA_FILE}`);
}
