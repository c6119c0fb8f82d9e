// `reflist types`: a project's lists as TypeScript types, for a client that
// types each answer by its URL (docs/lists.md, "Types for your lists").
// listTypes() is the file's text from a declaration, pure; types() finds the
// declaration as a build does and writes the file, or nothing when the config
// has any error.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { itemFile, listFile } from '../client/paths.js';
import type { Declaration, ListSpec } from '../config/declaration.js';
import { CONFIG_FILE, configName, loadDeclaration } from '../config/load.js';
import { ReflistError } from '../errors.js';
import type { Io } from '../progress.js';

export const TYPES_FILE = 'reflist-lists.d.ts';

export interface TypesOptions {
  sources: string;
  config?: string;
  out: string;
}

/** A list's item type's name: its name in PascalCase, then `Item` (`countryInstitution` → `CountryInstitutionItem`). */
function typeName(name: string): string {
  return `${name
    .split(/[-_]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}Item`;
}

/** Each list's type name; names that differ only by case or by `-` and `_` get a number. */
function typeNames(d: Declaration): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const list of d.lists) {
    let name = typeName(list.name);
    for (let n = 2; taken.has(name); n++) name = `${typeName(list.name).slice(0, -'Item'.length)}${n}Item`;
    taken.add(name);
    names.set(list.name, name);
  }
  return names;
}

/** A key as a property name: bare where it is an identifier, else quoted (`"pop-total"`). */
const property = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key));

/** A list and its ancestors, outermost first: the lists its path walks through. */
function chainOf(d: Declaration, list: ListSpec): ListSpec[] {
  const chain = [list];
  for (let l = list; l.parent; ) chain.unshift((l = d.lists.find((p) => p.name === l.parent!.list)!));
  return chain;
}

/** A path as the docs write it, `{id}` where an id goes: `/family/{id}/genus.json`. */
function shownPath(d: Declaration, list: ListSpec, item: boolean): string {
  const above = chainOf(d, list)
    .slice(0, -1)
    .map((l) => `/${l.path}/{id}`)
    .join('');
  return item ? itemFile(`${above}/`, list.path, '{id}') : listFile(`${above}/`, list.path);
}

/** A path as segments for reflist/client's BodyAt: `['family', string, 'genus.json']`. */
function segments(d: Declaration, list: ListSpec, item: boolean): string {
  const above = chainOf(d, list)
    .slice(0, -1)
    .flatMap((l) => [`'${l.path}'`, 'string']);
  const last = item ? [`'${list.path}'`, '`${string}.json`'] : [`'${list.path}.json'`];
  return `[${[...above, ...last].join(', ')}]`;
}

/** What a list is and where, the doc comment over its item type. */
function describe(d: Declaration, list: ListSpec): string {
  if (list.embeddedIn) {
    const parent = d.lists.find((l) => l.name === list.embeddedIn)!;
    return `${list.name}: the children of ${parent.name}, under "${parent.children!.key}" in its items`;
  }
  const params = Object.values(list.params).filter((p) => p !== undefined);
  const taken = params.length > 0 ? ` (${params.join(', ')})` : '';
  const items = list.items ? `; each item at ${shownPath(d, list, true)}` : '';
  return `${list.name}: ${list.shape} at ${shownPath(d, list, false)}${taken}${items}`;
}

/** What a key of an item holds: the id by its type, a number field; else a string (the label, a string field); an optional field may be null. */
function keyType(list: ListSpec, key: string): string {
  if (key === list.id.key) return list.id.type === 'integer' ? 'number' : 'string';
  const field = list.fields.find((f) => f.key === key);
  const type = field && field.type !== 'string' ? 'number' : 'string';
  return field?.optional ? `${type} | null` : type;
}

/** An item's type: its keys in declared order, then the count and the children its answers add. */
function itemType(d: Declaration, list: ListSpec, names: Map<string, string>): string {
  const lines = list.keys.map((key) => `${property(key)}: ${keyType(list, key)};`);
  // Only with the group parameter (and not in an item's own file), so optional.
  if (list.params.group !== undefined) lines.push('count?: number;');
  if (list.children) lines.push(`${property(list.children.key)}: ${names.get(list.children.list)}[];`);
  return `/** ${describe(d, list)}. */\nexport type ${names.get(list.name)} = {\n${lines.map((l) => `  ${l}\n`).join('')}};\n`;
}

/** A list's entry in Lists: its shape, its paths as segments, its item. */
function listEntry(d: Declaration, list: ListSpec, names: Map<string, string>): string {
  const itemPath = list.items ? ` itemPath: ${segments(d, list, true)};` : '';
  return `  ${property(list.name)}: { shape: '${list.shape}'; path: ${segments(d, list, false)};${itemPath} item: ${names.get(list.name)} };\n`;
}

/**
 * The text of the types file: each list's item type and `Lists`, what
 * `createLookupClient<Lists>()` takes. `config` names where the lists were
 * declared, `module` what a consumer imports (`./reflist-lists.js`).
 */
export function listTypes(d: Declaration, config: string, module: string): string {
  const names = typeNames(d);
  const served = d.lists.filter((l) => !l.embeddedIn);
  const example = served.find((l) => !l.parent)!;
  const body = example.shape === 'grid' ? 'rows' : 'items';
  return `// The lists ${config} declares, as types: written by
// \`reflist types\`, and again after every edit of the config. With them,
// reflist/client types each answer by its URL's path:
//
//   import { createLookupClient } from 'reflist/client';
//   import type { Lists } from '${module}';
//
//   const client = createLookupClient<Lists>({ baseUrl: '/lookup/' });
//   const answer = await client.request('${shownPath(d, example, false)}');
//   if (answer.status === 200) answer.body.${body}; // ${names.get(example.name)}[]

${d.lists.map((list) => itemType(d, list, names)).join('\n')}
/** The lists a client requests, by name: shape, path and item (embedded children are in their parents' items). */
export type Lists = {
${served.map((list) => listEntry(d, list, names)).join('')}};
`;
}

/** Writes the types of the lists a build of `sources` (or `config`) would build into `out`, unless it holds them already. */
export function types(options: TypesOptions, io: Pick<Io, 'stdout'>): void {
  const { out } = options;
  if (existsSync(out) && statSync(out).isDirectory()) {
    throw new ReflistError(
      'INVALID_OPTION',
      `--out: ${out} is a folder; expected a file such as ${join(out, TYPES_FILE)}`,
    );
  }
  if (!out.endsWith('.d.ts')) {
    throw new ReflistError(
      'INVALID_OPTION',
      `--out: expected a file whose name ends in .d.ts, got "${out}" (e.g. ${out.replace(/(\.d)?\.[cm]?[jt]s$/, '')}.d.ts)`,
    );
  }
  const loaded = loadDeclaration(options.sources, options.config);
  const from =
    loaded.config === undefined
      ? `the lookup service's files in ${options.sources} (no ${CONFIG_FILE})`
      : configName(loaded.config);
  const text = listTypes(loaded.declaration, from, `./${basename(out).slice(0, -'.d.ts'.length)}.js`);
  const n = loaded.declaration.lists.filter((l) => !l.embeddedIn).length;
  const lists = `${n} list${n === 1 ? '' : 's'}`;
  if (existsSync(out) && readFileSync(out, 'utf8') === text) {
    io.stdout(`${out}: unchanged (${lists})\n`);
    return;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  io.stdout(`wrote ${out}: the types of ${lists}; import type { Lists } from it for createLookupClient<Lists>()\n`);
}
