// What a project declares in reflist.config.json (docs/lists.md): its lists,
// where each is read from and what its answers look like. `checkConfig` turns
// the file's JSON into a Declaration, every default filled in, or into every
// error it finds, each located by its JSON path. Pure: load.ts reads the file,
// and columns.ts checks the sources' headers.
import { didYouMean, type ReflistError } from '../errors.js';
import { readId, readFields, readLabel } from './fields.js';
import { HOST_NAMES, isHostName, type HostName } from './hosts.js';
import { Errors, isObject, quote, readBoolean, readColumn, readName, readSource, type Json } from './json.js';
import { readParams } from './params.js';
import { readOrder, readSearch } from './ranking.js';
import { checkRelations } from './relations.js';
import type { CountsSpec, Declaration, GroupsSpec, ListSpec, OrderKey, ParentSpec, Shape, SourceSpec } from './spec.js';

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
  if (!isObject(json)) {
    e.add('(top)', 'expected an object with "lists"');
    return { errors: e.all };
  }
  e.keys('(top)', json, ['$schema', 'pageSize', 'host', 'groups', 'lists']);
  let pageSize: number | undefined;
  if (json['pageSize'] !== undefined) {
    const n = json['pageSize'];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 10000)
      e.add('pageSize', `expected an integer from 1 to 10000, got ${JSON.stringify(n)}`);
    else pageSize = n;
  }
  const host = readHost(e, json['host']);
  const groups = readGroups(e, json['groups']);
  const read: ListSpec[] = [];
  let lists: ListSpec[] = [];
  const rawLists = json['lists'];
  if (!isObject(rawLists) || Object.keys(rawLists).length === 0)
    e.add('lists', 'expected an object naming at least one list, e.g. {"institution": {"source": "institution.csv"}}');
  else {
    // The lists other lists embed, known before each is read: their items carry no fields, so no order either.
    const embedded = new Map<unknown, string>();
    for (const [name, raw] of Object.entries(rawLists)) {
      const c = isObject(raw) ? raw['children'] : undefined;
      embedded.set(isObject(c) ? c['list'] : c, name);
    }
    for (const [name, raw] of Object.entries(rawLists)) {
      const path = `lists.${name}`;
      if (readName(e, path, name, 'a list name') === undefined) continue;
      const list = readList(e, path, name, raw, groups, embedded.get(name));
      if (list) read.push(list);
    }
    if (e.all.length === 0) lists = checkRelations(e, read);
  }
  return e.all.length > 0
    ? { errors: e.all }
    : {
        declaration: {
          ...(pageSize ? { pageSize } : {}),
          ...(host ? { host } : {}),
          ...(groups ? { groups } : {}),
          lists,
        },
        errors: [],
      };
}

function readHost(e: Errors, v: Json): HostName | undefined {
  if (v === undefined || (typeof v === 'string' && isHostName(v))) return v;
  e.add(
    'host',
    `expected one of ${HOST_NAMES.join(', ')}, got ${JSON.stringify(v)}${typeof v === 'string' ? didYouMean(v, HOST_NAMES) : ''}`,
  );
  return undefined;
}

function readGroups(e: Errors, v: Json): GroupsSpec | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) return e.fail('groups', 'expected {"source", "param", "id", "label"}');
  e.keys('groups', v, ['source', 'param', 'id', 'label', 'optional']);
  const source = readSource(e, 'groups.source', v['source'], 'group.csv');
  const param = v['param'] === undefined ? undefined : readName(e, 'groups.param', v['param'], 'a parameter name');
  if (v['param'] === undefined) e.add('groups.param', 'expected the query parameter that picks a group, e.g. "System"');
  const id = v['id'] === undefined ? 'id' : readColumn(e, 'groups.id', v['id']);
  const label = v['label'] === undefined ? 'text' : readColumn(e, 'groups.label', v['label']);
  const optional = readBoolean(e, 'groups.optional', v['optional']);
  return source && param && id && label ? { source, param, id, label, optional } : undefined;
}

const LIST_KEYS = [
  'path',
  'source',
  'optional',
  'id',
  'label',
  'fields',
  'keys',
  'parent',
  'children',
  'shape',
  'items',
  'search',
  'order',
  'counts',
  'params',
] as const;

