// What a project declares in reflist.config.json (docs/lists.md): its lists,
// where each is read from and what its answers look like. `checkConfig` turns
// the file's JSON into a Declaration, every default filled in, or into every
// error it finds, each located by its JSON path. Pure: load.ts reads the file,
// and columns.ts checks the sources' headers.
import { didYouMean, ReflistError, suggest } from '../errors.js';
import { HOST_NAMES, isHostName, type HostName } from './hosts.js';
import { readOrder, readSearch, type OrderKey, type SearchSpec } from './ranking.js';

export type { OrderKey, SearchSpec, TextSpec } from './ranking.js';

export type IdType = 'integer' | 'string';
export type FieldType = 'integer' | 'number' | 'string';
/** paged: the select2 envelope a page at a time; whole: every item in one envelope; grid: jqGrid's reader, one page. */
export type Shape = 'paged' | 'whole' | 'grid';
export type Delimiter = ',' | ';' | '\t';

export interface SourceSpec {
  /** Relative to the config's folder. */
  file: string;
  delimiter: Delimiter;
}

export interface IdSpec {
  column: string;
  type: IdType;
  /** The key the id has in an item. */
  key: string;
  /** string ids: the characters an id may hold, as a character class body (`A-Za-z0-9_-`). */
  chars: string;
}

export interface LabelSpec {
  /** `{column}` placeholders and literal text; a label of one column is `{column}`. */
  template: string;
  /** The columns the template names, in order of first use. */
  columns: string[];
  /** The key the label has in an item. */
  key: string;
}

export interface FieldSpec {
  /** The key in an item. */
  key: string;
  column: string;
  type: FieldType;
  min?: number;
  max?: number;
}

export interface ParentSpec {
  list: string;
  /** One column per ancestor the rows name, outermost first; the last is the parent's id. */
  columns: string[];
}

export interface CountsSpec {
  source: SourceSpec;
  /** The columns of the counts source: the group's id, the item's id, the count. */
  group: string;
  id: string;
  count: string;
}

/**
 * The query parameters a list takes, by role; a role without a name is not
 * taken. Names match case-insensitively. A config renames a role or turns it
 * off (false); the others keep their defaults.
 */
export interface ParamSpec {
  page?: string;
  term?: string;
  id?: string;
  group?: string;
  child?: string;
}

export interface ListSpec {
  name: string;
  /** Its last path segment: the name unless declared. */
  path: string;
  source: SourceSpec;
  id: IdSpec;
  label: LabelSpec;
  fields: FieldSpec[];
  /** The order of an item's own keys: the id's, the label's and the fields'. */
  keys: string[];
  parent?: ParentSpec;
  /** Embeds the items of another list, whose parent is this one, in this list's items. */
  children?: { list: string; key: string };
  /** Set when another list embeds this one: it has no files of its own. */
  embeddedIn?: string;
  shape: Shape;
  /** Writes each item at `…/{list}/{id}.json`. */
  items: boolean;
  /** Term search over the label (or the declared text), over these string fields, which rank after it, exact matches first (docs/lists.md). */
  search: false | SearchSpec;
  /** The declared order's keys; without them, list order (docs/lists.md, Order). */
  order?: OrderKey[];
  counts?: CountsSpec;
  params: ParamSpec;
  /** Its sources (its own, its counts') may be absent: each is then an empty list (docs/lists.md). */
  optional: boolean;
}

export interface GroupsSpec {
  source: SourceSpec;
  id: string;
  label: string;
  /** The query parameter that picks a group, e.g. System. */
  param: string;
  /** The groups' source may be absent: there are then none. */
  optional: boolean;
}

export interface Declaration {
  pageSize?: number;
  /** The host the tree is for: a build over its caps fails (`--host` overrides it). */
  host?: HostName;
  groups?: GroupsSpec;
  /** In declared order. */
  lists: ListSpec[];
}

/** A name that may be a path segment on every host, of a list, a key or a column in a path. */
export const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** Characters a string id may hold: RFC 3986's unreserved ones but `.` and `~`, so no id is `..` or a hidden file. */
const PATH_SAFE = /^[A-Za-z0-9_-]$/;
export const DEFAULT_ID_CHARS = 'A-Za-z0-9_-';
const PLACEHOLDER = /\{([^{}]*)\}/g;
/** Root names the tree's own files take (lookup.json, lookup-client.js, lookup-sw.js, the demo). */
const RESERVED = ['lookup', 'lookup-client', 'lookup-sw', 'demo'];

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const quote = (s: string) => JSON.stringify(s);

