// Stage 4c, update: a list whose sources changed a little, rendered from the
// previous build's state instead of from scratch. Pure. Only the files the
// change reaches are rendered: the pages between each changed entry's old and
// new place, its id bucket, the index parts its labels fall in. The writer
// keeps the rest of the list's files from the served tree.
import { bucketOf, bucketPath } from './client/paths.js';
import type { PagedList } from './client/types.js';
import { compareLabels, fold } from './client/fold.js';
import type { Entry, ListItem } from './model.js';
import { encodeRecord, indexFiles, indexPaths, renderBuckets, renderPages, type ListState, type Output, type RenderOptions } from './render.js';
import { buildSearchIndex, updateSearchIndex, type SearchIndex } from './search-index.js';
import { cacheLines, decodeLine } from './cache.js';

/** Lists whose entries have no children: a division's record depends on its categories too. */
export const updatable = (list: PagedList): boolean => list !== 'division';

/** Beyond this share of changed entries, rendering the list afresh costs about as much. */
const MAX_CHANGED = 1 / 16;

/**
 * The outputs that turn the served list into the one `items` make, given the
 * served list's state and its cache lines (entries in list order); or
 * undefined when the change is not an edit of a few entries in place (an
 * entry added or removed changes every page's total: render it afresh).
 */
export function updateList(
  list: PagedList,
  items: ListItem[],
  previous: ListState,
  lines: string[],
  systems: readonly string[],
  options: RenderOptions,
): Generator<Output, ListState> | undefined {
  if (!updatable(list) || items.length !== lines.length) return undefined;
  const byId = new Map<number, ListItem>();
  for (const item of items) byId.set(item.id, item);
  const old: Served = { ids: new Float64Array(lines.length), records: [] };
  const kept: { entry: Entry; record: string }[] = [];
  const changed: Changed[] = [];
  for (const [i, line] of lines.entries()) {
    const { id, key, record } = decodeLine(line);
    old.ids[i] = id;
    old.records.push(record);
    const item = byId.get(id);
    if (!item) return undefined;
    const now = encodeRecord(item, false);
    const entry = item as Entry;
    if (now === record) (entry.key = key), kept.push({ entry, record });
    else (entry.key = fold(item.text)), changed.push({ entry, record: now, oldKey: key });
  }
  if (changed.length > items.length * MAX_CHANGED) return undefined;
  return render(list, old, kept, changed, previous, systems, options);
}

/** The served list, position by position. */
interface Served {
  ids: Float64Array;
  records: string[];
}

interface Changed {
  entry: Entry;
  record: string;
  oldKey: string;
}

function* render(
  list: PagedList,
  old: Served,
  kept: { entry: Entry; record: string }[],
  changed: Changed[],
  previous: ListState,
  systems: readonly string[],
  options: RenderOptions,
): Generator<Output, ListState> {
  const { pageSize } = options;
  if (changed.length === 0) {
    yield { keep: list, drop: [] };
    return previous;
  }
  // The new order: the unchanged entries keep theirs, the changed ones are merged in.
  changed.sort((a, b) => compareLabels(a.entry, b.entry));
  const entries: Entry[] = [];
  const records: string[] = [];
  let k = 0;
  for (const c of changed) {
    while (k < kept.length && compareLabels(kept[k]!.entry, c.entry) < 0) entries.push(kept[k]!.entry), records.push(kept[k++]!.record);
    entries.push(c.entry), records.push(c.record);
  }
  while (k < kept.length) entries.push(kept[k]!.entry), records.push(kept[k++]!.record);
  // A page changes where an entry took another's place, or its own changed.
  const pages = new Set<number>();
  for (let i = 0; i < entries.length; i++) {
    if (entries[i]!.id !== old.ids[i] || records[i] !== old.records[i]) pages.add(Math.floor(i / pageSize) + 1);
  }

  yield* renderPages(list, entries, pageSize, systems, pages);
  const { buckets } = previous.info;
  const dirtyBuckets = new Set(changed.map((c) => bucketOf(String(c.entry.id), buckets)));
  yield* renderBuckets(entries.map((_, i) => i), buckets, (i) => entries[i]!.id, (i) => records[i]!, (b) => bucketPath(list, b), dirtyBuckets);

  // The index: the parts the changed labels, old and new, fall in; all of it when the edit changes its layout.
  const encode = (e: Entry) => encodeRecord(e, false);
  const search = { ...options.search, pageSize };
  const touched = changed.flatMap((c) => [c.oldKey, c.entry.key]);
  const index: SearchIndex = (yield* steps(updateSearchIndex(entries, records, encode, search, previous, touched)))
    ?? (yield* steps(buildSearchIndex(entries, records, encode, search)));
  yield* indexFiles(list, index.fresh);
  const same = new Set(index.metas);
  yield { keep: list, drop: indexPaths(list, previous.metas.filter((m) => !same.has(m))) };
  yield* cacheLines(list, entries, records);
  return { info: { ...previous.info, search: index.metas.flatMap((m) => m.starts) }, layout: index.layout, metas: index.metas };
}

/** Runs a stepwise computation to its end (an update is small: no need to interleave it with writing). */
function* steps<T>(work: Generator<undefined, T>): Generator<never, T> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}