function readList(
  e: Errors,
  path: string,
  name: string,
  v: Json,
  groups: GroupsSpec | undefined,
  embeddedIn: string | undefined,
): ListSpec | undefined {
  if (!isObject(v)) return e.fail(path, 'expected an object, e.g. {"source": "institution.csv", "label": "name"}');
  const before = e.all.length;
  e.keys(path, v, LIST_KEYS);
  const source = readSource(e, `${path}.source`, v['source'], `${name}.csv`);
  const segment = v['path'] === undefined ? name : readName(e, `${path}.path`, v['path'], 'a path segment');
  const id = readId(e, `${path}.id`, v['id']);
  const label = readLabel(e, `${path}.label`, v['label']);
  const fields = readFields(e, `${path}.fields`, v['fields']);
  const shape = v['shape'] ?? 'paged';
  if (shape !== 'paged' && shape !== 'whole' && shape !== 'grid') {
    e.add(
      `${path}.shape`,
      `expected "paged", "whole" or "grid", got ${JSON.stringify(shape)}${typeof shape === 'string' ? didYouMean(shape, ['paged', 'whole', 'grid']) : ''}`,
    );
  }
  let parent: ParentSpec | undefined;
  if (v['parent'] !== undefined) {
    const p = v['parent'];
    if (!isObject(p)) e.add(`${path}.parent`, 'expected {"list", "column"}');
    else {
      e.keys(`${path}.parent`, p, ['list', 'column']);
      const list = readName(e, `${path}.parent.list`, p['list'], 'a list name');
      const c = p['column'];
      const columns =
        typeof c === 'string'
          ? [c]
          : Array.isArray(c) && c.length > 0 && c.every((x) => typeof x === 'string' && x.trim() !== '')
            ? (c as string[])
            : undefined;
      if (!columns)
        e.add(
          `${path}.parent.column`,
          "expected the column holding the parent's id, or one column per ancestor, outermost first",
        );
      if (list && columns) parent = { list, columns };
    }
  }
  let children: ListSpec['children'];
  if (v['children'] !== undefined) {
    const c = v['children'];
    const o = typeof c === 'string' ? { list: c } : c;
    if (!isObject(o)) e.add(`${path}.children`, 'expected a list name or {"list", "key"}');
    else {
      e.keys(`${path}.children`, o, ['list', 'key']);
      const list = readName(e, `${path}.children.list`, o['list'], 'a list name');
      const key = o['key'] === undefined ? 'children' : readName(e, `${path}.children.key`, o['key'], 'a key');
      if (list && key) children = { list, key };
    }
  }
  const items = readBoolean(e, `${path}.items`, v['items']);
  const optional = readBoolean(e, `${path}.optional`, v['optional']);
  const search = readSearch(e, `${path}.search`, v['search'], { fields, shape, children: children !== undefined });
  let order: OrderKey[] | undefined;
  if (embeddedIn && v['order'] !== undefined)
    e.add(
      `${path}.order`,
      `the children of ${quote(embeddedIn)} are in their parent's items in list order: drop "order"`,
    );
  else order = readOrder(e, `${path}.order`, v['order'], fields);
  let counts: CountsSpec | undefined;
  if (v['counts'] !== undefined) {
    const c = v['counts'];
    const o = typeof c === 'string' ? { source: c } : c;
    if (!groups) e.add(`${path}.counts`, 'counts need "groups" at the top: the groups they are counted in');
    else if (!isObject(o)) e.add(`${path}.counts`, 'expected a file name or {"source", "group", "id", "count"}');
    else {
      e.keys(`${path}.counts`, o, ['source', 'group', 'id', 'count']);
      const src = readSource(e, `${path}.counts.source`, o['source'], `${name}_count.csv`);
      const cols = (['group', 'id', 'count'] as const).map((k) =>
        o[k] === undefined ? k : readColumn(e, `${path}.counts.${k}`, o[k]),
      );
      if (src && cols.every((x) => x !== undefined))
        counts = { source: src, group: cols[0]!, id: cols[1]!, count: cols[2]! };
    }
  }
  if (e.all.length > before || !source || !segment || !id || !label) return undefined;
  const ownKeys = [id.key, label.key, ...fields.map((f) => f.key)];
  let keys = ownKeys;
  if (v['keys'] !== undefined) {
    const k = v['keys'];
    const same = Array.isArray(k) && k.length === ownKeys.length && ownKeys.every((x) => k.includes(x));
    if (!same)
      e.add(
        `${path}.keys`,
        `expected the item's keys in the order they are written: ${ownKeys.map(quote).join(', ')} in any order`,
      );
    else keys = k as string[];
  }
  const reserved = ['count', ...(children ? [children.key] : [])];
  for (const key of new Set(ownKeys)) {
    if (ownKeys.indexOf(key) !== ownKeys.lastIndexOf(key)) e.add(path, `two of its keys are ${quote(key)}`);
    if (reserved.includes(key))
      e.add(
        path,
        `${quote(key)} is a key reflist writes itself (${key === 'count' ? 'the count of a group' : 'the children'})`,
      );
  }
  const spec: Omit<ListSpec, 'params'> = {
    name,
    path: segment,
    source,
    id,
    label,
    fields,
    keys,
    ...(parent ? { parent } : {}),
    ...(children ? { children } : {}),
    shape: shape as Shape,
    items,
    search,
    ...(order ? { order } : {}),
    ...(counts ? { counts } : {}),
    optional,
  };
  if (spec.counts && spec.shape !== 'paged') e.add(`${path}.counts`, 'only paged lists have counts');
  if (spec.children && spec.shape !== 'paged') e.add(`${path}.children`, 'only paged lists embed children');
  return { ...spec, params: readParams(e, `${path}.params`, v['params'], spec, groups) };
}

/** Every source file a declaration reads, each once, in declared order. */
export function sourceFiles(d: Declaration): SourceSpec[] {
  const all = [
    ...(d.groups ? [d.groups.source] : []),
    ...d.lists.flatMap((l) => [l.source, ...(l.counts ? [l.counts.source] : [])]),
  ];
  return [...new Map(all.map((s) => [s.file, s])).values()];
}
