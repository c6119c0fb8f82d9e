// What a build does to the spare generation, decided from indexes alone:
// which files to link from the served tree, which to remove, and what the
// report says. Pure, so every case is tested without a disk (test/unit/tree-diff.test.ts);
// write.ts carries it out.
import { sectionOf, type Section } from '../tree-files.js';

/**
 * path → `key<TAB>size`: what a generation holds. A file's key is its hash; a
 * compressed copy's, its source's hash and its settings (`hash.gz6`, write.ts).
 */
export type Index = Map<string, string>;

export const indexEntry = (key: string, bytes: number) => `${key}\t${bytes}`;

export interface TreeDiffInput {
  /** The served generation's index; none before the first build. */
  served?: Index;
  /** What the spare holds: the tree it was two builds ago. */
  spare: Index;
  /** The files the build handed the writer. */
  added: Index;
  /** Sections kept from the served tree, each with the files its update drops. */
  keeps: ReadonlyMap<Section, ReadonlySet<string>>;
  /** The served tree moves to another generation (generations.ts): the spare is swapped in even when nothing changed. */
  moving?: boolean;
}

export interface TreeDiff {
  /** The new tree's index: the files added, then the kept sections' files. */
  next: Index;
  /** Files unchanged since the served tree that the spare still lacks: hard-link them from it. */
  link: string[];
  /** Files of the spare that the new tree does not hold. */
  remove: string[];
  /** Files of kept sections, carried over by their entry. */
  kept: number;
  /** Files unchanged since the served tree that the spare lacks: link.length. */
  copied: number;
  /** Files of the served tree that the new one no longer has. */
  removed: number;
  /** The new tree equals the served one: nothing to swap. */
  unchanged: boolean;
}

export function diffTree({ served, spare, added, keeps, moving = false }: TreeDiffInput): TreeDiff {
  const next: Index = new Map(added);
  let kept = 0;
  let removed = 0;
  let written = 0;
  if (served) {
    for (const [path, entry] of served) {
      if (next.has(path)) continue;
      const section = sectionOf(path);
      const drop = section && keeps.get(section);
      if (drop && !drop.has(path)) {
        next.set(path, entry);
        kept++;
      } else removed++;
    }
    for (const [path, entry] of added) if (served.get(path) !== entry) written++;
  }
  const unchanged = served !== undefined && written === 0 && removed === 0 && !moving;
  const link: string[] = [];
  for (const [path, entry] of served && !unchanged ? served : [])
    if (next.get(path) === entry && spare.get(path) !== entry) link.push(path);
  const remove = unchanged ? [] : [...spare.keys()].filter((path) => !next.has(path));
  return { next, link, remove, kept, copied: link.length, removed, unchanged };
}