/** Collects a config's errors, each `file: path: message`. */
class Errors {
  readonly all: ReflistError[] = [];
  constructor(readonly file: string) {}
  add(path: string, message: string): void {
    this.all.push(new ReflistError('INVALID_CONFIG', `${path}: ${message}`, { file: this.file }));
  }
  /** Reports keys of `o` not in `known`, with a guess. */
  keys(path: string, o: Record<string, Json>, known: readonly string[]): void {
    for (const key of Object.keys(o)) {
      if (known.includes(key)) continue;
      const hint = suggest(key, known);
      this.add(`${path}.${key}`, `unknown key${hint ? ` (did you mean ${quote(hint)}?)` : `; expected one of ${known.join(', ')}`}`);
    }
  }
}

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

function readSource(e: Errors, path: string, v: Json, fallback: string): SourceSpec | undefined {
  if (v === undefined) return { file: fallback, delimiter: ',' };
  if (typeof v === 'string') return checkFile(e, path, v) ? { file: v, delimiter: ',' } : undefined;
  if (!isObject(v)) return e.add(path, `expected a file name or {"file", "delimiter"}, got ${JSON.stringify(v)}`), undefined;
  e.keys(path, v, ['file', 'delimiter']);
  const file = v['file'];
  if (typeof file !== 'string') return e.add(`${path}.file`, 'expected a file name'), undefined;
  if (!checkFile(e, `${path}.file`, file)) return undefined;
  const delimiter = v['delimiter'] ?? ',';
  if (delimiter !== ',' && delimiter !== ';' && delimiter !== '\t') {
    return e.add(`${path}.delimiter`, `expected ",", ";" or "\\t", got ${JSON.stringify(delimiter)}`), undefined;
  }
  return { file, delimiter };
}

/** A source is a file in the config's folder or below it: never a path out of it. */
function checkFile(e: Errors, path: string, file: string): boolean {
  const parts = file.split('/');
  if (!file.endsWith('.csv') || file.includes('\\') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    e.add(path, `expected a .csv file in the config's folder or below it, got ${quote(file)}`);
    return false;
  }
  return true;
}

function readName(e: Errors, path: string, v: Json, what: string): string | undefined {
  if (typeof v !== 'string' || !NAME.test(v)) {
    e.add(path, `expected ${what}: a letter, then up to 63 of A-Z a-z 0-9 _ -, got ${JSON.stringify(v)}`);
    return undefined;
  }
  return v;
}

function readColumn(e: Errors, path: string, v: Json): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') return e.add(path, `expected a column name, got ${JSON.stringify(v)}`), undefined;
  return v;
}

function readId(e: Errors, path: string, v: Json): IdSpec | undefined {
  if (v === undefined || typeof v === 'string') {
    const column = v === undefined ? 'id' : readColumn(e, path, v);
    return column === undefined ? undefined : { column, type: 'integer', key: 'id', chars: DEFAULT_ID_CHARS };
  }
  if (!isObject(v)) return e.add(path, `expected a column name or {"column", "type", "key", "chars"}, got ${JSON.stringify(v)}`), undefined;
  e.keys(path, v, ['column', 'type', 'key', 'chars']);
  const column = v['column'] === undefined ? 'id' : readColumn(e, `${path}.column`, v['column']);
  const type = v['type'] ?? 'integer';
  if (type !== 'integer' && type !== 'string') return e.add(`${path}.type`, `expected "integer" or "string", got ${JSON.stringify(type)}`), undefined;
  const key = v['key'] === undefined ? 'id' : readName(e, `${path}.key`, v['key'], 'a key');
  let chars = DEFAULT_ID_CHARS;
  if (v['chars'] !== undefined) {
    if (type !== 'string') e.add(`${path}.chars`, 'only string ids have chars (set "type": "string")');
    else if (typeof v['chars'] !== 'string' || v['chars'] === '') e.add(`${path}.chars`, `expected characters like "A-Z0-9-", got ${JSON.stringify(v['chars'])}`);
    else {
      const expanded = expandChars(v['chars']);
      if (!Array.isArray(expanded)) e.add(`${path}.chars`, expanded.error);
      else {
        const bad = expanded.filter((c) => !PATH_SAFE.test(c));
        if (bad.length > 0) {
          const shown = bad.slice(0, 5).map((c) => quote(c)).join(', ') + (bad.length > 5 ? ', …' : '');
          e.add(`${path}.chars`, `${shown} cannot be in a path on every host; ids may hold A-Z a-z 0-9 _ -`);
        } else chars = v['chars'];
      }
    }
  }
  return column === undefined || key === undefined ? undefined : { column, type, key, chars };
}

