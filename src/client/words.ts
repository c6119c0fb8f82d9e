// Term by the words rule (docs/lists.md, Term search) over a paged list's
// index (docs/search-index.md, The words rule): which files hold the records
// a Term may match, read as few as the cache allows, and the answer ranked by
// rank.ts, or, when nothing matches as typed, by the fewest typos (typos.ts).
//
// A one-word Term reads its search file: a small prefix's records are there,
// a large one's page 1 too. Any other answer is made here from candidates:
// the records of one word's matches (a small word's search file, a pooled
// word's pool and search files, a common word's pair pool or wide pool, or,
// when none has one, the record blocks all of them have matches in),
// filtered and ranked.
import { compareInOrder, fold } from './fold.js';
import { blockPath, poolPath, skipPath, vocabBucket, vocabPath } from './paths.js';
import { COLUMN, EXACT, NONE, rankTexts, START, WORD, wordsOf, type FoldedTexts, type Tier } from './rank.js';
import { textOf } from './search.js';
import { itemTypos, mayHaveTypos, typoAllowance, typoCost } from './typos.js';
import type { ApiList, EntryRecord, Id } from './types.js';
import {
  addChunk,
  blocks,
  own,
  pageOwn,
  pooled,
  poolPaths,
  routed,
  searchFileCached,
  searchFileOf,
  setOf,
  skipOf,
  sourced,
  stateOf,
  type Block,
  type Candidates,
  type Read,
  type Skip,
  type Skipped,
  type WordIndex,
  type WordState,
} from './word-files.js';

/** A record the answer keeps, and the children it keeps (undefined: as toItem keeps them). */
export interface Kept {
  record: EntryRecord;
  children?: readonly number[];
}

/** Records (of several files) in the list's order, which the client reckons as the builder sorts by it. */
function inListOrder(candidates: Candidates, list: ApiList): EntryRecord[] {
  const compare = compareInOrder<{
    key: string;
    text: string;
    id: Id;
    fields?: readonly unknown[];
    record: EntryRecord;
  }>(list.order);
  return [...candidates.values()]
    .map((record) => ({ key: fold(record[1]), text: record[1], id: record[0], fields: record[4], record }))
    .sort(compare)
    .map((r) => r.record);
}

/**
 * The records that may match every word of `words` (each a prefix of no
 * other): one word's, read as cheaply as the cache allows; when every word
 * matches more than a pool holds, the wide pool of one of them or the blocks
 * all of them have matches in (neither with `scan` false: undefined instead,
 * a typo's candidates are found otherwise).
 */
async function candidatesOf(
  read: Read,
  ix: WordIndex,
  words: readonly string[],
  scan = true,
): Promise<Candidates | undefined> {
  const scope = ix.chain === undefined ? '' : `${ix.chain}/`;
  const states = new Map<string, WordState>();
  const cost = (s: WordState) =>
    s.kind === 'small' ? 0 : s.kind === 'pooled' ? s.paths.filter((p) => !read.has?.(p)).length : Infinity;
  const best = (): WordState | undefined => {
    let found: WordState | undefined;
    for (const [w, state] of states) {
      const s = state.kind === 'skipped' ? (paired(w, state) ?? wide(state)) : state;
      if (!s) continue;
      if (!found || cost(s) < cost(found) || (cost(s) === cost(found) && total(s) < total(found))) found = s;
    }
    return found;
  };
  // A word beyond a pool with a pair pool for another word's first letter: the matches of both are there.
  const paired = (w: string, s: Skipped): WordState | undefined => {
    const other = words.find(
      (v) => v !== w && s.pairs && Object.hasOwn(s.pairs, String.fromCodePoint(v.codePointAt(0)!)),
    );
    if (other === undefined) return undefined;
    const pool = s.pairs![String.fromCodePoint(other.codePointAt(0)!)]!;
    return { kind: 'pooled', total: s.total, paths: [poolPath(ix.folder, pool)] };
  };
  // A word beyond a pool without a pair for the others: its wide pool, all its matches in one file. Not
  // for a typo's candidates (`scan` false), which its words' vocabulary finds in fewer bytes.
  const wide = (s: Skipped): WordState | undefined =>
    s.wide === undefined || !scan
      ? undefined
      : { kind: 'pooled', total: s.total, paths: [poolPath(ix.folder, s.wide)] };
  // Words whose search file is read already first, then the longest (the rarest, as a rule) one at a time.
  const order = [...words].sort((a, b) => b.length - a.length);
  for (const w of order.filter((w) => searchFileCached(read, ix, scope + w)))
    states.set(w, await stateOf(read, ix, scope + w));
  for (const w of order) {
    const found = best();
    if (found && cost(found) <= 1) break;
    if (!states.has(w)) states.set(w, await stateOf(read, ix, scope + w));
  }
  const found = best();
  if (found) return sourced(read, ix, [found]);
  if (!scan) return undefined;
  // Every word matches more than a pool holds, none has a pair nor a wide pool: the blocks each has matches in.
  const skips = await Promise.all(
    [...states.values()].map((s) => routed<Skip>(read, skipPath(ix.folder, (s as Skipped).skip))),
  );
  const sets = skips.map((s) => new Set(s.blocks.map((b) => b[0])));
  return blocks(
    read,
    ix,
    skips[0]!.blocks.map((b) => b[0]).filter((name) => sets.every((s) => s.has(name))),
  );
}

