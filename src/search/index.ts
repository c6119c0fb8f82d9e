// Stage 4b, the Term index of one paged list, pure: docs/search-index.md
// lays it out; what a Term matches is docs/contract.md §2.
//
// Keys are the word-start suffixes of every folded label (and of the fields a
// list also searches), sorted. A prefix whose matches fit in one file
// ("small") is answered by filtering the records of the search file holding
// its key range; files are cut only between keys
// whose common prefix is large, so a small prefix never straddles two files.
// Every large prefix gets its full result pages: page 1 inline in the search
// file the client looks in, pages 2… in page files.
//
// The keys are split into partitions that are indexed independently: by their
// first two code units when their first one is a large prefix (whose own
// results then sit alone in a "head" part), by their first unit otherwise.
// An edit touches the few partitions its keys fall in, so a rebuild indexes
// those again and keeps every other part's files (updateSearchIndex).
//
// This module is the index's API and the partitioning; the rest is in
// keys.ts (the sorted pairs), match.ts (matching and ranking over them),
// parts.ts (a part's large prefixes and cuts), output.ts (the files' text)
// and types.ts.
import type { Entry } from '../sources/model.js';
import { collectPairs, LABELS, runEnd, suffixesOf } from './keys.js';
import { Matcher } from './match.js';
export { directoryOf, DIRECTORY_STARTS, type Directory } from './directory.js';
import { headPart, indexPart } from './parts.js';
import type { IndexLayout, IndexPart, PartMeta, Searched, SearchIndex, SearchIndexOptions } from './types.js';

export type {
  IndexLayout,
  IndexPart,
  PartMeta,
  Searched,
  SearchFile,
  SearchIndex,
  SearchIndexOptions,
} from './types.js';
export { LABELS };

/** The part a key belongs to. */
export function partOf(key: string, layout: IndexLayout, heads: ReadonlySet<string>): string {
  if (!layout.rootLarge) return '';
  return heads.has(key[0]!) ? key.slice(0, 2) : key[0]!;
}

/**
 * Whether a prefix of a list under a parent can be a query: a parent chain
 * of `depth` ids (none holds a `/`), a `/`, then a folded Term, which never
 * ends in a space. The keys' other prefixes are walked for the cuts, but no
 * result set is stored for them.
 */
function reachableUnder(depth: number): (prefix: string) => boolean {
  return (prefix) => {
    const last = prefix.charCodeAt(prefix.length - 1);
    return slashesIn(prefix) === depth && last !== 47 && last !== 32; // neither `/` nor a space
  };
}

function slashesIn(s: string): number {
  let n = 0;
  for (let i = s.indexOf('/'); i >= 0; i = s.indexOf('/', i + 1)) n++;
  return n;
}

/** A list's Matcher, the sizes' defaults filled in. */
function matcherFor(
  entries: Entry[],
  records: string[],
  encode: (e: Entry) => string,
  options: SearchIndexOptions,
  searched: Searched,
): Matcher {
  const { pageSize, leafBytes = 18000, fileBytes = 16000, pagesBytes = 64000 } = options;
  // Every scope of one list is a chain of as many ids, and a `/`.
  const scope = searched.scopes?.[0];
  const reachable = scope === undefined ? undefined : reachableUnder(slashesIn(scope));
  return new Matcher({
    entries,
    records,
    encode,
    pageSize,
    leafBytes,
    fileBytes,
    pagesBytes,
    filtered: entries.some((e) => e.children),
    searched,
    reachable,
  });
}

/**
 * The index of a list's entries (in list order), given their encoded records
 * and the encoder, which also encodes an entry with only some of its children.
 */
