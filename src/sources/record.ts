// An entry as the record the client reads (`EntryRecord`, client/types.ts):
// what the Id buckets, the Term index and the build cache's lines hold of it,
// made here once for every stage that writes or compares one. Pure.
import type { ListSpec } from '../config/declaration.js';
import type { Entry } from './model.js';

/** What a list's records hold besides id, text and counts: children, fields (see EntryRecord). */
export interface RecordShape {
  children: boolean;
  fields: boolean;
}

export const recordShape = (list: ListSpec): RecordShape => ({
  children: list.children !== undefined,
  fields: list.fields.length > 0,
});

/** `[id, text, counts, children, fields]` with trailing zero counts dropped, and what the list has not left off (see EntryRecord). */
export function encodeRecord(e: Omit<Entry, 'key'>, shape: RecordShape): string {
  let end = e.counts.length;
  while (end > 0 && e.counts[end - 1] === 0) end--;
  const more = shape.children || shape.fields;
  const record: unknown[] = [e.id, e.text];
  if (end > 0 || more) record.push(end === e.counts.length ? e.counts : e.counts.slice(0, end));
  if (more) record.push((e.children ?? []).map((c) => [c.id, c.text]));
  if (shape.fields) record.push(e.fields ?? []);
  // One stringify makes one flat string: concatenated pieces would stay a
  // rope of them, three times the size, for every record of the list.
  return JSON.stringify(record);
}
