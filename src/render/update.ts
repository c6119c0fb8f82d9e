// Stage 4c, update: a list whose sources changed a little, rendered from the
// previous build's state instead of from scratch. Pure. Only the files the
// change reaches are rendered: the pages between each changed entry's old and
// new place, its id bucket, the index parts its labels fall in. The writer
// keeps the rest of the list's files from the served tree.
import { bucketOf, bucketPath } from '../client/paths.js';
import { compareLabels } from '../client/fold.js';
import type { ListSpec } from '../config/declaration.js';
import { LineEntry, linesOutput, type ListState } from '../plan/cache.js';
import type { Changed, ServedList } from '../plan/changed.js';
import type { Entry } from '../sources/model.js';
import { encodeRecord, heldRecords, recordShape } from '../sources/record.js';
import {
  indexFiles,
  indexPaths,
  renderBuckets,
  renderItems,
  renderPages,
  searchInfo,
  type GroupVariants,
  type RenderOptions,
} from './render.js';
import type { Output } from '../tree-files.js';
import { buildSearchIndex, directoryOf, updateSearchIndex, type Encode, type SearchIndex } from '../search/index.js';

/** The outputs that turn the served list into one with these entries changed, and the list's new state. */
export function* renderChanges(
  list: ListSpec,
  served: ServedList,
  changed: Changed[],
  groups: GroupVariants,
  options: RenderOptions,
): Generator<Output, ListState> {
  const folder = list.path;
  const { pageSize } = options;
  const { lines, state } = served;
  if (changed.length === 0) {
    yield { keep: folder, drop: [] };
    return state;
  }
  const oldKeys = changed.map((c) => lines[c.at]!.slice(0, lines[c.at]!.indexOf('\t')));
  changed = [...changed].sort((a, b) => compareLabels(a.entry, b.entry));
  const { entries, records, next } = merged(lines, changed);
  // An edit's records are the served lines' own, read already: held.
  const held = heldRecords(records);
  // A page changes where an entry took another's place, or its own changed.
  const pages = new Set<number>();
  for (let i = 0; i < entries.length; i++) if (next[i] !== lines[i]) pages.add(Math.floor(i / pageSize) + 1);

  yield* renderPages(list, undefined, entries, pageSize, groups, pages);
  yield* renderItems(
    list,
    undefined,
    changed.map((c) => c.entry),
  );
  const { buckets } = state.info;
  const dirtyBuckets = new Set(changed.map((c) => bucketOf(String(c.entry.id), buckets)));
  const { layout } = state.info;
  yield* renderBuckets(
    entries.map((_, i) => i),
    buckets,
    (i) => entries[i]!.id,
    (i) => held.at(i),
    (b) => bucketPath(folder, layout, buckets, b),
    dirtyBuckets,
  );

  // The index: the parts the changed labels, old and new, fall in; all of it when the edit changes its layout.
  const shape = recordShape(list);
  const encode: Encode = (e, children) => encodeRecord({ ...entries[e]!, children }, shape);
  const search = { ...options.search, pageSize };
  const touched = [...oldKeys, ...changed.map((c) => c.entry.key)];
  const before = directoryOf(state.metas, state.layout, search.directoryStarts);
  let index: SearchIndex =
    updateSearchIndex(entries, held, encode, search, state, touched) ?? buildSearchIndex(entries, held, encode, search);
  let dir = directoryOf(index.metas, index.layout, search.directoryStarts);
  // From one level to two or back, every head's file is named anew: the whole index is rendered.
  if (index.fresh.length < index.metas.length && (dir.heads === undefined) !== (before.heads === undefined)) {
    index = buildSearchIndex(entries, held, encode, search);
    dir = directoryOf(index.metas, index.layout, search.directoryStarts);
  }
  const info = { ...state.info, heads: undefined, ...searchInfo(dir) };
  yield* indexFiles(folder, layout, dir, index.fresh);
  const same = new Set(index.metas);
  yield {
    keep: folder,
    drop: indexPaths(
      folder,
      layout,
      before,
      state.metas.filter((m) => !same.has(m)),
    ),
  };
  yield* linesOutput(list.name, next.length, (i) => next[i]!);
  return { info, layout: index.layout, metas: index.metas };
}

/**
 * The served list with the changed entries (sorted in list order) merged in:
 * the unchanged entries keep their order. Each entry with its record, and
 * its cache line.
 */
function merged(lines: readonly string[], changed: readonly Changed[]) {
  const changedAt = new Set(changed.map((c) => c.at));
  const entries: Entry[] = [];
  const records: string[] = [];
  const next: string[] = [];
  let k = 0;
  /** The unchanged entry at position k of the served list. */
  const at = (): LineEntry | undefined => {
    while (changedAt.has(k)) k++;
    const line = lines[k];
    return line === undefined ? undefined : new LineEntry(line);
  };
  const take = (e: LineEntry) => {
    entries.push(e);
    records.push(e.record);
    next.push(e.line);
    k++;
  };
  let e = at();
  for (const c of changed) {
    while (e && compareLabels(e, c.entry) < 0) {
      take(e);
      e = at();
    }
    entries.push(c.entry);
    records.push(c.record);
    next.push(`${c.entry.key}\t${c.record}`);
  }
  while (e) {
    take(e);
    e = at();
  }
  return { entries, records, next };
}
