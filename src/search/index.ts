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
// The keys are split into parts that are indexed independently. A large
// one-unit prefix (a "head") has its own results alone in a head part; the
// keys below it are in runs by their first two units, and the keys of other
// first units in runs by that unit. Runs go in spans of consecutive runs,
// each one part: a run starts a span when its keys are heavy or its prefix's
// hash says so (startsSpan), so the many tiny runs of a real list share
// files, and whether a run starts a span depends on that run alone. An edit touches the few
// parts its keys fall in, so a rebuild indexes those again and keeps every
// other part's files (updateSearchIndex).
//
// This module is the index's API and the partitioning; the rest is in
// keys.ts (the sorted pairs), match.ts (matching and ranking over them),
// parts.ts (a part's large prefixes and cuts), output.ts (the files' text)
// and types.ts.
import { heldRecords, type Records } from '../sources/record.js';
import { FNV_BASIS, fnv1a } from '../client/paths.js';
import { collectPairs, groupOf, LABELS, runEnd, suffixesOf, textsOf } from './keys.js';
import { Matcher } from './match.js';
export { directoryOf, DIRECTORY_STARTS, type Directory } from './directory.js';
import { headPart, indexPart } from './parts.js';
import { blockFiles, planPairs, recordBlocks } from './blocks.js';
import { vocabularyFiles, wordHeadPart, wordPart } from './words.js';
import { sharer } from '../shared.js';
import { childrenOf, keyAt, keyOf } from './types.js';
import type {
  Encode,
  IndexEntry,
  IndexLayout,
  IndexPart,
  Pairs,
  PartMeta,
  Searched,
  SearchIndex,
  SearchIndexOptions,
} from './types.js';

export type {
  Encode,
  IndexEntry,
  IndexLayout,
  IndexPart,
  PartMeta,
  Searched,
  SearchFile,
  SearchIndex,
  SearchIndexOptions,
} from './types.js';
export { LABELS };

/** One run in this many starts a span on its prefix's hash alone (see startsSpan). */
const SPAN_EVERY = 8;

/**
 * Whether the run of pairs [lo, hi) starts a span of its own: when its keys
 * take more bytes than a small prefix may (so that an edit in a tiny run
 * never indexes a heavy one again), or on its prefix's hash. Both depend on
 * the run alone, so an edit can tell whether it moves a span's bounds.
 */
function startsSpan(m: Matcher, pairs: Pairs, lo: number, hi: number, depth: number): boolean {
  if (fnv1a(keyAt(pairs, lo), FNV_BASIS, depth) % SPAN_EVERY === 0) return true;
  const { owners } = pairs;
  let bytes = 0;
  for (let i = lo; i < hi && bytes <= m.list.leafBytes; i++) bytes += m.recordBytes(owners[i]!);
  return bytes > m.list.leafBytes;
}

/** The parts of pairs [lo, hi), runs `depth` units long under a large prefix: each span's bounds. */
function spans(m: Matcher, pairs: Pairs, lo: number, hi: number, depth: number): [number, number][] {
  const found: [number, number][] = [];
  for (let i = lo; i < hi; ) {
    const j = runEnd(pairs, i, hi, depth);
    const last = found.at(-1);
    if (!last || startsSpan(m, pairs, i, j, depth)) found.push([i, j]);
    else last[1] = j;
    i = j;
  }
  return found;
}

/** Each entry's first letters (code points) of the words of its texts: what the words rule's pair pools are cut by. */
function firstLetters(entries: readonly IndexEntry[], searched: Searched): string[] {
  // One string for each set of letters: most entries' sets are another's (a string each was 24 MB a million).
  const shared = sharer<string>();
  return entries.map((entry, e) => {
    const letters = new Set<string>();
    textsOf(entry, e, searched, (text) => {
      for (const word of text.split(' ')) {
        const [first] = word; // its first code point
        if (first !== undefined) letters.add(first);
      }
    });
    const joined = [...letters].join('');
    return shared(joined, joined);
  });
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

/** The bytes of a list's records, each with the comma (or bracket) after it. */
function recordsBytes(records: Records): number {
  let sum = 0;
  for (let e = 0; e < records.length; e++) sum += records.bytes(e) + 1;
  return sum;
}

/** A list's Matcher, the sizes' defaults filled in. */
function matcherFor(
  entries: readonly IndexEntry[],
  records: Records,
  encode: Encode,
  options: SearchIndexOptions,
  searched: Searched,
): Matcher {
  const {
    pageSize,
    leafBytes = 18000,
    fileBytes = 16000,
    pagesBytes = 256000,
    poolBytes = 440000,
    poolFileBytes = 64000,
    wideBytes = 2 * poolBytes,
  } = options;
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
    poolBytes,
    poolFileBytes,
    wideBytes,
    filtered: entries.some((e) => childrenOf(e)),
    searched,
    reachable,
  });
}