const total = (s: WordState): number => (s.kind === 'small' ? 0 : s.total);

/** A record's texts as rank.ts takes them, folded. */
function textsOf(record: EntryRecord, list: ApiList): FoldedTexts {
  const fields = record[4];
  const field = (i: number) => fields![i];
  return {
    text: fold(textOf(list, record[1], field)),
    children: (record[3] ?? []).map((c) => fold(c[1])),
    columns: (list.search ?? []).map((i) => fold(String(field(i) ?? ''))),
  };
}

/** Candidates (in list order) that match q as typed, best tier first. */
function ranked(candidates: Candidates, q: string, list: ApiList): Kept[] {
  const byTier: Kept[][] = Array.from({ length: NONE }, () => []);
  for (const record of inListOrder(candidates, list)) {
    const { tier, children } = rankTexts(textsOf(record, list), q, list.exact === true, true);
    if (tier !== NONE) byTier[tier]!.push({ record, ...(children ? { children } : {}) });
  }
  return byTier.flat();
}

/** Candidates (in list order) that match q with the fewest typos, and how many. */
function fewestTypos(candidates: Candidates, q: string, list: ApiList): Kept[] {
  let fewest = Infinity;
  let kept: Kept[] = [];
  for (const record of inListOrder(candidates, list)) {
    const f = textsOf(record, list);
    const { typos, own, children } = itemTypos(f, q);
    if (typos === Infinity || typos > fewest) continue;
    if (typos < fewest) {
      fewest = typos;
      kept = [];
    }
    kept.push({
      record,
      ...(record[3] ? { children: children.flatMap((c, i) => (own === typos || c === typos ? [i] : [])) } : {}),
    });
  }
  return kept;
}

/**
 * The records a Term's typos may reach: those of its words that may have no
 * typo (their matches as typed), else of the words the typo vocabulary says
 * its longest word may mean.
 */
async function typoCandidates(read: Read, ix: WordIndex, words: readonly string[]): Promise<Candidates> {
  const exact = words.filter((w) => typoAllowance(w) === 0);
  const found = exact.length > 0 ? await candidatesOf(read, ix, maximal(exact), false) : undefined;
  if (found) return found;
  const t = [...words].filter((w) => typoAllowance(w) > 0).sort((a, b) => b.length - a.length)[0]!;
  const buckets = ix.info.vocab!;
  const vocab = await routed<{ words: string[] }>(
    read,
    vocabPath(ix.folder, ix.info.layout, buckets, vocabBucket(t, buckets)),
  );
  const allowance = typoAllowance(t);
  // The shortest of the words it may mean: a longer one starting with it has its matches already.
  const meant = maximal(
    vocab.words.filter((w) => typoCost(t, w, allowance) <= allowance),
    true,
  );
  const scope = ix.chain === undefined ? '' : `${ix.chain}/`;
  const states: WordState[] = [];
  // One at a time: words of one search file read it once.
  for (const w of meant) states.push(await stateOf(read, ix, scope + w));
  const into = await sourced(read, ix, states);
  for (const s of states) {
    if (s.kind !== 'skipped') continue;
    for (const [id, record] of (await candidatesOf(read, ix, [meant[states.indexOf(s)]!]))!) into.set(id, record);
  }
  return into;
}

/** Words no other starts with (the longest of each chain), or with `shortest`, those that start with no other. */
function maximal(words: readonly string[], shortest = false): string[] {
  const unique = [...new Set(words)];
  return unique.filter((w) => !unique.some((o) => o !== w && (shortest ? w.startsWith(o) : o.startsWith(w))));
}

/**
 * A later page of a one-word Term that matches more than a pool holds: its
 * skip file says how many matches of each tier each record block holds, so
 * the page's items are the matches of the blocks it falls in, tier by tier.
 */
