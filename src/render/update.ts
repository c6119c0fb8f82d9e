// Stage 4c, update: a list whose sources changed a little, rendered from the
// previous build's state instead of from scratch. Pure. Only the files the
// change reaches are rendered: the pages between each changed entry's old and
// new place, its id bucket, the index parts its labels fall in. The writer
// keeps the rest of the list's files from the served tree.
import { bucketOf, bucketPath } from '../client/paths.js';
import { compareLabels, fold } from '../client/fold.js';
import type { ListSpec } from '../config/declaration.js';
import { LineEntry, lineId, linesOutput } from '../plan/cache.js';
import type { TextEdit } from '../sources/delta.js';
import type { Entry, Id } from '../sources/model.js';
import { encodeRecord, indexFiles, indexPaths, recordShape, renderBuckets, renderItems, renderPages, searchInfo, type GroupVariants, type ListState, type RenderOptions } from './render.js';
import type { Output } from '../tree-files.js';
import { buildSearchIndex, directoryOf, updateSearchIndex, type SearchIndex } from '../search/index.js';

/**
 * Searchable lists whose records are their id, text and counts, in list
 * order, ranked without exact matches: a record with children depends on the
 * children's source too, one with fields (and a declared order or search
 * text, which need them) on more than its label, and an exact match ranks a
 * large prefix's results in a way scanHeads does not.
 */
export const updatable = (list: ListSpec): boolean =>
  list.search !== false && !list.search.exact && !list.children && list.fields.length === 0;

const PLAIN = { children: false, fields: false };

/** Beyond this share of changed entries, rendering the list afresh costs about as much. */
const MAX_CHANGED = 1 / 16;

/** The served list: its state and its entries in list order, as cache lines. */
export interface ServedList {
  state: ListState;
  lines: string[];
}

/** An entry that changed, at its old position in the served list. */
export interface Changed {
  at: number;
  entry: Entry;
  record: string;
}

const TAB = 9;

/**
 * The entries that changed between the served list and `items`, or undefined
 * when the change is more than an edit of a few entries in place (an entry
 * added or removed changes every page's total: the list is rendered afresh).
 */
export function changedByItems(list: ListSpec, items: Entry[], served: ServedList): Changed[] | undefined {
  const { lines } = served;
  if (!updatable(list) || items.length !== lines.length) return undefined;
  const byId = new Map<Id, Entry>();
  for (const item of items) byId.set(item.id, item);
  const changed: Changed[] = [];
  for (const [at, line] of lines.entries()) {
    const item = byId.get(lineId(line));
    if (!item) return undefined;
    // Compared in place: the line ends with the record.
    const record = encodeRecord(item, PLAIN);
    if (line.endsWith(record) && line.charCodeAt(line.length - record.length - 1) === TAB) continue;
    changed.push({ at, entry: item, record });
  }
  return changed.length > items.length * MAX_CHANGED ? undefined : changed;
}

/**
 * The entries that text edits read off the source's changed records (see
 * delta.ts) change, or undefined when an edit names an id the served list
 * does not hold (the source must then be read whole).
 */
export function changedByEdits(edits: TextEdit[], served: ServedList): Changed[] | undefined {
  const texts = new Map(edits.map((e) => [e.id, e.text]));
  const changed: Changed[] = [];
  for (const [at, line] of served.lines.entries()) {
    const text = texts.get(lineId(line));
    if (text === undefined) continue;
    const { id, counts } = new LineEntry(line);
    const entry: Entry = { id, text, counts, key: fold(text) };
    changed.push({ at, entry, record: encodeRecord(entry, PLAIN) });
  }
  return changed.length === texts.size ? changed : undefined;
}

/** The outputs that turn the served list into one with these entries changed, and the list's new state. */
export function* renderChanges(
  list: ListSpec, served: ServedList, changed: Changed[], groups: GroupVariants, options: RenderOptions,
): Generator<Output, ListState> {
  const folder = list.path;
  const { pageSize } = options;
  const { lines, state } = served;
  if (changed.length === 0) {
    yield { keep: folder, drop: [] };
    return state;
  }
  // The new order: the unchanged entries keep theirs, the changed ones are merged in.
  const changedAt = new Set(changed.map((c) => c.at));
  const oldKeys = changed.map((c) => lines[c.at]!.slice(0, lines[c.at]!.indexOf('\t')));
  changed = [...changed].sort((a, b) => compareLabels(a.entry, b.entry));
  const entries: Entry[] = [];
  const records: string[] = [];
  const next: string[] = [];
  let k = 0;
  /** The unchanged entry at position k of the served list. */
  const at = (): LineEntry | undefined => {
    while (changedAt.has(k)) k++;
    return k < lines.length ? new LineEntry(lines[k]!) : undefined;
  };
  const take = (e: LineEntry) => (entries.push(e), records.push(e.record), next.push(e.line), k++);
  let e = at();
  for (const c of changed) {
    while (e && compareLabels(e, c.entry) < 0) take(e), (e = at());
    entries.push(c.entry), records.push(c.record), next.push(`${c.entry.key}\t${c.record}`);
  }
  while (e) take(e), (e = at());
  // A page changes where an entry took another's place, or its own changed.
  const pages = new Set<number>();
  for (let i = 0; i < entries.length; i++) if (next[i] !== lines[i]) pages.add(Math.floor(i / pageSize) + 1);

  yield* renderPages(list, undefined, entries, pageSize, groups, pages);
  yield* renderItems(list, undefined, changed.map((c) => c.entry));
  const { buckets } = state.info;
  const dirtyBuckets = new Set(changed.map((c) => bucketOf(String(c.entry.id), buckets)));
  const { layout } = state.info;
  yield* renderBuckets(entries.map((_, i) => i), buckets, (i) => entries[i]!.id, (i) => records[i]!, (b) => bucketPath(folder, layout, buckets, b), dirtyBuckets);

  // The index: the parts the changed labels, old and new, fall in; all of it when the edit changes its layout.
  const shape = recordShape(list);
  const encode = (entry: Entry) => encodeRecord(entry, shape);
  const search = { ...options.search, pageSize };
  const touched = [...oldKeys, ...changed.map((c) => c.entry.key)];
  const before = directoryOf(state.metas, state.layout, search.directoryStarts);
  let index: SearchIndex = updateSearchIndex(entries, records, encode, search, state, touched)
    ?? buildSearchIndex(entries, records, encode, search);
  let dir = directoryOf(index.metas, index.layout, search.directoryStarts);
  // From one level to two or back, every head's file is named anew: the whole index is rendered.
  if (index.fresh.length < index.metas.length && (dir.heads === undefined) !== (before.heads === undefined)) {
    index = buildSearchIndex(entries, records, encode, search);
    dir = directoryOf(index.metas, index.layout, search.directoryStarts);
  }
  const info = { ...state.info, heads: undefined, ...searchInfo(dir) };
  yield* indexFiles(folder, layout, dir, index.fresh);
  const same = new Set(index.metas);
  yield { keep: folder, drop: indexPaths(folder, layout, before, state.metas.filter((m) => !same.has(m))) };
  yield* linesOutput(list.name, next.length, (i) => next[i]!);
  return { info, layout: index.layout, metas: index.metas };
}
