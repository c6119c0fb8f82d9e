// Before a build renders anything: what changed since the served tree (the
// sources' digests against the build cache's, and for a list whose own file
// changed by a few records, those records' edits: delta.ts), and the sources
// of every section to make again, read and checked, every error at once.
// build.ts makes the plan from what this finds.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compareStrings } from './client/fold.js';
import { PAGED_LISTS, type PagedList } from './client/types.js';
import { readCache, readLines, readSource, type CacheMeta } from './cache.js';
import { changedWindow, windowEdits } from './delta.js';
import { ReflistError, ReflistErrors } from './errors.js';
import type { ListItem } from './model.js';
import type { ListChange, Served } from './plan.js';
import { digestFile, readTableFile } from './read.js';
import { SECTIONS, type Section } from './tree-files.js';
import { changedByEdits, updatable, type Changed, type ServedList } from './update.js';
import { Checker, SECTION_SOURCES, SOURCES, validateList, validateLocations, validateSystems, type SourceName, type Tables } from './validate.js';
import { cacheDir, servedGeneration } from './write.js';

/** Reads the named sources (all by default): an absent file is an empty list. */
export function readSources(dir: string, names: readonly SourceName[] = SOURCES): { tables: Tables; errors: ReflistError[] } {
  if (!existsSync(dir)) throw new ReflistError('INVALID_OPTION', `--sources: no such folder ${dir}`);
  const tables: Tables = {};
  const errors: ReflistError[] = [];
  for (const name of names) {
    const file = `${name}.csv`;
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    const read = readTableFile(file, path);
    tables[name] = read.table;
    errors.push(...read.errors);
  }
  return { tables, errors };
}

const byLocation = (a: ReflistError, b: ReflistError) =>
  compareStrings(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0);

/** The served tree's build cache, when it was made with the same options. */
export interface ServedBuild {
  meta: CacheMeta;
  lines(list: PagedList): string[] | undefined;
  source(list: PagedList): Uint8Array | undefined;
}

export function servedBuild(out: string, key: string): ServedBuild | undefined {
  const served = servedGeneration(out);
  const dir = served && cacheDir(served);
  const meta = dir ? readCache(dir, key) : undefined;
  return meta && { meta, lines: (list) => readLines(dir!, list), source: (list) => readSource(dir!, list) };
}

/**
 * What changed since the served tree: the sections to make again, and, for a
 * list whose own file alone changed by a few records' text, the entries those
 * edits change in the served list.
 */
export interface Changes {
  digests: Record<SourceName, string | null>;
  changed: Set<Section>;
  edited: Partial<Record<PagedList, { served: ServedList; changed: Changed[]; source: Uint8Array }>>;
}

export function findChanges(dir: string, served: ServedBuild | undefined): Changes {
  const digests = Object.fromEntries(SOURCES.map((name) => {
    const path = join(dir, `${name}.csv`);
    return [name, existsSync(path) ? digestFile(path) : null];
  })) as Record<SourceName, string | null>;
  const differs = (name: SourceName) => !served || served.meta.digests[name] !== digests[name];
  const changed = new Set(SECTIONS.filter((s) => SECTION_SOURCES[s].some(differs)));
  // A list whose own file alone changed may be updated from the records that changed (delta.ts).
  const edited: Changes['edited'] = {};
  for (const list of PAGED_LISTS) {
    if (!served || !changed.has(list) || !updatable(list) || SECTION_SOURCES[list].some((n) => n !== list && differs(n))) continue;
    const [was, now] = [served.source(list), readSource(dir, list)];
    const window = was && now && changedWindow(was, now);
    const edits = window && windowEdits(list, window);
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
export function checkChanges(dir: string, { changed, edited }: Changes) {
  const needed = (name: SourceName) =>
    name === 'system' || [...changed].some((s) => !edited[s as PagedList] && (SECTION_SOURCES[s] as readonly string[]).includes(name));
  const { tables, errors } = readSources(dir, SOURCES.filter(needed));
  const check = new Checker(tables, errors);
  const systems = validateSystems(check);
  const countries = changed.has('locations') ? validateLocations(check) : undefined;
  const lists: Partial<Record<PagedList, ListChange>> = {};
  const items: Partial<Record<PagedList, ListItem[]>> = {};
  const sources: Partial<Record<PagedList, Uint8Array>> = {};
  for (const list of PAGED_LISTS) {
    if (!changed.has(list)) continue;
    const edit = edited[list];
    if (edit) (lists[list] = { served: edit.served, changed: edit.changed }), (sources[list] = edit.source);
    else {
      lists[list] = { items: (items[list] = validateList(list, check, systems)) };
      const source = updatable(list) ? readSource(dir, list) : undefined;
      if (source) sources[list] = source;
    }
  }
  if (check.errors.length > 0) throw new ReflistErrors(check.errors.sort(byLocation));
  return { systems, countries, lists, items, sources };
}

/** What the plan needs of the served build: every list's state, and the entries of those that may change in place. */
export function servedForPlan(served: ServedBuild | undefined, lists: Partial<Record<PagedList, ListChange>>): Served | undefined {
  if (!served) return undefined;
  const lines: Served['lines'] = {};
  for (const list of PAGED_LISTS) {
    const change = lists[list];
    if (change && 'items' in change && updatable(list)) {
      const found = served.lines(list);
      if (found) lines[list] = found;
    }
  }
  return { states: served.meta.lists, lines, countries: served.meta.countries };
}