function readLabel(e: Errors, path: string, v: Json): LabelSpec | undefined {
  let template: Json = '{text}';
  let key: string | undefined = 'text';
  if (typeof v === 'string') template = v.includes('{') ? v : `{${v}}`;
  else if (isObject(v)) {
    e.keys(path, v, ['column', 'template', 'key']);
    if ((v['column'] === undefined) === (v['template'] === undefined)) return e.add(path, 'expected one of "column" or "template"'), undefined;
    if (v['column'] !== undefined) {
      const column = readColumn(e, `${path}.column`, v['column']);
      if (column === undefined) return undefined;
      template = `{${column}}`;
    } else template = v['template'];
    if (v['key'] !== undefined) key = readName(e, `${path}.key`, v['key'], 'a key');
  } else if (v !== undefined) return e.add(path, `expected a column, a template like "{family}, {given}", or {"column"|"template", "key"}, got ${JSON.stringify(v)}`), undefined;
  if (typeof template !== 'string') return e.add(`${path}.template`, `expected a template like "{family}, {given}", got ${JSON.stringify(template)}`), undefined;
  const columns = [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
  if (columns.length === 0 || columns.some((c) => c.trim() === '') || /[{}]/.test(template.replace(PLACEHOLDER, ''))) {
    return e.add(path, `expected a template naming columns in braces, like "{family}, {given}", got ${quote(template)}`), undefined;
  }
  return key === undefined ? undefined : { template, columns, key };
}

const FIELD_TYPES = ['integer', 'number', 'string'] as const;

function readFields(e: Errors, path: string, v: Json): FieldSpec[] {
  if (v === undefined) return [];
  if (!isObject(v)) return e.add(path, 'expected an object of key: type or key: {"column", "type", "min", "max"}'), [];
  const fields: FieldSpec[] = [];
  for (const [key, spec] of Object.entries(v)) {
    const at = `${path}.${key}`;
    if (readName(e, at, key, 'a key') === undefined) continue;
    const o: Record<string, Json> = typeof spec === 'string' ? { type: spec } : isObject(spec) ? spec : {};
    if (!isObject(spec) && typeof spec !== 'string') {
      e.add(at, `expected a type (integer, number, string) or {"column", "type", "min", "max"}, got ${JSON.stringify(spec)}`);
      continue;
    }
    e.keys(at, o, ['column', 'type', 'min', 'max']);
    const type = o['type'];
    if (!FIELD_TYPES.includes(type as FieldType)) {
      e.add(`${at}${typeof spec === 'string' ? '' : '.type'}`, `expected integer, number or string, got ${JSON.stringify(type)}${typeof type === 'string' ? didYouMean(type, FIELD_TYPES) : ''}`);
      continue;
    }
    const column = o['column'] === undefined ? key : readColumn(e, `${at}.column`, o['column']);
    const field: FieldSpec = { key, column: column ?? key, type: type as FieldType };
    for (const bound of ['min', 'max'] as const) {
      const n = o[bound];
      if (n === undefined) continue;
      if (typeof n !== 'number' || type === 'string') e.add(`${at}.${bound}`, type === 'string' ? 'only numbers have bounds' : `expected a number, got ${JSON.stringify(n)}`);
      else field[bound] = n;
    }
    if (column !== undefined) fields.push(field);
  }
  return fields;
}

const PARAM_ROLES = ['page', 'term', 'id', 'group', 'child'] as const;

/** The parameters a list takes when it declares none: what its shape, search, counts and children allow, by their usual names. */
function defaultParams(list: Omit<ListSpec, 'params'>, groups: GroupsSpec | undefined): ParamSpec {
  if (list.shape === 'grid') return {};
  const term = list.search ? { term: 'Term' } : {};
  if (list.shape === 'whole') return term;
  return {
    page: 'Page',
    ...term,
    id: 'Id',
    ...(list.counts && groups ? { group: groups.param } : {}),
    ...(list.children ? { child: 'child' } : {}),
  };
}

function readParams(e: Errors, path: string, v: Json, list: Omit<ListSpec, 'params'>, groups: GroupsSpec | undefined): ParamSpec {
  const defaults = defaultParams(list, groups);
  if (v === undefined) return defaults;
  if (!isObject(v)) return e.add(path, 'expected an object of role: name, e.g. {"term": "Term", "page": "Page"}'), defaults;
  e.keys(path, v, PARAM_ROLES);
  const params: ParamSpec = {};
  const allowed: Record<(typeof PARAM_ROLES)[number], string | undefined> = {
    page: list.shape === 'paged' ? undefined : 'only paged lists take page',
    term: list.search ? (list.shape === 'grid' ? 'a grid takes no parameters' : undefined) : 'this list has no search ("search": false)',
    id: list.shape === 'paged' ? undefined : 'only paged lists take id (a whole list has its items at {list}/{id}.json with "items": true)',
    group: list.counts ? (list.shape === 'paged' ? undefined : 'only paged lists take group') : 'this list has no counts',
    child: list.children ? undefined : 'this list has no children',
  };
  const seen = new Map<string, string>();
  for (const role of PARAM_ROLES) {
    const name = v[role] ?? defaults[role];
    if (name === undefined || name === false) continue;
    if (typeof name !== 'string' || !NAME.test(name)) {
      e.add(`${path}.${role}`, `expected a parameter name (a letter, then A-Z a-z 0-9 _ -) or false, got ${JSON.stringify(name)}`);
      continue;
    }
    if (allowed[role]) {
      if (v[role] !== undefined) e.add(`${path}.${role}`, allowed[role]!);
      continue;
    }
    const other = seen.get(name.toLowerCase());
    if (other) e.add(`${path}.${role}`, `${quote(name)} is already the name of ${other} (names match case-insensitively)`);
    seen.set(name.toLowerCase(), role);
    params[role] = name;
  }
  return params;
}

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
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 10000) e.add('pageSize', `expected an integer from 1 to 10000, got ${JSON.stringify(n)}`);
    else pageSize = n;
  }
  const host = readHost(e, json['host']);
  const groups = readGroups(e, json['groups']);
  const lists: ListSpec[] = [];
  const rawLists = json['lists'];
  if (!isObject(rawLists) || Object.keys(rawLists).length === 0) e.add('lists', 'expected an object naming at least one list, e.g. {"institution": {"source": "institution.csv"}}');
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
      if (list) lists.push(list);
    }
    if (e.all.length === 0) checkRelations(e, lists);
  }
  return e.all.length > 0 ? { errors: e.all } : { declaration: { ...(pageSize ? { pageSize } : {}), ...(host ? { host } : {}), ...(groups ? { groups } : {}), lists }, errors: [] };
}

