// The shapes that the builder writes and the client reads. Everything beyond
// the public envelopes of docs/contract.md §1 is compact arrays: these files are internal.

export const PAGED_LISTS = ['author', 'division', 'descriptor'] as const;
export type PagedList = (typeof PAGED_LISTS)[number];
export const COUNTED_LISTS = ['author', 'division'] as const;
export type CountedList = (typeof COUNTED_LISTS)[number];

export const FORMAT = 2;

/** `{id, text}` — the item of every select2 list. */
export interface Item {
  id: number;
  text: string;
}

export interface Envelope<T = unknown> {
  total: number;
  items: T[];
}

/** An item of a list asked for with `System`: how many items that system refers to. */
export interface CountedItem extends Item {
  count: number;
}

/** A division with its categories (under a Term, those the Term keeps). */
export interface DivisionItem extends Item {
  children: Item[];
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
 * their total, `per` pages to a page file, page 1 inline, and the names of
 * the page files holding pages 2… (see resultPagesPath), in order.
 */
export type ResultSet = [total: number, per: number, page1: EntryRecord[], files: string[]];

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
  /** What the list's internal paths are made of besides their keys (see layoutOf). */
  layout: string;
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

/** The body of every answer but 200. */
export interface ErrorBody {
  error: string;
}

/**
 * The body a path of the service answers with 200 (docs/contract.md §1.1),
 * read off a literal URL: `BodyOf<'/author.json?Term=smi'>` is an envelope
 * of items. An author or division asked for with `System` has a `count` as
 * well, which a URL's type cannot tell: it is optional here.
 */
export type BodyOf<Url extends string> =
  Url extends `${string}/author.json${string}` | `${string}/descriptor.json${string}` ? Envelope<Item & Partial<CountedItem>>
  : Url extends `${string}/division.json${string}` ? Envelope<DivisionItem & Partial<CountedItem>>
  : Url extends `${string}/country/${string}/state/${string}/county/${string}` ? County
  : Url extends `${string}/country/${string}/state/${string}/county.json${string}` ? Grid
  : Url extends `${string}/country/${string}/state.json${string}` | `${string}/country.json${string}` ? Envelope<Item>
  : Url extends `${string}/country/${string}` ? Item
  : unknown;

/** What `request(url)` answers: the body of the path on 200, `{error}` otherwise (a malformed parameter, an unknown id). */
export type AnswerTo<Url extends string> = { status: 200; body: BodyOf<Url> } | { status: 400 | 404; body: ErrorBody };
