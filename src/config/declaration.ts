// What a project declares in reflist.config.json (docs/lists.md): its lists,
// where each is read from and what its answers look like. `checkConfig` turns
// the file's JSON into a Declaration, every default filled in, or into every
// error it finds, each located by its JSON path: first what the schema
// (schema.ts) refuses, then the rules between keys and between lists, for
// each part the schema passed. Pure: load.ts reads the file, and columns.ts
// checks the sources' headers.
import type { ReflistError } from '../errors.js';
import { pathOf, schemaErrors } from './check.js';
import { readId, readFields, readLabel } from './fields.js';
import { Errors, quote, readSource, type Json } from './json.js';
import { readParams } from './params.js';
import { readOrder, readSearch } from './ranking.js';
import { checkRelations } from './relations.js';
import { DEFAULTS, type RawConfig, type RawGroups, type RawList } from './schema.js';
import type { CountsSpec, Declaration, GroupsSpec, ListSpec, SourceSpec } from './spec.js';

export type * from './spec.js';
export { DEFAULT_ID_CHARS } from './fields.js';
export { NAME } from './json.js';
export { ancestors } from './relations.js';

/**
 * The Declaration a config's JSON says, or every error in it. `file` is the
 * config's name in messages. Columns are checked against the sources by
 * columns.ts, once their headers are read.
 */
export function checkConfig(json: Json, file: string): { declaration?: Declaration; errors: ReflistError[] } {
  const e = new Errors(file);
  const refused = schemaErrors(json);
  for (const { at, message } of refused) e.add(pathOf(at, json), message);
  const within = (...at: string[]) => refused.some((r) => at.every((key, i) => r.at[i] === key));
  // The lists are read when the schema passed what they stand on: the config, its lists, the groups they count in.
  if (refused.some((r) => r.at.length === 0 || (r.at.length === 1 && r.at[0] === 'lists')) || within('groups'))
    return { errors: e.all };
  const config = json as RawConfig;
  const groups = config.groups && readGroups(config.groups);
  // The lists other lists embed, known before each is read: their items carry no fields, so no order either.
  // A list the schema refused may hold anything (`"children": null`), so only the others say what they embed.
  const embedded = new Map<string, string>();
  for (const [name, { children }] of Object.entries(config.lists))
    if (children !== undefined && !within('lists', name))
      embedded.set(typeof children === 'string' ? children : children.list, name);
  const read: ListSpec[] = [];
  for (const [name, raw] of Object.entries(config.lists)) {
    if (within('lists', name)) continue;
    const list = readList(e, name, raw, groups, embedded.get(name));
    if (list) read.push(list);
  }
  const lists = e.all.length === 0 ? checkRelations(e, read) : [];
  if (e.all.length > 0) return { errors: e.all };
  const { pageSize, host } = config;
  return {
    declaration: { ...(pageSize ? { pageSize } : {}), ...(host ? { host } : {}), ...(groups ? { groups } : {}), lists },
    errors: [],
  };
}

function readGroups(v: RawGroups): GroupsSpec {
  const d = DEFAULTS.groups;
  const source = readSource(v.source, d.source);
  return { source, param: v.param, id: v.id ?? d.id, label: v.label ?? d.label, optional: v.optional ?? false };
}

/** A list's counts: a file name, or {source, group, id, count}; only with groups, and only on a paged list. */
function readCounts(e: Errors, name: string, v: RawList['counts'], groups: GroupsSpec | undefined) {
  if (v === undefined) return undefined;
  const path = `lists.${name}.counts`;
  if (!groups) return e.fail(path, 'counts need "groups" at the top: the groups they are counted in');
  const o = typeof v === 'string' ? { source: v } : v;
  const d = DEFAULTS.counts;
  const counts: CountsSpec = {
    source: readSource(o.source, `${name}_count.csv`),
    group: o.group ?? d.group,
    id: o.id ?? d.id,
    count: o.count ?? d.count,
  };
  return counts;
}

/** The order of an item's own keys: as declared, which must be each of them once, else as they come. */
function readKeys(e: Errors, path: string, v: RawList['keys'], own: string[]): string[] {
  if (v === undefined) return own;
  if (v.length === own.length && own.every((x) => v.includes(x))) return v;
  e.add(path, `expected the item's keys in the order they are written: ${own.map(quote).join(', ')} in any order`);
  return own;
}

function readList(
  e: Errors,
  name: string,
  v: RawList,
  groups: GroupsSpec | undefined,
  embeddedIn: string | undefined,
): ListSpec | undefined {
  const path = `lists.${name}`;
  const before = e.all.length;
  const id = readId(e, `${path}.id`, v.id);
  const label = readLabel(e, `${path}.label`, v.label);
  const fields = readFields(e, `${path}.fields`, v.fields);
  const shape = v.shape ?? DEFAULTS.shape;
  const children =
    v.children === undefined
      ? undefined
      : typeof v.children === 'string'
        ? { list: v.children, key: DEFAULTS.children.key }
        : { list: v.children.list, key: v.children.key ?? DEFAULTS.children.key };
  const search = readSearch(e, `${path}.search`, v.search, { fields, shape, children: children !== undefined });
  if (embeddedIn && v.order !== undefined)
    e.add(
      `${path}.order`,
      `the children of ${quote(embeddedIn)} are in their parent's items in list order: drop "order"`,
    );
  const order = embeddedIn ? undefined : readOrder(e, `${path}.order`, v.order, fields);
  const counts = readCounts(e, name, v.counts, groups);
  if (e.all.length > before || !id || !label) return undefined;
  const ownKeys = [id.key, label.key, ...fields.map((f) => f.key)];
  const keys = readKeys(e, `${path}.keys`, v.keys, ownKeys);
  const reserved = ['count', ...(children ? [children.key] : [])];
  for (const key of new Set(ownKeys)) {
    if (ownKeys.indexOf(key) !== ownKeys.lastIndexOf(key)) e.add(path, `two of its keys are ${quote(key)}`);
    if (reserved.includes(key))
      e.add(
        path,
        `${quote(key)} is a key reflist writes itself (${key === 'count' ? 'the count of a group' : 'the children'})`,
      );
  }
  const parent = v.parent && {
    list: v.parent.list,
    columns: typeof v.parent.column === 'string' ? [v.parent.column] : v.parent.column,
  };
  const spec: Omit<ListSpec, 'params'> = {
    name,
    path: v.path ?? name,
    source: readSource(v.source, `${name}.csv`),
    id,
    label,
    fields,
    keys,
    ...(parent ? { parent } : {}),
    ...(children ? { children } : {}),
    shape,
    items: v.items ?? false,
    search,
    ...(order ? { order } : {}),
    ...(counts ? { counts } : {}),
    optional: v.optional ?? false,
  };
  if (spec.counts && spec.shape !== 'paged') e.add(`${path}.counts`, 'only paged lists have counts');
  if (spec.children && spec.shape !== 'paged') e.add(`${path}.children`, 'only paged lists embed children');
  return { ...spec, params: readParams(e, `${path}.params`, v.params, spec, groups) };
}

/** Every source file a declaration reads, each once, in declared order. */
export function sourceFiles(d: Declaration): SourceSpec[] {
  const all = [
    ...(d.groups ? [d.groups.source] : []),
    ...d.lists.flatMap((l) => [l.source, ...(l.counts ? [l.counts.source] : [])]),
  ];
  return [...new Map(all.map((s) => [s.file, s])).values()];
}
