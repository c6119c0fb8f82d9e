// The shapes that the builder writes and the client reads. Everything beyond
// the public envelopes of docs/contract.md §1 is compact arrays: these files are internal.

export const PAGED_LISTS = ['author', 'division', 'descriptor'] as const;
export type PagedList = (typeof PAGED_LISTS)[number];
export const COUNTED_LISTS = ['author', 'division'] as const;
export type CountedList = (typeof COUNTED_LISTS)[number];

export const FORMAT = 1;

/** `{id, text}` — the item of every select2 list. */
export interface Item {
  id: number;
  text: string;
}

export interface Envelope<T = unknown> {
  total: number;
  items: T[];
}

export interface County {
  FIPS: number;
  LongitudeCenter: number;
  county: string;
  latitudeCenter: number;
}

export interface Grid {
  total: number;
  page: number;
  records: number;
  rows: County[];
}

/**
 * One entry of a paged list as stored in id buckets and search files:
 * `[id, text, counts, children]`. counts[i] is the count of manifest.systems[i],
 * trailing zeros dropped; children are `[id, text]` pairs in list order.
 */
export type EntryRecord =
  | [number, string]
  | [number, string, number[]]
  | [number, string, number[], [number, string][]];

/** A division child lookup: `[categoryId, categoryText, parent record]`. */
export type ChildRecord = [number, string, EntryRecord];

/**
 * The results of a prefix with more matches than one search file may hold:
 * their total, where pages 2… live (the set's name: see resultPagesPath, and
 * `per` pages a file)
 * and page 1 inline.
 */
export type ResultSet = [total: number, name: string, per: number, page1: EntryRecord[]];

/**
 * A search file: the records of a key range in list order, and the large
 * prefixes located there, each naming its entry of `sets` (prefixes along a
 * chain often share one result set).
 */
export interface SearchChunk {
  records: EntryRecord[];
  large?: Record<string, number>;
  sets?: ResultSet[];
}

/** A file of consecutive result pages of one or more large prefixes. */
export interface SearchPages {
  pages: EntryRecord[][];
}

export interface ListInfo {
  total: number;
  /** Number of page files: ceil(total / pageSize), at least 1. */
  pages: number;
  /** Number of id bucket files. */
  buckets: number;
  /** division only: number of category bucket files. */
  childBuckets?: number;
  /** First keys of the search files, in order (docs/search-index.md). */
  search: string[];
}

/** lookup.json */
export interface Manifest {
  format: number;
  pageSize: number;
  systems: { id: string; text: string }[];
  lists: Record<PagedList, ListInfo> & { country: { total: number } };
}