/**
 * The index of a list's entries (in list order), given their encoded records
 * and the encoder, which also encodes an entry with only some of its children.
 */
export function buildSearchIndex(
  entries: readonly IndexEntry[],
  records: Records,
  encode: Encode,
  options: SearchIndexOptions,
  searched: Searched = LABELS,
): SearchIndex {
  const m = matcherFor(entries, records, encode, options, searched);
  const pairs = collectPairs(entries, undefined, searched);
  const key = (i: number) => keyAt(pairs, i);
  const n = pairs.keyIndex.length;
  const rootLarge = m.largeMatches(pairs, 0, n, 0) !== undefined;
  const layout: IndexLayout = { rootLarge, heads: [] };
  const fresh: IndexPart[] = [];
  // The words rule's record blocks, which its large prefixes beyond a pool (every head's) are answered from.
  const blocks = searched.words
    ? recordBlocks(rootLarge ? records : heldRecords([]), options.blockBytes ?? 128000)
    : undefined;
  const indexOf = (name: string, lo: number, hi: number) =>
    blocks ? wordPart(m, pairs, name, lo, hi, blocks) : indexPart(m, pairs, name, lo, hi);
  if (!rootLarge) {
    if (n === 0)
      fresh.push({
        meta: { name: '', starts: [''], pages: [] },
        *files() {
          yield { kind: 'search', start: '', text: '{"records":[]}' };
        },
      });
    else fresh.push(indexOf('', 0, n));
  }
  const part = ([lo, hi]: [number, number], depth: number) => fresh.push(indexOf(key(lo).slice(0, depth), lo, hi));
  // The first units that are no head, from `from` (after the last head) on, in spans.
  let from = 0;
  const others = (to: number) => {
    for (const span of spans(m, pairs, from, to, 1)) part(span, 1);
  };
  for (let lo = 0, hi = 0; rootLarge && lo < n; lo = hi) {
    hi = runEnd(pairs, lo, n, 1);
    const matches = m.largeMatches(pairs, lo, hi, 1);
    if (!matches) continue;
    // Ranked first: rankLast reads the tiers of the last pass, and indexing the spans before the head makes more.
    const results = m.rankLast(matches);
    const tiers = blocks && m.tiersOf(results);
    others(lo);
    const c = key(lo)[0]!;
    layout.heads.push(c);
    fresh.push(blocks ? wordHeadPart(m, c, results, tiers!, blocks) : headPart(m, c, results));
    // Keys that are c itself belong to the head, and are large: no search file holds them.
    let i = lo;
    while (i < hi && key(i).length === 1) i++;
    for (const span of spans(m, pairs, i, hi, 2)) part(span, 2);
    from = hi;
  }
  if (rootLarge) others(n);
  const index: SearchIndex = { layout, metas: fresh.map((p) => p.meta), fresh };
  if (!blocks) return index;
  if (blocks.skipped.length > 0) {
    // Half the list's records' bytes unless told: a short text's common words all, a long text's rarest.
    const budget = options.pairBytes ?? recordsBytes(records) / 2;
    // A pair head's records are whole: an entry with children would keep only those the Term matches.
    const texts = m.list.filtered
      ? undefined
      : (e: number) => ({
          text: searched.texts?.[e] ?? keyOf(entries[e]!),
          children: [],
          columns: searched.columns?.[e] ?? [],
        });
    planPairs(m, blocks.skipped, pairs.distinct, firstLetters(entries, searched), budget, texts);
  }
  // Every head is answered from the blocks; without one, no prefix is large enough to be.
  const vocab = searched.typos
    ? vocabularyFiles(pairs.distinct, options.vocabBytes ?? 32000)
    : { buckets: 0, files: [] };
  const whole = function* () {
    if (layout.heads.length > 0) yield* blockFiles(records, blocks);
    yield* vocab.files;
  };
  return { ...index, whole: whole(), vocab: vocab.buckets };
}

