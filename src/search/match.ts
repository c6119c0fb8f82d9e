// Matching and ranking over ranges of the sorted pairs: which entries a
// prefix's keys reach, whether they are small (fit one search file) or large,
// and their result order (docs/lists.md, Term search: by tier, then list
// order), each key's tier being rank.ts's keyTier. One Matcher serves every
// part of a list, one part after another: it keeps the records' byte counts,
// and the stamps that count each entry once per pass without a set.
import { keyTier, NONE, type KeyAt } from '../client/rank.js';
import { keyOf, type IndexedList, type Pairs } from './types.js';

export class Matcher {
  /** UTF-8 bytes of each record and its comma, counted when first asked (an update asks of few). */
  private readonly bytes: Int32Array;
  /**
   * The pass (generation) that last counted each entry: a pass takes a new
   * generation, and an entry is new to it while its stamp differs. Passes
   * are distinct() and the search files a part is cut into.
   */
  readonly stamp: Int32Array;
  /** Each entry's best tier in the last distinct() pass that found it. */
  private readonly tier: Uint8Array;
  /** keyTier(at, equal, exact) by at * 2 + equal, for this list. */
  private readonly tiers: Uint8Array;
  private generation = 0;

  constructor(readonly list: IndexedList) {
    this.bytes = new Int32Array(list.entries.length);
    this.stamp = new Int32Array(list.entries.length).fill(-1);
    this.tier = new Uint8Array(list.entries.length);
    const { exact } = list.searched;
    this.tiers = Uint8Array.from({ length: 10 }, (_, k) => keyTier((k >> 1) as KeyAt, (k & 1) === 1, exact));
  }

  /** A new pass: no entry bears the generation it returns yet. */
  newGeneration(): number {
    return ++this.generation;
  }

  recordBytes(e: number): number {
    return (this.bytes[e] ||= this.list.records.bytes(e) + 1);
  }

  /**
   * Distinct entries of a pair range (leaving out skipped pairs), in list
   * order, each with its best tier in the range for the query that is the
   * range's common prefix, `depth` units long (rankLast): a key of that length
   * is the query itself, which an exact list ranks first.
   */
  distinct(
    { distinct: keys, keyIndex, owners, at }: Pairs,
    lo: number,
    hi: number,
    depth = -1,
    skip?: Uint8Array,
    offset = 0,
  ): Int32Array {
    const generation = ++this.generation;
    const { stamp, tier, tiers } = this;
    const found: number[] = [];
    for (let i = lo; i < hi; i++) {
      if (skip?.[i - offset]) continue;
      const e = owners[i]!;
      const t = tiers[at[i]! * 2 + (keys[keyIndex[i]!]!.length === depth ? 1 : 0)]!;
      if (stamp[e] !== generation) {
        stamp[e] = generation;
        tier[e] = t;
        found.push(e);
      } else if (t < tier[e]!) tier[e] = t;
    }
    return Int32Array.from(found).sort(); // a typed array sorts numerically, natively
  }

  /** The tiers of some matches of the last distinct() call, kept for after the next one. */
  tiersOf(matches: Int32Array): Uint8Array {
    return Uint8Array.from(matches, (e) => this.tier[e]!);
  }

  /** The matches of the last distinct() call in result order: by tier (rank.ts), each in list order. */
  rankLast(matches: Int32Array): Int32Array {
    const { tier } = this;
    // A counting sort: where each tier (0 to NONE - 1) starts in the results.
    const starts = new Int32Array(NONE + 1);
    for (const e of matches) starts[tier[e]! + 1]!++;
    for (let t = 1; t <= NONE; t++) starts[t]! += starts[t - 1]!;
    const results = new Int32Array(matches.length);
    for (const e of matches) results[starts[tier[e]!]!++] = e;
    return results;
  }

  /**
   * The distinct entries of a pair range when they are large (ready for
   * rankLast), or undefined when they are small. Most ranges are small for
   * sure without counting distinct entries: too few keys, or too few bytes
   * even with repeats.
   */
  largeMatches(pairs: Pairs, a: number, b: number, depth: number): Int32Array | undefined {
    const { pageSize, leafBytes } = this.list;
    if (b - a <= pageSize) return undefined;
    let bytes = 0;
    const { owners } = pairs;
    for (let i = a; i < b && bytes <= leafBytes; i++) bytes += this.recordBytes(owners[i]!);
    if (bytes <= leafBytes) return undefined;
    const matches = this.distinct(pairs, a, b, depth);
    return this.isSmall(matches) ? undefined : matches;
  }

  /** Whether every entry with a key, taken together, is large: the index is then in parts. */
  rootIsLarge(): boolean {
    const { entries, pageSize, leafBytes } = this.list;
    let count = 0;
    let bytes = 0;
    for (const [e, entry] of entries.entries()) {
      if (keyOf(entry) === '') continue;
      count++;
      if (bytes <= leafBytes) bytes += this.recordBytes(e);
    }
    return count > pageSize && bytes > leafBytes;
  }

  isSmall(list: Int32Array): boolean {
    if (list.length <= this.list.pageSize) return true;
    let bytes = 0;
    for (const e of list) bytes += this.recordBytes(e);
    return bytes <= this.list.leafBytes;
  }

  /**
   * The results of some one-unit prefixes by scanning the entries once (no
   * pairs needed): whether each is small, and its ranking, tier START (the
   * label starts with it) before WORD. Lists that search their labels alone,
   * without children or exact matches, only.
   */
  scanHeads(units: string[]): Map<string, { small: boolean; results: Int32Array }> {
    const at = new Map(units.map((c, k) => [c.charCodeAt(0), k]));
    const first: number[][] = units.map(() => []);
    const second: number[][] = units.map(() => []);
    const seen = new Int32Array(units.length).fill(-1);
    for (const [e, entry] of this.list.entries.entries()) {
      const key = keyOf(entry);
      const k = at.get(key.charCodeAt(0));
      if (k !== undefined) {
        first[k]!.push(e);
        seen[k] = e;
      }
      for (let i = key.indexOf(' '); i >= 0; i = key.indexOf(' ', i + 1)) {
        const j = at.get(key.charCodeAt(i + 1));
        if (j !== undefined && seen[j] !== e) {
          second[j]!.push(e);
          seen[j] = e;
        }
      }
    }
    return new Map(
      units.map((c, k) => {
        const results = Int32Array.from(first[k]!.concat(second[k]!));
        return [c, { small: this.isSmall(results), results }];
      }),
    );
  }
}
