// The shapes that the builder writes and the client reads. Everything beyond
// the public envelopes of docs/contract.md §1 is compact arrays: these files are internal.

import type { OrderBy } from './fold.js';

export const FORMAT = 4;

/** An item's id: an integer, or a string in a list declared with string ids. */
export type Id = number | string;

/** `{id, text}`: the item of a list declared with the default keys, what select2 reads. */
export interface Item {
  id: Id;
  text: string;
}

/**
 * An item as a client reads it when the caller names no type: the default
 * keys `{id, text}`, and any other key (a field, a count, children) unknown.
 */
export type AnyItem = Item & Record<string, unknown>;

export interface Envelope<T = AnyItem> {
  total: number;
  items: T[];
}

/** An item of a list asked for with its group parameter (System): how many items that group refers to. */
export interface CountedItem extends Item {
  count: number;
}

/** An item with its embedded children (under a Term, those the Term keeps). */
export interface ParentItem extends Item {
  children: Item[];
}

/** jqGrid's reader: one page of every row. */
export interface Grid<T = Record<string, unknown>> {
  total: number;
  page: number;
  records: number;
  rows: T[];
}

/**
 * One entry of a paged list as stored in id buckets and search files:
 * `[id, text, counts, children, fields]`. counts[i] is the count of
 * manifest.systems[i], trailing zeros dropped; children are `[id, text]` pairs
 * in list order; fields are in declared order. A list without children or
 * fields leaves off what would be empty at the end.
 */
export type EntryRecord =
  | [Id, string]
  | [Id, string, number[]]
  | [Id, string, number[], [Id, string][]]
  | [Id, string, number[], [Id, string][], (number | string)[]];

/** A child lookup: `[childId, childText, parent record]`. */
export type ChildRecord = [Id, string, EntryRecord];

/**
 * The results of a prefix with more matches than one search file may hold:
 * their total, `per` pages to a page file, page 1 inline, and the names of
 * the page files holding pages 2… (see resultPagesPath), in order.
 */
export type ResultSet<R = EntryRecord> = [total: number, per: number, page1: R[], files: string[]];

/**
 * A search file: the records of a key range in list order, and the large
 * prefixes located there, each naming its entry of `sets` (prefixes along a
 * chain often share one result set). A paged list under a parent's records
 * are NestedRecords.
 */
export interface SearchChunk<R = EntryRecord> {
  records: R[];
  large?: Record<string, number>;
  sets?: ResultSet<R>[];
  /** A head's file in a list listed in two levels: the first keys of the head's other files. */
  starts?: string[];
}

/** A file of consecutive result pages of one or more large prefixes. */
export interface SearchPages<R = EntryRecord> {
  pages: R[][];
}

export interface ListInfo {
  /** What the list's internal paths are made of besides their keys (see layoutOf). */
  layout: string;
  total: number;
  /** Number of page files: ceil(total / pageSize), at least 1. */
  pages: number;
  /** Number of id bucket files. */
  buckets: number;
  /** Lists with children only: number of child bucket files. */
  childBuckets?: number;
  /**
   * First keys of the search files, in order (docs/search-index.md); in a
   * list listed in two levels, those of its top parts only.
   */
  search: string[];
  /**
   * A list listed in two levels: each head's (a first key of `search`) name
   * of its directory, the first keys of its other files, which its own
   * search file holds (docs/tree.md, Search files listed in two levels).
   */
  heads?: Record<string, string>;
  /** The words rule with typos: how many buckets its typo vocabulary has (docs/tree.md). */
  vocab?: number;
}

/**
 * A paged list under a parent: its pages are under each parent item, so
 * lookup.json holds only what its Id buckets and Term index, shared by all
 * its parents' items, need. Its total counts them all.
 */
export type NestedInfo = Pick<ListInfo, 'layout' | 'total' | 'buckets' | 'search' | 'heads' | 'vocab'>;

/**
 * An entry of a paged list under a parent, as its Id buckets and Term index
 * hold it: the chain of its parents' ids (`US`, `840/6`), and its record.
 */
export type NestedRecord = [chain: string, record: EntryRecord];

/** What a key of an item holds: the id, the label, or the field at this index of a record's fields. */
export type KeyValue = 'id' | 'label' | number;

/** The query parameters a list takes, by role; names match case-insensitively. */
export interface Params {
  page?: string;
  term?: string;
  id?: string;
  group?: string;
  child?: string;
}

/** A list as the client routes and answers it (docs/lists.md): what lookup.json says of its declaration. */
export interface ApiList {
  name: string;
  /** Its path segment; under its parent's item when it has one. */
  path: string;
  parent?: string;
  shape: 'paged' | 'whole' | 'grid';
  /** Whether each item is at `…/{path}/{id}.json`. */
  items: boolean;
  id: 'integer' | 'string';
  /** String ids: the characters they hold, as a character class body. */
  chars?: string;
  params: Params;
  /** An item's keys in order, each with what it holds. */
  keys: [key: string, value: KeyValue][];
  /** The fields (indexes into a record's fields) a Term also matches, in tier 3 (docs/lists.md, Term search). */
  search?: number[];
  /**
   * The text a Term matches in tiers 1 and 2 when it is not the label: its
   * literal parts and fields (indexes into a record's fields), in order.
   */
  text?: (string | number)[];
  /** Exact matches come first, in tier 0. */
  exact?: true;
  /**
   * The words rule: every word of the Term, in any order, and typos forgiven
   * when none matches as typed (docs/lists.md, Term search). Without it, the
   * phrase rule; its index is of another kind (docs/search-index.md).
   */
  words?: true;
  /** The words rule without typos. */
  typos?: false;
  /** The words rule: the list's declared order (fields, descending or not), by which the client merges records of several files. */
  order?: OrderBy[];
  /** The embedded children: their list's name, their key in an item, their own keys and their ids' form. */
  children?: {
    list: string;
    key: string;
    keys: [key: string, value: 'id' | 'label'][];
    id: 'integer' | 'string';
    chars?: string;
  };
}

/** lookup.json */
export interface Manifest {
  format: number;
  pageSize: number;
  /** The groups counts are given for, by id in code-unit order. */
  systems: { id: string; text: string }[];
  /** Paged lists' files (under a parent, their internal files), and the roots of whole and grid lists' totals, by list name. */
  lists: Record<string, ListInfo | NestedInfo | { total: number }>;
  /** The declared lists, and the group parameter when there are counts. */
  api: { group?: string; lists: ApiList[] };
}

/** The body of every answer but 200. */
export interface ErrorBody {
  error: string;
}

/**
 * A 200's body when the caller names no type: a list's envelope, a grid, or
 * an item's own file. None but the envelope has `items`, so `'items' in body`
 * narrows to it.
 */
export type AnyBody = Envelope | Grid | Item;

/**
 * What `request(url)` answers: the body on 200, `{error}` otherwise (a
 * malformed parameter, an unknown id). A caller that knows the list's shape
 * names the body's type: `request<Envelope<CountedItem>>('/author.json?System=gbif')`.
 */
export type Answer<Body = AnyBody> = { status: 200; body: Body } | { status: 400 | 404; body: ErrorBody };