export function buildSearchIndex(
  entries: Entry[],
  records: string[],
  encode: (e: Entry) => string,
  options: SearchIndexOptions,
  searched: Searched = LABELS,
): SearchIndex {
  const m = matcherFor(entries, records, encode, options, searched);
  const pairs = collectPairs(entries, undefined, searched);
  const { keys } = pairs;
  const n = keys.length;
  const rootLarge = m.largeMatches(pairs, 0, n, 0) !== undefined;
  const layout: IndexLayout = { rootLarge, heads: [] };
  const fresh: IndexPart[] = [];
  if (!rootLarge) {
    if (n === 0)
      fresh.push({
        meta: { name: '', starts: [''], pages: [] },
        *files() {
          yield { kind: 'search', start: '', text: '{"records":[]}' };
        },
      });
    else fresh.push(indexPart(m, pairs, '', 0, n));
  }
  for (let lo = 0; rootLarge && lo < n; ) {
    const hi = runEnd(pairs, lo, n, 1);
    const c = keys[lo]![0]!;
    const matches = m.largeMatches(pairs, lo, hi, 1);
    if (!matches) fresh.push(indexPart(m, pairs, c, lo, hi));
    else {
      layout.heads.push(c);
      fresh.push(headPart(m, c, m.rankLast(matches)));
      // Keys that are c itself belong to the head, and are large: no search file holds them.
      let i = lo;
      while (i < hi && keys[i]!.length === 1) i++;
      while (i < hi) {
        const j = runEnd(pairs, i, hi, 2);
        fresh.push(indexPart(m, pairs, keys[i]!.slice(0, 2), i, j));
        i = j;
      }
    }
    lo = hi;
  }
  return { layout, metas: fresh.map((p) => p.meta), fresh };
}

/**
 * The index after an edit, indexing again only the parts that `touched`
 * (the folded labels of every changed entry, before and after) fall in, or
 * undefined when the edit changes the layout (a one-unit prefix turns large
 * or small) and the whole index must be built. Lists that search their
 * labels alone, without children or exact matches, only.
 */
export function updateSearchIndex(
  entries: Entry[],
  records: string[],
  encode: (e: Entry) => string,
  options: SearchIndexOptions,
  previous: { layout: IndexLayout; metas: PartMeta[] },
  touched: string[],
): SearchIndex | undefined {
  const { layout } = previous;
  if (!layout.rootLarge || entries.some((e) => e.children)) return undefined;
  const m = matcherFor(entries, records, encode, options, LABELS);
  if (!m.rootIsLarge()) return undefined;
  const heads = new Set(layout.heads);
  const names = new Set<string>();
  const units = new Set<string>();
  for (const key of touched) {
    for (const suffix of suffixesOf(key)) names.add(partOf(suffix, layout, heads)), units.add(suffix[0]!);
  }
  const fresh: IndexPart[] = [];
  for (const [c, { small, results }] of m.scanHeads([...units].sort())) {
    if (small === heads.has(c)) return undefined;
    if (!small) fresh.push(headPart(m, c, results));
  }
  // Only the suffixes of the touched parts: the part is read off the suffix's first two units, without slicing it.
  const wanted = new Set(
    [...names].map((name) => name.charCodeAt(0) * 65536 + (name.length > 1 ? name.charCodeAt(1) + 1 : 0)),
  );
  const firsts = new Set([...names].map((name) => name.charCodeAt(0)));
  const headUnits = new Set(layout.heads.map((c) => c.charCodeAt(0)));
  const pairs = collectPairs(entries, (label, start) => {
    const c = label.charCodeAt(start);
    if (!firsts.has(c)) return false;
    const second = headUnits.has(c) && start + 1 < label.length ? label.charCodeAt(start + 1) + 1 : 0;
    return wanted.has(c * 65536 + second);
  });
  const { keys } = pairs;
  for (let lo = 0; lo < keys.length; ) {
    const name = partOf(keys[lo]!, layout, heads);
    let hi = lo + 1;
    while (hi < keys.length && partOf(keys[hi]!, layout, heads) === name) hi++;
    if (!heads.has(name)) fresh.push(indexPart(m, pairs, name, lo, hi));
    lo = hi;
  }
  const kept = previous.metas.filter(
    (meta) => !names.has(meta.name) && !(units.has(meta.name) && heads.has(meta.name)),
  );
  const metas = [...kept, ...fresh.map((p) => p.meta)].sort((a, b) => (a.name < b.name ? -1 : 1));
  // A search file's name holds its neighbours' first keys (searchPath), and a
  // part's first key is its name: a part that comes or goes renames the files
  // beside it in parts that were kept, so the whole index is built.
  if (metas.length !== previous.metas.length || metas.some((meta, i) => meta.name !== previous.metas[i]!.name))
    return undefined;
  return { layout, metas, fresh };
}
