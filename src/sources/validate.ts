// Stage 2, validate: typed rows → the model, for the lists a declaration
// names (docs/lists.md), collecting every error with its file and line: the
// checker, the groups and a paged list's entries here, a nest's nodes in
// nest.ts.
import type { Declaration, Delimiter, GroupsSpec, ListSpec } from '../config/declaration.js';
import { ReflistError } from '../errors.js';
import { compareStrings, fold } from '../client/fold.js';
import { labelled, sortLabels, type Entry, type Id, type Value } from './model.js';
import { readRowsFile } from './read.js';
import { groupSegment } from '../client/paths.js';
import { PLACEHOLDER } from '../config/fields.js';
import { rowTyper, type Column, type Row, type RowTyper } from './rows.js';
import { sharer } from '../shared.js';

/** Shared by every entry without counts: most have none, and an array each costs more than its entry. */
const NO_COUNTS: number[] = Object.freeze([]) as unknown as number[];

/** Keeps the first row of each key; each later one is an error, which `clash` words. */
function unique<K>(
  rows: Row[],
  file: string,
  key: (row: Row) => K,
  clash: (row: Row, first: Row) => string,
  errors: ReflistError[],
): Map<K, Row> {
  const seen = new Map<K, Row>();
  for (const row of rows) {
    const k = key(row);
    const first = seen.get(k);
    if (first) errors.push(new ReflistError('DUPLICATE_KEY', clash(row, first), { file, line: row.line }));
    else seen.set(k, row);
  }
  return seen;
}

const duplicate = (what: (row: Row) => string) => (row: Row, first: Row) =>
  `duplicate ${what(row)} (first on line ${first.line})`;

/** Two ids that differ only by case, in words. */
export const caseClash = (id: string, first: string, line: number) =>
  `${id} differs only by case from ${first} on line ${line}: a case-insensitive host (macOS, Windows, some S3 front ends) serves one's file for the other's; rename one`;

/**
 * The rows whose ids (values[at]) are unique within their parent (the
 * `scope` of a row), ignoring case when `caseless`: string ids that differ
 * only by case name one file on a case-insensitive host, which would serve
 * one's file for the other's.
 */
export function uniqueIds(
  rows: Row[],
  file: string,
  at: number,
  caseless: boolean,
  what: (row: Row) => string,
  errors: ReflistError[],
  scope?: (row: Row) => string,
): Map<unknown, Row> {
  const id = caseless ? (r: Row) => (r.values[at] as string).toLowerCase() : (r: Row) => r.values[at];
  const key = scope ? (r: Row) => `${scope(r)}/${id(r)}` : id;
  const clash = (r: Row, first: Row) =>
    r.values[at] === first.values[at] ? duplicate(what)(r, first) : caseClash(what(r), what(first), first.line);
  return unique(rows, file, key, clash, errors);
}

/** What laterRows reads of a list's rows, by index in the order read. */
export interface ReadRows {
  count: number;
  /** Compares two rows' keys: 0 when equal, else any order that is one. */
  compare: (a: number, b: number) => number;
  id: (i: number) => Id;
  line: (i: number) => number;
  /** Row i's id, as an error names it. */
  what: (i: number, id: Id) => string;
}

/**
 * The rows of a list, read whole, whose key a row before them has, each
 * with its error pushed: a duplicate, or an id that differs from the
 * first's only by case. Found by sorting the rows' indexes by key once all
 * are read, not by a Map of every row's key as rows come: that Map weighed
 * some 46 MB a million rows under a parent (docs/architecture.md, Memory).
 */
export function laterRows(file: string, errors: ReflistError[], rows: ReadRows): Set<number> {
  const { count, compare, id, line, what } = rows;
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  // By key, then in the order read: a key's first row leads its run.
  order.sort((a, b) => compare(a, b) || a - b);
  const later = new Set<number>();
  for (let k = 1, first = order[0]!; k < count; k++) {
    const i = order[k]!;
    if (compare(first, i) !== 0) {
      first = i;
      continue;
    }
    later.add(i);
    const [was, is] = [id(first), id(i)];
    const message =
      was === is
        ? `duplicate ${what(i, is)} (first on line ${line(first)})`
        : caseClash(what(i, is), what(i, was), line(first));
    errors.push(new ReflistError('DUPLICATE_KEY', message, { file, line: line(i) }));
  }
  return later;
}

/** Compares rows by id (`ids`, by row), ignoring case when `caseless`: laterRows' key of a list's rows. */
export function idOrder(ids: Id[], caseless: boolean): (a: number, b: number) => number {
  if (!caseless) return (a, b) => (ids[a] as number) - (ids[b] as number);
  const lower = ids.map((id) => (id as string).toLowerCase());
  return (a, b) => compareStrings(lower[a]!, lower[b]!);
}

/** Integers pushed one at a time into a typed array: a row's line, 4 B where an array's element is 8. */
export class Lines {
  private values = new Int32Array(1024);
  private length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  at(i: number): number {
    return this.values[i]!;
  }
}