function readHost(e: Errors, v: Json): HostName | undefined {
  if (v === undefined || (typeof v === 'string' && isHostName(v))) return v;
  e.add('host', `expected one of ${HOST_NAMES.join(', ')}, got ${JSON.stringify(v)}${typeof v === 'string' ? didYouMean(v, HOST_NAMES) : ''}`);
  return undefined;
}

function readGroups(e: Errors, v: Json): GroupsSpec | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) return e.add('groups', 'expected {"source", "param", "id", "label"}'), undefined;
  e.keys('groups', v, ['source', 'param', 'id', 'label', 'optional']);
  const source = readSource(e, 'groups.source', v['source'], 'group.csv');
  const param = v['param'] === undefined ? undefined : readName(e, 'groups.param', v['param'], 'a parameter name');
  if (v['param'] === undefined) e.add('groups.param', 'expected the query parameter that picks a group, e.g. "System"');
  const id = v['id'] === undefined ? 'id' : readColumn(e, 'groups.id', v['id']);
  const label = v['label'] === undefined ? 'text' : readColumn(e, 'groups.label', v['label']);
  const optional = readBoolean(e, 'groups.optional', v['optional']);
  return source && param && id && label ? { source, param, id, label, optional } : undefined;
}

const LIST_KEYS = ['path', 'source', 'optional', 'id', 'label', 'fields', 'keys', 'parent', 'children', 'shape', 'items', 'search', 'order', 'counts', 'params'] as const;

