// What a build does to the spare generation, decided from indexes alone:
// which files to link from the served tree, which to remove, and what the
// report says. Pure, so every case is tested without a disk (test/tree-diff.test.ts);
// write.ts carries it out.
import { sectionOf, type Section } from '../tree-files.js';

/** path → `hash<TAB>size`: what a generation holds. Compressed siblings are `hash.gz` / `hash.br`, their source's hash. */
export type Index = Map<string, string>;

export const indexEntry = (hash: string, bytes: number) => `${hash}\t${bytes}`;

/** The hash an entry names its content by (a compressed sibling's is `hash.gz`). */
export const entryHash = (entry: string) => entry.slice(0, entry.indexOf('\t') >>> 0);

/** A file's size from its entry; compressed siblings count nothing (the tree's size is what is served uncompressed). */
const entryBytes = (entry: string) => {
  const tab = entry.indexOf('\t');
  return tab < 0 ? 0 : Number(entry.slice(tab + 1));
};

/** The served tree's files the spare lacks or holds otherwise: linked into it wherever the new tree keeps them. */
export function staleFiles(served: Index, spare: Index): string[] {
  const stale: string[] = [];
  for (const [path, entry] of served) if (spare.get(path) !== entry) stale.push(path);
  return stale;
}

export interface TreeDiffInput {
  /** The served generation's index; none before the first build. */
  served?: Index;
  /** What the spare holds now, links made ahead included. */
  spare: Index;
  /** staleFiles(served, spare) as it was when the build began. */
  stale: readonly string[];
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
  /** Files unchanged since the served tree that the spare lacked when the build began (linked ahead or now). */
  copied: number;
  /** Files of the served tree that the new one no longer has. */
  removed: number;
  files: number;
  bytes: number;
  /** The new tree equals the served one: nothing to swap. */
  unchanged: boolean;
}

export function diffTree({ served, spare, stale, added, keeps, moving = false }: TreeDiffInput): TreeDiff {
  const next: Index = new Map(added);
  let kept = 0;
  let removed = 0;
  let written = 0;
  if (served) {
    for (const [path, entry] of served) {
      if (next.has(path)) continue;
      const section = sectionOf(path);
      const drop = section && keeps.get(section);
      if (drop && !drop.has(path)) next.set(path, entry), kept++;
      else removed++;
    }
    for (const [path, entry] of added) if (served.get(path) !== entry) written++;
  }
  let bytes = 0;
  for (const entry of next.values()) bytes += entryBytes(entry);
  const unchanged = served !== undefined && written === 0 && removed === 0 && !moving;
  const link: string[] = [];
  let copied = 0;
  for (const path of served && !unchanged ? stale : []) {
    const entry = served!.get(path);
    if (next.get(path) !== entry) continue;
    copied++;
    if (spare.get(path) !== entry) link.push(path);
  }
  const remove = unchanged ? [] : [...spare.keys()].filter((path) => !next.has(path));
  return { next, link, remove, kept, copied, removed, files: next.size, bytes, unchanged };
}
