// Before a build renders anything: what changed since the served tree (the
// sources' digests against the build cache's, and for a list whose own file
// changed by a few records, those records' edits: delta.ts), and the sources
// of every section to make again, read and checked, every error at once.
// build.ts makes the plan from what this finds.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compareStrings } from '../client/fold.js';
import { readBytes, readCache, readLines, sourceFile, type CacheMeta } from './cache.js';
import { sourceFiles, type Declaration, type SourceSpec } from '../config/declaration.js';
import { sectionsOf } from '../config/sections.js';
import { changedWindow, windowEdits } from '../sources/delta.js';
import { ReflistError, ReflistErrors } from '../errors.js';
import type { Entry, Node } from '../sources/model.js';
import type { ListChange, Served } from './plan.js';
import { digestFile, readTableFile } from '../sources/read.js';
import { changedByEdits, updatable, type Changed, type ServedList } from '../render/update.js';
import { Checker, validateGroups, validateList, validateTree, type Tables } from '../sources/validate.js';
import { cacheDir, servedGeneration } from '../write/write.js';

/** Reads the named sources of a folder: an absent file is an empty list. */
export function readSources(dir: string, sources: readonly SourceSpec[]): { tables: Tables; errors: ReflistError[] } {
  const tables: Tables = new Map();
  const errors: ReflistError[] = [];
  for (const { file, delimiter } of sources) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    const read = readTableFile(file, path, undefined, delimiter);
    tables.set(file, read.table);
    errors.push(...read.errors);
  }
  return { tables, errors };
}

const byLocation = (a: ReflistError, b: ReflistError) =>
  compareStrings(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0);

/** The served tree's build cache, when it was made with the same options. */
export interface ServedBuild {
  meta: CacheMeta;
  lines(list: string): string[] | undefined;
  source(list: string): Uint8Array | undefined;
}

export function servedBuild(out: string, key: string): ServedBuild | undefined {
  const served = servedGeneration(out);
  const dir = served && cacheDir(served);
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

export function findChanges(dir: string, declaration: Declaration, served: ServedBuild | undefined): Changes {
  const sections = sectionsOf(declaration);
  const digests = Object.fromEntries(sourceFiles(declaration).map(({ file }) => {
    const path = join(dir, file);
    return [file, existsSync(path) ? digestFile(path) : null];
  }));
  const differs = (file: string) => !served || served.meta.digests[file] !== digests[file];
  const changed = new Set(sections.filter((s) => s.files.some(differs)).map((s) => s.root.name));
  // A list whose own file alone changed may be updated from the records that changed (delta.ts).
  const edited: Changes['edited'] = {};
  for (const { root, files } of sections) {
    const list = root.name;
    if (!served || !changed.has(list) || root.shape !== 'paged' || !updatable(root) || files.some((f) => f !== root.source.file && differs(f))) continue;
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

/**
 * The sources of the sections to make again, read and checked before
 * anything is rendered (all but the lists changed from their edits); every
 * error found throws at once.
 */
export function checkChanges(dir: string, declaration: Declaration, { changed, edited }: Changes) {
  const sections = sectionsOf(declaration).filter((s) => changed.has(s.root.name) && !edited[s.root.name]);
  const needed = new Set(sections.flatMap((s) => s.files));
  if (declaration.groups) needed.add(declaration.groups.source.file);
  const { tables, errors } = readSources(dir, sourceFiles(declaration).filter((s) => needed.has(s.file)));
  const check = new Checker(declaration, tables, errors);
  const groups = validateGroups(check);
  const trees: Record<string, Node[]> = {};
  const lists: Record<string, ListChange> = {};
  const items: Record<string, Entry[]> = {};
  const sources: Record<string, Uint8Array> = {};
  for (const { root } of sectionsOf(declaration)) {
    const list = root.name;
    if (!changed.has(list)) continue;
    const edit = edited[list];
    if (root.shape !== 'paged') trees[list] = validateTree(check, sectionsOf(declaration).find((s) => s.root === root)!);
    else if (edit) (lists[list] = { served: edit.served, changed: edit.changed }), (sources[list] = edit.source);
    else {
      lists[list] = { items: (items[list] = validateList(check, root, groups)) };
      const source = updatable(root) ? readBytes(dir, root.source.file) : undefined;
      if (source) sources[list] = source;
    }
  }
  const found = check.found();
  if (found.length > 0) throw new ReflistErrors(found.sort(byLocation));
  return { groups, trees, lists, items, sources };
}

/** What the plan needs of the served build: every list's state, and the entries of those that may change in place. */
export function servedForPlan(declaration: Declaration, served: ServedBuild | undefined, lists: Record<string, ListChange>): Served | undefined {
  if (!served) return undefined;
  const lines: Served['lines'] = {};
  for (const list of declaration.lists) {
    const change = lists[list.name];
    if (change && 'items' in change && updatable(list)) {
      const found = served.lines(list.name);
      if (found) lines[list.name] = found;
    }
  }
  return { states: served.meta.lists, lines, totals: served.meta.totals, nested: served.meta.nested ?? {} };
}
