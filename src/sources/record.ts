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

/**
 * A list's records by entry, in list order: every stage that writes one
 * reads it here. Held as strings, or, for a list whose records outgrow a
 * build's memory, in a file of their own (write/spill.ts), read back a
 * record at a time.
 */
export interface Records {
  readonly length: number;
  /** Entry e's record. */
  at(e: number): string;
  /** The UTF-8 bytes of entry e's record. */
  bytes(e: number): number;
  /** Lets go of what holds them (a spilled list's file); the records are not read again. */
  close(): void;
}

/** Makes a list's `count` records, each with `record(e)`, in order: held, or spilled (write/spill.ts). */
export type RecordStore = (count: number, record: (e: number) => string) => Records;

/** Records held as the strings they are. */
export function heldRecords(records: readonly string[]): Records {
  return {
    length: records.length,
    at: (e) => records[e]!,
    bytes: (e) => Buffer.byteLength(records[e]!),
    close() {},
  };
}

/** The store that holds every record: a build's own unless it spills (BuildConfig). */
export const holdAll: RecordStore = (count, record) => heldRecords(Array.from({ length: count }, (_, e) => record(e)));