/** A flag: true or false, false when not given. */
function readBoolean(e: Errors, path: string, v: Json): boolean {
  if (v === undefined || typeof v === 'boolean') return v ?? false;
  e.add(path, `expected true or false, got ${JSON.stringify(v)}`);
  return false;
}

function readList(e: Errors, path: string, name: string, v: Json, groups: GroupsSpec | undefined, embeddedIn: string | undefined): ListSpec | undefined {
  if (!isObject(v)) return e.add(path, 'expected an object, e.g. {"source": "institution.csv", "label": "name"}'), undefined;
  const before = e.all.length;
  e.keys(path, v, LIST_KEYS);
  const source = readSource(e, `${path}.source`, v['source'], `${name}.csv`);
  const segment = v['path'] === undefined ? name : readName(e, `${path}.path`, v['path'], 'a path segment');
  const id = readId(e, `${path}.id`, v['id']);
  const label = readLabel(e, `${path}.label`, v['label']);
  const fields = readFields(e, `${path}.fields`, v['fields']);
  const shape = v['shape'] ?? 'paged';
  if (shape !== 'paged' && shape !== 'whole' && shape !== 'grid') {
    e.add(`${path}.shape`, `expected "paged", "whole" or "grid", got ${JSON.stringify(shape)}${typeof shape === 'string' ? didYouMean(shape, ['paged', 'whole', 'grid']) : ''}`);
  }
  let parent: ParentSpec | undefined;
  if (v['parent'] !== undefined) {
    const p = v['parent'];
    if (!isObject(p)) e.add(`${path}.parent`, 'expected {"list", "column"}');
    else {
      e.keys(`${path}.parent`, p, ['list', 'column']);
      const list = readName(e, `${path}.parent.list`, p['list'], 'a list name');
      const c = p['column'];
      const columns = typeof c === 'string' ? [c] : Array.isArray(c) && c.length > 0 && c.every((x) => typeof x === 'string' && x.trim() !== '') ? (c as string[]) : undefined;
      if (!columns) e.add(`${path}.parent.column`, 'expected the column holding the parent\'s id, or one column per ancestor, outermost first');
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
  if (embeddedIn && v['order'] !== undefined) e.add(`${path}.order`, `the children of ${quote(embeddedIn)} are in their parent's items in list order: drop "order"`);
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
      const cols = (['group', 'id', 'count'] as const).map((k) => (o[k] === undefined ? k : readColumn(e, `${path}.counts.${k}`, o[k])));
      if (src && cols.every((x) => x !== undefined)) counts = { source: src, group: cols[0]!, id: cols[1]!, count: cols[2]! };
    }
  }
  if (e.all.length > before || !source || !segment || !id || !label) return undefined;
  const ownKeys = [id.key, label.key, ...fields.map((f) => f.key)];
  let keys = ownKeys;
  if (v['keys'] !== undefined) {
    const k = v['keys'];
    const same = Array.isArray(k) && k.length === ownKeys.length && ownKeys.every((x) => k.includes(x));
    if (!same) e.add(`${path}.keys`, `expected the item's keys in the order they are written: ${ownKeys.map(quote).join(', ')} in any order`);
    else keys = k as string[];
  }
  const reserved = ['count', ...(children ? [children.key] : [])];
  for (const key of new Set(ownKeys)) {
    if (ownKeys.indexOf(key) !== ownKeys.lastIndexOf(key)) e.add(path, `two of its keys are ${quote(key)}`);
    if (reserved.includes(key)) e.add(path, `${quote(key)} is a key reflist writes itself (${key === 'count' ? 'the count of a group' : 'the children'})`);
  }
  const spec: Omit<ListSpec, 'params'> = {
    name, path: segment, source, id, label, fields, keys, ...(parent ? { parent } : {}), ...(children ? { children } : {}),
    shape: shape as Shape, items, search, ...(order ? { order } : {}), ...(counts ? { counts } : {}), optional,
  };
  if (spec.counts && spec.shape !== 'paged') e.add(`${path}.counts`, 'only paged lists have counts');
  if (spec.children && spec.shape !== 'paged') e.add(`${path}.children`, 'only paged lists embed children');
  return { ...spec, params: readParams(e, `${path}.params`, v['params'], spec, groups) };
}

