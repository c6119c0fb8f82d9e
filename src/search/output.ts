// The text of a part's files (docs/search-index.md, Keys and files): a search
// file holds its records and the large prefixes located there, each pointing
// at a result set (`[total, pages a file, page 1, page files]`); a result
// set's pages 2… go to page files, named after their content, so they are
// rendered first. Records are those of docs/tree.md, Records.
import { createHash } from 'node:crypto';
import { nameOf } from '../client/paths.js';
import { NONE, textTier } from '../client/rank.js';
import { ReflistError } from '../errors.js';
import type { Records } from '../sources/record.js';
import type { Matcher } from './match.js';
import {
  childrenOf,
  keyOf,
  type IndexedList,
  type IndexPart,
  type LargePrefix,
  type ResultSet,
  type SearchFile,
} from './types.js';

export const NO_RESULTS = new Int32Array(0);

/** A result set as JSON, once its page files are rendered (pageFiles). */
const setText = (set: ResultSet): string => `${set.head}${JSON.stringify(set.names)}]`;

/** The bytes of setText, before the names are known: each is 16 hex digits. */
export const setBytes = (set: ResultSet): number =>
  Buffer.byteLength(set.head) + (set.files === 0 ? 2 : 19 * set.files + 1) + 1;

/** A large prefix's result set, which resultSets (or the words rule's wordSets) gives it before its part is cut. */
export function resultSetOf(l: LargePrefix): ResultSet {
  if (!l.set) throw new ReflistError('INTERNAL', `the search index's large prefix "${l.prefix}" has no result set yet`);
  return l.set;
}

/** The search file text of some records and the large prefixes located there. */
export function chunkText(records: Records, members: Int32Array, located: LargePrefix[]): string {
  let text = `{"records":[${Array.from(members, (e) => records.at(e)).join(',')}]`;
  if (located.length > 0) {
    const sets: string[] = [];
    const index = new Map<ResultSet, number>();
    const names = located.map((l) => {
      const set = resultSetOf(l);
      let at = index.get(set);
      if (at === undefined) index.set(set, (at = sets.push(setText(set)) - 1));
      return `${JSON.stringify(l.prefix)}:${at}`;
    });
    text += `,"large":{${names.join(',')}},"sets":[${sets.join(',')}]`;
  }
  return text + '}';
}

/** Entry e's record as a result of prefix: an entry with children keeps only those the prefix matches, as the client's toItem does. */
function recordFor({ entries, records, encode }: IndexedList, e: number, prefix: string): string {
  const entry = entries[e]!;
  const children = childrenOf(entry);
  const matches = (key: string) => textTier(key, prefix, false) !== NONE;
  if (!children || matches(keyOf(entry))) return records.at(e);
  return encode(
    e,
    children.filter((c) => matches(c.key)),
  );
}

/** A large prefix's result pages `from` to `to` (0 is page 1), as JSON arrays of records. */
export function pagesOf(list: IndexedList, l: LargePrefix, from = 0, to = Infinity): string[] {
  const pages: string[] = [];
  const { results, prefix } = l;
  const { pageSize, filtered, records } = list;
  for (let p = from * pageSize; p < Math.min(results.length, to * pageSize); p += pageSize) {
    const page = Array.from(results.subarray(p, p + pageSize), (e) =>
      filtered ? recordFor(list, e, prefix) : records.at(e),
    );
    pages.push(`[${page.join(',')}]`);
  }
  return pages;
}

/**
 * Result sets for a part's large prefixes, each linked from its prefix
 * (l.set): identical answers (a chain of one-child prefixes) are stored
 * once. An entry with children is stored with only the children a prefix keeps, which
 * is exact because the client filters them by the same query again.
 */
export function resultSets(m: Matcher, large: LargePrefix[]): ResultSet[] {
  const { list } = m;
  const { pageSize, pagesBytes, filtered } = list;
  const setOf = new Map<string, ResultSet>();
  for (const l of large) {
    // Without children a result's text depends only on its entries, so they
    // name it, and its pages are rendered once, when the files are written.
    const pages = filtered ? pagesOf(list, l) : undefined;
    const digest = createHash('sha1')
      .update(pages ? pages.join('\n') : new Uint8Array(l.results.buffer, l.results.byteOffset, l.results.byteLength))
      .digest('hex');
    let set = setOf.get(digest);
    if (!set) {
      const name = nameOf(l.prefix);
      let largest = 0;
      if (pages) for (const page of pages) largest = Math.max(largest, Buffer.byteLength(page));
      else {
        for (let p = 0; p < l.results.length; p += pageSize) {
          let bytes = 2;
          for (const e of l.results.subarray(p, p + pageSize)) bytes += m.recordBytes(e);
          largest = Math.max(largest, bytes);
        }
      }
      const per = Math.max(1, Math.floor(pagesBytes / largest));
      const page1 = pages?.[0] ?? pagesOf(list, { ...l, results: l.results.subarray(0, pageSize) })[0] ?? '[]';
      const files = Math.ceil((Math.ceil(l.results.length / pageSize) - 1) / per);
      set = { name, per, source: l, pages, head: `[${l.results.length},${per},${page1},`, files, names: [], stamp: -1 };
      setOf.set(digest, set);
    } else l.results = NO_RESULTS; // its set's source renders the pages: a long chain of prefixes keeps one copy
    l.set = set;
  }
  return [...setOf.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * The page files of some result sets: pages 2…, `per` to a file, each named
 * after its set and its text (an edit in a large result renames the page
 * files it changed, and only those). Their names go into set.names.
 */
function* pageFiles(list: IndexedList, sets: ResultSet[]): Generator<Extract<SearchFile, { kind: 'pages' }>> {
  for (const set of sets) {
    set.names = [];
    for (let f = 0; f < set.files; f++) {
      // A file's pages at a time: a long result's pages all at once would outlive the young generation.
      const [from, to] = [1 + f * set.per, 1 + (f + 1) * set.per];
      const pages = set.pages?.slice(from, to) ?? pagesOf(list, set.source, from, to);
      const text = `{"pages":[${pages.join(',')}]}`;
      const name = createHash('sha1').update(set.name).update('\n').update(text).digest('hex').slice(0, 16);
      set.names.push(name);
      yield { kind: 'pages', name, text };
    }
  }
}

/**
 * An IndexPart from its first keys, its result sets and its search files:
 * rendered when the writer asks, the page files first, so that the search
 * files can name them, and the part's meta records their names.
 */
export function makePart(
  list: IndexedList,
  name: string,
  starts: string[],
  sets: ResultSet[],
  searchFiles: () => Generator<SearchFile>,
): IndexPart {
  const meta = { name, starts, pages: [] as string[] };
  return {
    meta,
    *files() {
      for (const file of pageFiles(list, sets)) {
        meta.pages.push(file.name);
        yield file;
      }
      yield* searchFiles();
    },
  };
}
