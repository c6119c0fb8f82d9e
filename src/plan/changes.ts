// Before a build renders anything: what changed since the served tree (the
// sources' digests against the build cache's, and for a list whose own file
// changed by a few records, those records' edits: delta.ts), so that only the
// sections to make again are read and checked (sources/check.ts); then what
// changed of each paged list among them. build.ts makes the plan from these.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readBytes, readCache, readLines, sourceFile, type CacheMeta } from './cache.js';
import { changedByEdits, updatable, type Changed, type ServedList } from './changed.js';
import { sourceFiles, type Declaration, type ListSpec } from '../config/declaration.js';
import type { SectionSpec } from '../config/sections.js';
import { changedWindow, windowEdits } from '../sources/delta.js';
import type { Entry } from '../sources/model.js';
import type { ListChange, Served } from './plan.js';
import { digestFile } from '../sources/read.js';

/** The served tree's build cache, when it was made with the same options. */
export interface ServedBuild {
  meta: CacheMeta;
  lines(list: string): string[] | undefined;
  source(list: string): Uint8Array | undefined;
}

/** The build cache in `dir` (the served generation's: write/generations.ts), if there is one made with the options `key` says. */
export function servedBuild(dir: string | undefined, key: string): ServedBuild | undefined {
  const meta = dir ? readCache(dir, key) : undefined;
  return meta && { meta, lines: (list) => readLines(dir!, list), source: (list) => readBytes(dir!, sourceFile(list)) };
}

/**
 * What changed since the served tree: the sections to make again (by their
 * root list's name), and, for a list whose own file alone changed by a few
 * records' text, the entries those edits change in the served list.
 */
export interface Changes {
  digests: Record<string, string | null>;
  changed: Set<string>;
  edited: Record<string, { served: ServedList; changed: Changed[]; source: Uint8Array }>;
}

export function findChanges(
  dir: string,
  declaration: Declaration,
  sections: readonly SectionSpec[],
  served: ServedBuild | undefined,
): Changes {
  const digests = Object.fromEntries(
    sourceFiles(declaration).map(({ file }) => {
      const path = join(dir, file);
      return [file, existsSync(path) ? digestFile(path) : null];
    }),
  );
  const differs = (file: string) => !served || served.meta.digests[file] !== digests[file];
  const changed = new Set(sections.filter((s) => s.files.some(differs)).map((s) => s.root.name));
  // A list whose own file alone changed may be updated from the records that changed (delta.ts).
  const edited: Changes['edited'] = {};
  for (const { root, files } of sections) {
    const list = root.name;
    if (
      !served ||
      !changed.has(list) ||
      root.shape !== 'paged' ||
      !updatable(root) ||
      files.some((f) => f !== root.source.file && differs(f))
    )
      continue;
    const [was, now] = [served.source(list), readBytes(dir, root.source.file)];
    const window = was && now && changedWindow(was, now);
    const edits = window && windowEdits(root, window);
    const state = served.meta.lists[list];
    const lines = edits && state && served.lines(list);
    if (!edits || !state || !lines) continue;
    // Applied to the served list when every edit names one of its entries; else the source is read whole.
    const entries = changedByEdits(edits, { state, lines });
    if (entries) edited[list] = { served: { state, lines }, changed: entries, source: now! };
  }
  return { digests, changed, edited };
}

/** The sections whose sources are read and checked: those that changed, but the lists changed from their edits. */
export const staleSections = (sections: readonly SectionSpec[], { changed, edited }: Changes): SectionSpec[] =>
  sections.filter((s) => changed.has(s.root.name) && !edited[s.root.name]);

/**
 * What changed of each paged list made again: the entries its edits change in
 * the served list, or all its items, read and checked (`items`); and the
 * sources the build cache keeps a copy of (see delta.ts).
 */
export function listChanges(
  dir: string,
  sections: readonly SectionSpec[],
  { changed, edited }: Changes,
  items: Record<string, Entry[]>,
) {
  const lists: Record<string, ListChange> = {};
  const sources: Record<string, Uint8Array> = {};
  for (const { root } of sections) {
    const list = root.name;
    if (!changed.has(list) || root.shape !== 'paged') continue;
    const edit = edited[list];
    if (edit) {
      lists[list] = { served: edit.served, changed: edit.changed };
      sources[list] = edit.source;
    } else {
      lists[list] = { items: items[list]! };
      const source = updatable(root) ? readBytes(dir, root.source.file) : undefined;
      if (source) sources[list] = source;
    }
  }
  return { lists, sources };
}

/** What the plan needs of the served build: every list's state, and the entries of those that may change in place. */
export function servedForPlan(
  all: readonly ListSpec[],
  served: ServedBuild | undefined,
  lists: Record<string, ListChange>,
): Served | undefined {
  if (!served) return undefined;
  const lines: Served['lines'] = {};
  for (const list of all) {
    const change = lists[list.name];
    if (change && 'items' in change && updatable(list)) {
      const found = served.lines(list.name);
      if (found) lines[list.name] = found;
    }
  }
  return { states: served.meta.lists, lines, totals: served.meta.totals, nested: served.meta.nested ?? {} };
}