/** Parents and children name declared lists, parents form no cycle, and no two lists share a path. */
function checkRelations(e: Errors, lists: ListSpec[]): void {
  const byName = new Map(lists.map((l) => [l.name, l]));
  const names = [...byName.keys()];
  for (const list of lists) {
    if (list.parent && !byName.has(list.parent.list)) e.add(`lists.${list.name}.parent.list`, `no list ${quote(list.parent.list)}${didYouMean(list.parent.list, names)}`);
    if (!list.children) continue;
    const child = byName.get(list.children.list);
    if (!child) e.add(`lists.${list.name}.children.list`, `no list ${quote(list.children.list)}${didYouMean(list.children.list, names)}`);
    else if (child.parent?.list !== list.name) e.add(`lists.${list.name}.children.list`, `list ${quote(child.name)} must declare "parent": {"list": ${quote(list.name)}, …} to be its children`);
    else if (child.embeddedIn) e.add(`lists.${list.name}.children.list`, `list ${quote(child.name)} is already the children of ${quote(child.embeddedIn)}`);
    else (child.embeddedIn = list.name), (child.params = {});
  }
  if (e.all.length > 0) return;
  for (const list of lists) {
    const chain = [list.name];
    for (let p = list.parent; p; p = byName.get(p.list)!.parent) {
      if (chain.includes(p.list)) {
        e.add(`lists.${list.name}.parent`, `the parents form a cycle: ${[...chain, p.list].join(' → ')}`);
        break;
      }
      chain.push(p.list);
    }
  }
  if (e.all.length > 0) return;
  for (const list of lists) {
    const depth = ancestors(list, byName).length;
    if (list.parent && list.parent.columns.length !== 1 && list.parent.columns.length !== depth) {
      e.add(`lists.${list.name}.parent.column`, `expected one column (the parent's id) or ${depth}, one per ancestor (${ancestors(list, byName).map((a) => a.name).join(', ')})`);
    }
    if (list.embeddedIn && (list.items || list.shape !== 'paged' || list.counts || list.fields.length > 0)) {
      e.add(`lists.${list.name}`, `the children of ${quote(list.embeddedIn)} are an id and a label in their parent's items: drop "items", "shape", "counts" and "fields"`);
    }
    if (!list.parent && RESERVED.includes(list.path.toLowerCase())) e.add(`lists.${list.name}`, `/${list.path}.json is the tree's own; choose another ${list.path === list.name ? 'name' : 'path'}`);
    const parent = list.parent && byName.get(list.parent.list)!;
    if (parent && !list.embeddedIn && parent.shape === 'paged') {
      e.add(`lists.${list.name}.parent`, `a parent is a "whole" or "grid" list for now (${quote(parent.name)} is paged): declare "shape": "whole" in lists.${parent.name}, or give ${quote(list.name)} another parent`);
    }
    if (parent && !list.embeddedIn && list.shape === 'paged') {
      for (const key of ['counts', 'children'] as const) {
        if (list[key]) e.add(`lists.${list.name}.${key}`, `a paged list under a parent has no ${key} for now: drop "${key}", or declare a list of its own without a parent for them`);
      }
    }
  }
  const paths = new Map<string, string>();
  for (const list of lists) {
    if (list.embeddedIn) continue;
    const path = listPath(list, byName);
    const other = paths.get(path.toLowerCase());
    if (other) e.add(`lists.${list.name}`, `it has the path of list ${quote(other)}: /${path}.json (paths match case-insensitively on some hosts)`);
    else paths.set(path.toLowerCase(), list.name);
  }
}

/** A list's ancestors, outermost first. */
export function ancestors(list: ListSpec, byName: ReadonlyMap<string, ListSpec>): ListSpec[] {
  const out: ListSpec[] = [];
  for (let p = list.parent; p; p = byName.get(p.list)!.parent) out.unshift(byName.get(p.list)!);
  return out;
}

/** The path pattern of a list's file, without `.json`: `country/{country}/state`. */
function listPath(list: ListSpec, byName: ReadonlyMap<string, ListSpec>): string {
  return [...ancestors(list, byName).map((a) => `${a.path}/{${a.name}}`), list.path].join('/');
}

/** Every source file a declaration reads, each once, in declared order. */
export function sourceFiles(d: Declaration): SourceSpec[] {
  const all = [...(d.groups ? [d.groups.source] : []), ...d.lists.flatMap((l) => [l.source, ...(l.counts ? [l.counts.source] : [])])];
  return [...new Map(all.map((s) => [s.file, s])).values()];
}
