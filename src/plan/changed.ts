// What changed in a served list, entry by entry: from the text edits read
// off its source's changed records (sources/delta.ts), or by comparing all
// its items with the served ones. The plan updates a list in place from
// these (render/update.ts renders them); more than a few, and it is
// rendered afresh. Pure.
import { fold } from '../client/fold.js';
import type { ListSpec } from '../config/declaration.js';
import type { TextEdit } from '../sources/delta.js';
import type { Entry, Id } from '../sources/model.js';
import { encodeRecord } from '../sources/record.js';
import { LineEntry, lineId, type ListState } from './cache.js';

/**
 * Searchable lists of the phrase rule whose records are their id, text and
 * counts, in list order, ranked without exact matches: a record with
 * children depends on the children's source too, one with fields (and a
 * declared order or search text, which need them) on more than its label, an
 * exact match ranks a large prefix's results in a way scanHeads does not, and
 * the words rule's index is built whole (its pools and blocks span parts).
 */
export const updatable = (list: ListSpec): boolean =>
  list.search !== false && !!list.search.phrase && !list.search.exact && !list.children && list.fields.length === 0;

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