async function skippedPage(read: Read, ix: WordIndex, skip: string, q: string, page: number): Promise<Kept[]> {
  const { blocks: rows } = await routed<Skip>(read, skipPath(ix.folder, skip));
  const [first, last] = [(page - 1) * ix.pageSize, page * ix.pageSize];
  // The answer is tier 0, 1, 2 and 4 in turn, each block by block: where each block's matches of a tier start in it.
  const tiers: Tier[] = [EXACT, START, WORD, COLUMN];
  const startOf = tiers.map(() => new Array<number>(rows.length));
  const wanted: number[] = [];
  let rank = 0;
  for (const t of tiers.keys()) {
    for (const [b, row] of rows.entries()) {
      const n = row[t + 1] as number;
      startOf[t]![b] = rank;
      if (n > 0 && rank < last && rank + n > first && !wanted.includes(b)) wanted.push(b);
      rank += n;
    }
  }
  const kept: Kept[] = [];
  const read1 = (b: number) => routed<Block<unknown>>(read, blockPath(ix.folder, rows[b]![0]));
  const got = await Promise.all(wanted.map(read1));
  for (const [k, b] of wanted.entries()) {
    const into: Candidates = new Map();
    const block = got[k]!;
    own(ix, block.records, into);
    const seen = tiers.map(() => 0);
    for (const record of into.values()) {
      const { tier, children } = rankTexts(textsOf(record, ix.list), q, ix.list.exact === true, true);
      const t = tiers.indexOf(tier);
      if (t < 0) continue;
      const at = startOf[t]![b]! + seen[t]!++;
      if (at >= first && at < last) kept[at - first] = { record, ...(children ? { children } : {}) };
    }
  }
  return kept.filter((k) => k !== undefined);
}

/**
 * Page 1 of a Term of a word beyond a pool and a letter, when the matches
 * they share are more than a pool holds too: the word's pair head for the
 * letter, one file, where the blocks both have matches in were the whole
 * list (docs/search-index.md, Common words).
 */
async function pairHead(
  read: Read,
  ix: WordIndex,
  q: string,
  words: readonly string[],
): Promise<{ total: number; kept: Kept[] } | undefined> {
  const [w, x] = words;
  if (words.length !== 2 || [...x!].length !== 1 || q !== `${w} ${x}`) return undefined;
  const state = await stateOf(read, ix, `${ix.chain === undefined ? '' : `${ix.chain}/`}${w}`);
  if (state.kind !== 'skipped' || !state.heads || !Object.hasOwn(state.heads, x!)) return undefined;
  const head = await routed<{ total: number; records: unknown[] }>(read, poolPath(ix.folder, state.heads[x!]!));
  return { total: head.total, kept: pageOwn(ix, head.records).map((record) => ({ record })) };
}

/** The answer to folded Term q (non-empty), page `page`, of a paged list of the words rule. */
export async function answerWords(
  read: Read,
  ix: WordIndex,
  q: string,
  page: number,
): Promise<{ total: number; kept: Kept[] }> {
  const { list, pageSize: size } = ix;
  const scope = ix.chain === undefined ? '' : `${ix.chain}/`;
  const words = wordsOf(q);
  const slice = (all: Kept[]) => ({ total: all.length, kept: all.slice((page - 1) * size, page * size) });
  let candidates: Candidates;
  if (words.length === 1) {
    const found = await searchFileOf(read, ix, scope + q);
    const set = setOf(found.chunk, scope + q);
    if (set) {
      const [count, page1] = set;
      const skip = skipOf(found.chunk, scope + q);
      if (page === 1) return { total: count, kept: pageOwn(ix, page1).map((record) => ({ record })) };
      if ((page - 1) * size >= count) return { total: count, kept: [] };
      if (skip !== undefined) return { total: count, kept: await skippedPage(read, ix, skip, q, page) };
      candidates = await pooled(read, ix, poolPaths(ix, scope + q, found));
    } else {
      candidates = new Map();
      addChunk(ix, found.chunk, candidates);
    }
  } else {
    const head = page === 1 ? await pairHead(read, ix, q, words) : undefined;
    if (head) return head;
    candidates = (await candidatesOf(read, ix, maximal(words)))!;
  }
  const found = ranked(candidates, q, list);
  if (found.length > 0 || list.typos === false || !mayHaveTypos(q) || !ix.info.vocab) return slice(found);
  return slice(fewestTypos(await typoCandidates(read, ix, [...new Set(words)]), q, list));
}

/** A whole list's items answered by the words rule, typos and all: by tier, else the fewest typos, each in list order. */
export function wholeWords<T>(items: readonly T[], texts: (item: T) => FoldedTexts, q: string, list: ApiList): T[] {
  const tiers: T[][] = Array.from({ length: NONE }, () => []);
  const folded = items.map(texts);
  for (const [i, f] of folded.entries()) {
    const { tier } = rankTexts(f, q, list.exact === true, true);
    if (tier !== NONE) tiers[tier]!.push(items[i]!);
  }
  const found = tiers.flat();
  if (found.length > 0 || list.typos === false || !mayHaveTypos(q)) return found;
  let fewest = Infinity;
  let kept: T[] = [];
  for (const [i, f] of folded.entries()) {
    const { typos } = itemTypos(f, q);
    if (typos === Infinity || typos > fewest) continue;
    if (typos < fewest) {
      fewest = typos;
      kept = [];
    }
    kept.push(items[i]!);
  }
  return kept;
}