/**
 * The index after an edit, indexing again only the parts that `touched`
 * (the folded labels of every changed entry, before and after) fall in, or
 * undefined when the edit changes the layout (a one-unit prefix turns large
 * or small, a span's bounds move) and the whole index must be built. Lists
 * that search their labels alone, without children or exact matches, only.
 */
export function updateSearchIndex(
  entries: readonly IndexEntry[],
  records: Records,
  encode: Encode,
  options: SearchIndexOptions,
  previous: { layout: IndexLayout; metas: PartMeta[] },
  touched: string[],
): SearchIndex | undefined {
  const { layout } = previous;
  if (!layout.rootLarge || entries.some((e) => childrenOf(e))) return undefined;
  const m = matcherFor(entries, records, encode, options, LABELS);
  if (!m.rootIsLarge()) return undefined;
  const heads = new Set(layout.heads);
  const names = previous.metas.map((meta) => meta.name);
  // The part of a key is the last one named at most the key: its first two units decide.
  const partAt = (key: string): number => {
    let [lo, hi] = [0, names.length];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (names[mid]! <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  };
  const isHead = (name: string) => name.length === 1 && heads.has(name);
  const wanted = new Set<number>();
  const units = new Set<string>();
  for (const key of touched) {
    for (const suffix of suffixesOf(key)) {
      const p = partAt(suffix);
      const name = names[p];
      // A key before every part, below a head but in no span of the head's, or in a span of another first unit's: the layout changes.
      if (name === undefined) return undefined;
      if (isHead(name) ? suffix.length > 1 : (heads.has(name[0]!) || name.length === 2) && name[0] !== suffix[0])
        return undefined;
      wanted.add(p);
      units.add(suffix[0]!);
    }
  }
  const fresh: IndexPart[] = [];
  for (const [c, { small, results }] of m.scanHeads([...units].sort())) {
    if (small === heads.has(c)) return undefined;
    if (!small) fresh.push(headPart(m, c, results));
  }
  // Only the suffixes in the touched parts, by their first two units (memoized: this runs for every word of every label).
  const partOfUnits = new Map<number, number>();
  const pairs = collectPairs(entries, (label, start) => {
    const code = groupOf(label, start);
    let p = partOfUnits.get(code);
    if (p === undefined) partOfUnits.set(code, (p = partAt(label.slice(start, start + 2))));
    return wanted.has(p);
  });
  const key = (i: number) => keyAt(pairs, i);
  const n = pairs.keyIndex.length;
  for (let lo = 0; lo < n; ) {
    const p = partAt(key(lo));
    const name = names[p]!;
    let hi = lo + 1;
    while (hi < n && partAt(key(hi)) === p) hi++;
    if (!isHead(name)) {
      // The span still starts with its first run, which still starts a span (or opens the
      // runs after a head, or all), and none of its other runs starts one: spans() would cut it the same.
      const depth = name.length;
      const before = names[p - 1];
      const opens = before === undefined || isHead(before) || (depth === 1 && before.length === 2);
      const firstRun = runEnd(pairs, lo, hi, depth);
      if (
        !key(lo).startsWith(name) ||
        spans(m, pairs, lo, hi, depth).length > 1 ||
        (!opens && !startsSpan(m, pairs, lo, firstRun, depth))
      )
        return undefined;
      fresh.push(indexPart(m, pairs, name, lo, hi));
    }
    lo = hi;
  }
  const kept = previous.metas.filter((meta, p) => !wanted.has(p) && !(units.has(meta.name) && heads.has(meta.name)));
  const metas = [...kept, ...fresh.map((p) => p.meta)].sort((a, b) => (a.name < b.name ? -1 : 1));
  // A search file's name holds its neighbours' first keys (searchPath), and a
  // part's first key is its name: a part that comes or goes renames the files
  // beside it in parts that were kept, so the whole index is built.
  if (metas.length !== previous.metas.length || metas.some((meta, i) => meta.name !== names[i])) return undefined;
  return { layout, metas, fresh };
}
