// Where a list's search files are listed (docs/tree.md, Search files listed
// in two levels): all their first keys in lookup.json, or, for a list with many
// search files, only those of its top parts there and each large one-unit
// prefix's (a head's) in the head's own search file, which lookup.json
// names by its content. Pure: the renderer and the writer's drops share it.
import { nameOf } from '../client/paths.js';
import type { IndexLayout, PartMeta } from './types.js';

/**
 * Above this many search files a list's first keys go to its heads' files:
 * lookup.json stays some 12 KB gzipped at most per list, and a list of a
 * million rows keeps a few hundred bytes there, not 40 KB.
 */
export const DIRECTORY_STARTS = 4096;

export interface Directory {
  /** What lookup.json lists: every first key, or those of the top parts (each head's one key among them). */
  search: string[];
  /** Each head's directory's name (its first keys' content), when the list is listed in two levels. */
  heads?: Record<string, string>;
  /** Every first key, in order. */
  starts: string[];
  /** Each head's first keys after its own, in order (empty when listed in one level). */
  dirs: Map<string, string[]>;
}

/** A list's directory of search files, from its parts (in key order). */
export function directoryOf(metas: readonly PartMeta[], layout: IndexLayout, threshold = DIRECTORY_STARTS): Directory {
  const starts = metas.flatMap((m) => m.starts);
  const dirs = new Map<string, string[]>();
  if (!layout.rootLarge || starts.length <= threshold || layout.heads.length === 0)
    return { search: starts, starts, dirs };
  const heads = new Set(layout.heads);
  const search: string[] = [];
  for (const meta of metas) {
    // A head's parts are named by two units, the first the head's, and come after the head's own.
    const dir = meta.name.length === 2 ? dirs.get(meta.name.slice(0, 1)) : undefined;
    if (dir) dir.push(...meta.starts);
    else search.push(...meta.starts);
    if (meta.name.length === 1 && heads.has(meta.name)) dirs.set(meta.name, []);
  }
  const names: Record<string, string> = {};
  for (const [head, dir] of dirs) names[head] = nameOf(JSON.stringify(dir));
  return { search, heads: names, starts, dirs };
}
