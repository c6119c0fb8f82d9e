// The types the Term index's modules share (docs/search-index.md): the
// public ones, which index.ts exports, and those its parts hand on to
// one another. Kept here so that no module imports another for a type.
import type { Labelled } from '../sources/model.js';
import type { Records } from '../sources/record.js';
import type { IndexLayout, PartMeta } from '../plan/cache.js';

/** What a later build keeps of an index is the build cache's (plan/cache.ts). */
export type { IndexLayout, PartMeta };

export interface SearchIndexOptions {
  pageSize: number;
  /** A prefix is small when its matches' records take at most this many bytes (or fit one page). */
  leafBytes?: number;
  /** A search file is closed at the first allowed cut after it reaches this many bytes. */
  fileBytes?: number;
  /** Page files hold as many pages as fit in this many bytes. */
  pagesBytes?: number;
  /** A list with more search files is listed in two levels (see directory.ts). */
  directoryStarts?: number;
  /** Words rule: a large prefix whose matches' records take at most this many bytes is pooled (words.ts); else the record blocks answer it. */
  poolBytes?: number;
  /** Words rule: a pool file is closed at the first allowed cut after it reaches this many bytes. */
  poolFileBytes?: number;
  /** Words rule: a record block is closed at a content-defined entry after half this many bytes, and at this many. */
  blockBytes?: number;
  /** Words rule: the typo vocabulary's buckets hold about this many bytes. */
  vocabBytes?: number;
  /** Words rule: the pair pools of the words beyond a pool take at most this many bytes of records (half the list's records' own, unless told). */
  pairBytes?: number;
  /**
   * Words rule: a word beyond a pool that the pairs leave a letter without a
   * pool has a wide pool (all its matches in one file) when its matches'
   * records take at most this many bytes (two pools' unless told).
   */
  wideBytes?: number;
}

/**
 * What a list's Term matches besides its folded labels (docs/lists.md, Term
 * search), entry by entry in list order, folded: what the index's keys are
 * made of, and how a large prefix ranks them.
 */
export interface Searched {
  /** Each entry's folded search text, where the list declares one: it stands for the label (tiers 1 and 2). */
  texts?: string[];
  /** Each entry's folded values of the searched columns (tier 3). */
  columns?: string[][];
  /** Exact matches first (tier 0). */
  exact: boolean;
  /** The words rule (docs/lists.md, Term search): each word of a text is a key, not each word start to its end. */
  words?: boolean;
  /** The words rule with typos forgiven: the index has a typo vocabulary. */
  typos?: boolean;
  /**
   * A list under a parent: each entry's parent chain and `/`, which starts
   * each of its keys (`US/`), so that the parents of one list share one index.
   */
  scopes?: string[];
}

export interface IndexPart {
  meta: PartMeta;
  /** The search files, then the result page files, as JSON text. */
  files(): Generator<SearchFile>;
}

export interface SearchIndex {
  layout: IndexLayout;
  /** Every part, in key order: their starts, concatenated, are the list's search starts. */
  metas: PartMeta[];
  /** The parts indexed by this build (all of them, or the ones an edit touched). */
  fresh: IndexPart[];
  /** The words rule's files of the whole list: record blocks and the typo vocabulary's buckets, each made as it is read. */
  whole?: Iterable<SearchFile>;
  /** The words rule: how many buckets the typo vocabulary has (0: no typos). */
  vocab?: number;
}

export type SearchFile =
  | { kind: 'search'; start: string; text: string }
  | { kind: 'pages'; name: string; text: string }
  | { kind: 'pool' | 'skip' | 'block'; name: string; text: string }
  | { kind: 'vocab'; bucket: number; buckets: number; text: string };

/**
 * What the index reads of an entry: its folded label, and its children in a
 * list that has them. A list without children hands it its labels alone, as
 * strings (an object each was 32 bytes an entry more), and lets go of the
 * rest of its entries before the index is built.
 */
export type IndexEntry = string | { key: string; children?: Labelled[] };

/** An entry's folded label. */
export const keyOf = (entry: IndexEntry): string => (typeof entry === 'string' ? entry : entry.key);

/** An entry's children, in a list that has them. */
export const childrenOf = (entry: IndexEntry): Labelled[] | undefined =>
  typeof entry === 'string' ? undefined : entry.children;

/** Encodes entry e's record with only these of its children. */
export type Encode = (e: number, children: Labelled[]) => string;

/** One list being indexed, and the sizes its files are cut to (SearchIndexOptions, defaults filled in). */
export interface IndexedList {
  /** In list order. */
  entries: readonly IndexEntry[];
  /** Each entry's record, as JSON. */
  records: Records;
  /** Entry e's record with only some of its children (a list with children only). */
  encode: Encode;
  pageSize: number;
  leafBytes: number;
  fileBytes: number;
  pagesBytes: number;
  poolBytes: number;
  poolFileBytes: number;
  wideBytes: number;
  /** Some entry has children: a large prefix's records keep only the children it matches. */
  filtered: boolean;
  searched: Searched;
  /** Whether a prefix can be a query, so that its results are worth storing (a list under a parent: see index.ts). */
  reachable: ((prefix: string) => boolean) | undefined;
}

export interface ResultSet {
  /** nameOf(the first prefix it answers): what its page files' names are salted with, unique in the list. */
  name: string;
  /** Pages a page file holds. */
  per: number;
  source: LargePrefix;
  /** Rendered pages, kept only for divisions (whose text depends on the prefix). */
  pages: string[] | undefined;
  /** `[total,per,page1,` as JSON: its text up to the names of its page files. */
  head: string;
  /** How many page files it has, known before they are rendered so that the cuts can count its bytes. */
  files: number;
  /** Its page files' names, in order, once pageFiles has rendered them. */
  names: string[];
  /** The search file being cut that already counts this set's bytes. */
  stamp: number;
}

export interface LargePrefix {
  prefix: string;
  /** Words rule: the pool file of its large keys (null: none, all its keys are in search files), or its skip file. */
  pool?: string | null;
  skip?: string;
  /** Words rule, a skipped word: its matches by the first letter of their other words (planPairs), and their pool files' names. */
  pairs?: Map<string, Int32Array>;
  pairNames?: Record<string, string>;
  /**
   * Words rule, a skipped word: for a first letter whose pair is more than a
   * pool holds, the answer's page 1 and total for the Term of the word and
   * that letter (planPairs), and their files' names.
   */
  pairHeads?: Map<string, { total: number; page: Int32Array }>;
  pairHeadNames?: Record<string, string>;
  /** Words rule, a skipped word within wideBytes: all its matches, in list order (planPairs), and their file's name. */
  wide?: Int32Array;
  wideName?: string;
  /** Position of its first key. */
  lo: number;
  /** Entry indexes in result order. */
  results: Int32Array;
  set?: ResultSet;
}

/**
 * A list's sorted (key, entry) pairs: pair i's key is distinct[keyIndex[i]]
 * (keyAt), owners[i] its entry and at[i] where the key starts in it (rank.ts's
 * KeyAt: the tier a query gives it is keyTier's). A number into the distinct
 * keys, not a string a pair: 4 bytes, where the pointer was 8 in the heap.
 */
export interface Pairs {
  /** Every key once, sorted. */
  distinct: string[];
  keyIndex: Int32Array;
  owners: Int32Array;
  at: Uint8Array;
}

/** Pair i's key. */
export const keyAt = ({ distinct, keyIndex }: Pairs, i: number): string => distinct[keyIndex[i]!]!;