/** A list's rows (read as `c` says) whose ids are unique, by id; each later row of an id an error. */
export function uniqueRows(check: Checker, list: ListSpec, c: ListColumns): Map<unknown, Row> {
  const file = list.source.file;
  const what = (r: Row) => `${list.id.column} ${r.values[c.id]}`;
  return uniqueIds(check.rows(file, c.columns), file, c.id, caseless(list), what, check.errors);
}

/** Whether a list's ids are compared ignoring case: string ids are path segments. */
export const caseless = (list: ListSpec) => list.id.type === 'string';

/** Where the sources a build checks are: by file name, the path of each that exists, and how it is delimited. */
export type SourcePaths = Map<string, { path: string; delimiter: Delimiter | undefined }>;

/** What a list reads from each of its rows: the parent columns, the id, the label's columns, the fields. */
export interface ListColumns {
  columns: Column[];
  parents: number;
  id: number;
  label: (row: Row) => string;
  fields: (row: Row) => Value[] | undefined;
}

/** Whether JSON writes a value as it is: every value but an infinite number. */
const inJson = (value: Value) => typeof value !== 'number' || Number.isFinite(value);

/** The columns a list reads, with the parents' (their kinds are those ancestors' ids), and how its label and fields are read off a row. */
export function listColumns(list: ListSpec, parentKinds: ListSpec[]): ListColumns {
  const parents = list.parent?.columns ?? [];
  const columns: Column[] = parents.map((name, i) => ({ name, kind: { is: 'id', list: parentKinds[i]! } }));
  const add = (column: Column) => {
    const at = columns.findIndex((c) => c.name.toLowerCase() === column.name.toLowerCase());
    return at >= 0 ? at : columns.push(column) - 1;
  };
  const id = add({ name: list.id.column, kind: { is: 'id', list } });
  const labelAt = new Map(list.label.columns.map((c) => [c, add({ name: c, kind: { is: 'text' } })]));
  const fieldAt = list.fields.map((field) => add({ name: field.column, kind: { is: 'field', field } }));
  const single =
    list.label.template === `{${list.label.columns[0]}}` ? labelAt.get(list.label.columns[0]!)! : undefined;
  // A field's values often repeat (a city, a country code): the items share one string of each, not one a row.
  const sharedString = sharer<string>();
  const intern = (value: Value): Value => (typeof value === 'string' ? sharedString(value, value) : value);
  // So do their rows' fields as a whole (a rank and a level): the items share
  // one array of each, 64 B a row otherwise. Equal as JSON is equal here (the
  // fields reach the tree as JSON, and an order compares -0 and 0 alike) but
  // for a number too large for JSON (1e999), which it writes as null.
  const sharedFields = sharer<Value[]>();
  const fieldsOf = (row: Row): Value[] => {
    const values = fieldAt.map((i) => intern(row.values[i]!));
    return values.every(inJson) ? sharedFields(JSON.stringify(values), values) : values;
  };
  return {
    columns,
    parents: parents.length,
    id,
    label:
      single !== undefined
        ? (row) => row.values[single] as string
        : (row) => list.label.template.replace(PLACEHOLDER, (_, c: string) => String(row.values[labelAt.get(c)!])),
    fields: list.fields.length === 0 ? () => undefined : fieldsOf,
  };
}

/** Checks the sources of the sections a build makes again, pushing every error found. */
export class Checker {
  /** The declared lists by name. */
  readonly lists: Map<string, ListSpec>;

  constructor(
    readonly declaration: Declaration,
    readonly sources: SourcePaths,
    readonly errors: ReflistError[] = [],
  ) {
    this.lists = new Map(declaration.lists.map((l) => [l.name, l]));
  }

  list(name: string): ListSpec {
    return this.lists.get(name)!;
  }

  /**
   * Reads a source and hands `take` each row typed by `columns` as it is read:
   * only what a list keeps of a row outlives it. A file two lists read is read
   * twice, which costs less than its rows held as strings between them. An
   * absent source has no rows.
   */
  eachRow(file: string, columns: readonly Column[], take: (row: Row) => void): void {
    const source = this.sources.get(file);
    if (!source) return;
    let typer: RowTyper | undefined;
    let opened = false;
    const open = (header: string[]) => {
      opened = true;
      typer = rowTyper(file, header, columns, this.errors);
      return (cells: string[], line: number) => {
        const row = typer?.type(cells, line);
        if (row) take(row);
      };
    };
    this.errors.push(...readRowsFile(file, source.path, open, source.delimiter));
    // A file without a line has no header: each column is missing.
    if (!opened) rowTyper(file, [], columns, this.errors);
    typer?.end();
  }

  rows(file: string, columns: readonly Column[]): Row[] {
    const rows: Row[] = [];
    this.eachRow(file, columns, (row) => rows.push(row));
    return rows;
  }

