// The Declaration's types: what checkConfig (declaration.ts) makes of a
// config, and what its readers (fields.ts, json.ts, params.ts, ranking.ts,
// relations.ts) make of their parts, every default filled in: a shape of its
// own, where the raw config's types come from its schema (schema.ts). Types
// alone, so that the readers and the declaration import them without
// importing each other.
import type { HostName } from './hosts.js';
import type { Delimiter, FieldType, IdType, Shape } from './schema.js';

/** The raw config's enums, as its schema (schema.ts) has them. */
export type { Delimiter, FieldType, IdType, Shape } from './schema.js';

/** One key of a declared order: a field (its index in the list's fields), descending or not. */
export interface OrderKey {
  field: number;
  descending: boolean;
}

/** The text a Term matches in tiers 1 and 2 instead of the label: a template over fields. */
export interface TextSpec {
  template: string;
  /** The template's literal parts and fields (indexes into the list's fields), in order. */
  parts: (string | number)[];
}

/** Term search over the label, or the declared text, and over these string fields (indexes into fields), which rank after it. */
export interface SearchSpec {
  fields: number[];
  text?: TextSpec;
  /** Exact matches first (tier 0). */
  exact?: true;
  /** The phrase rule (`"match": "phrase"`): the Term as one phrase at a word start; else every word of it, in any order. */
  phrase?: true;
  /** The words rule without typos forgiven (`"typos": false`). */
  noTypos?: true;
}

export interface SourceSpec {
  /** Relative to the config's folder. */
  file: string;
  delimiter: Delimiter;
  /** No delimiter was declared: the file's header line says which (load.ts, detectDelimiter). */
  detect?: true;
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
  /** A cell may be empty: the item holds null (docs/lists.md, "Fields"). */
  optional?: true;
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