  missing(file: string, line: number, what: string): void {
    this.errors.push(new ReflistError('UNKNOWN_REFERENCE', `unknown ${what}`, { file, line }));
  }
}

export interface Groups {
  /** Sorted ids: counts[i] belongs to ids[i]. */
  ids: string[];
  list: { id: string; text: string }[];
}

/** The groups of a declaration without any. */
export const NO_GROUPS: Groups = { ids: [], list: [] };

/** What a group is called in messages: its parameter, in lower case (`system`). */
const groupWord = (groups: GroupsSpec) => groupSegment(groups.param);

export function validateGroups(check: Checker): Groups {
  const groups = check.declaration.groups;
  if (!groups) return NO_GROUPS;
  const file = groups.source.file;
  const word = groupWord(groups);
  const rows = check.rows(file, [
    { name: groups.id, kind: { is: 'group' } },
    { name: groups.label, kind: { is: 'text' } },
  ]);
  const byId = uniqueIds(rows, file, 0, true, (r) => `${word} id "${r.values[0]}"`, check.errors);
  const ids = [...byId.values()].map((r) => r.values[0] as string).sort();
  return { ids, list: ids.map((id) => ({ id, text: byId.get(id.toLowerCase())!.values[1] as string })) };
}

export const idKey = (id: Value) => String(id);

/**
 * A paged list's items in source order, unsorted (sortLabels orders them),
 * with their folded labels, children and counts. Each row becomes its item as
 * it is read; a later row with the id of one before is an error.
 */
export function validateList(check: Checker, list: ListSpec, groups: Groups): Entry[] {
  const file = list.source.file;
  const read = listColumns(list, []);
  const keyOf = caseless(list) ? (id: Id) => (id as string).toLowerCase() : (id: Id) => id;
  let entries: Entry[] = [];
  const lines = new Lines();
  check.eachRow(file, read.columns, (r) => {
    const id = r.values[read.id] as Id;
    const fields = read.fields(r);
    const text = read.label(r);
    // Each key in the literal, none spread or added later: an object given a property after it is made keeps it apart, in a store of its own (39 B an item).
    const folded = fold(text);
    entries.push(
      fields ? { id, text, key: folded, counts: NO_COUNTS, fields } : { id, text, key: folded, counts: NO_COUNTS },
    );
    lines.push(r.line);
  });
  const later = laterRows(file, check.errors, {
    count: entries.length,
    compare: idOrder(
      entries.map((e) => e.id),
      caseless(list),
    ),
    id: (i) => entries[i]!.id,
    line: (i) => lines.at(i),
    what: (_, id) => `${list.id.column} ${id}`,
  });
  if (later.size > 0) entries = entries.filter((_, i) => !later.has(i));
  /** The item of an id as a row names it: the same id, not one that differs by case. */
  let byKey: Map<Id, Entry> | undefined;
  const itemOf = (id: Id): Entry | undefined => {
    byKey ??= new Map(entries.map((e) => [keyOf(e.id), e]));
    const item = byKey.get(keyOf(id));
    return item?.id === id ? item : undefined;
  };
  if (list.children) {
    const child = check.list(list.children.list);
    const c = listColumns(child, [list]);
    const childFile = child.source.file;
    const children = uniqueRows(check, child, c);
    for (const r of children.values()) {
      const parent = itemOf(r.values[0] as Id);
      if (!parent) check.missing(childFile, r.line, `${child.parent!.columns[0]} ${r.values[0]}`);
      else (parent.children ??= []).push(labelled({ id: r.values[c.id] as Id, text: c.label(r) }));
    }
    for (const item of entries) item.children = sortLabels(item.children ?? []);
  }
  const counts = list.counts;
  const spec = check.declaration.groups;
  if (counts && spec) {
    const countsFile = counts.source.file;
    const word = groupWord(spec);
    const groupIndex = new Map(groups.ids.map((id, i) => [id, i]));
    const columns: Column[] = [
      { name: counts.group, kind: { is: 'group' } },
      { name: counts.id, kind: { is: 'id', list } },
      { name: counts.count, kind: { is: 'count' } },
    ];
    const counted = unique(
      check.rows(countsFile, columns),
      countsFile,
      (r) => `${r.values[0]}/${r.values[1]}`,
      duplicate((r) => `count of ${word} "${r.values[0]}" for ${counts.id} ${r.values[1]}`),
      check.errors,
    );
    for (const r of counted.values()) {
      const [group, id, count] = r.values as [string, Id, number];
      const g = groupIndex.get(group);
      const item = itemOf(id);
      if (g === undefined) check.missing(countsFile, r.line, `${word} "${group}"`);
      if (!item) check.missing(countsFile, r.line, `${list.name} ${counts.id} ${id}`);
      if (g !== undefined && item) {
        if (item.counts === NO_COUNTS) item.counts = groups.ids.map(() => 0);
        item.counts[g] = count;
      }
    }
  }
  return entries;
}
