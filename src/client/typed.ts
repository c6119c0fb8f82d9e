// The types a project's lists plug into (`reflist types` writes them,
// docs/lists.md, "Types for your lists"): what each list is, and the body a
// request URL answers with under them. Types only: a client made with them
// runs the same code as one made without.
import type { Envelope, Grid } from './types.js';

/** What `reflist types` declares of one list. */
export interface ListType {
  shape: 'paged' | 'whole' | 'grid';
  /** The segments of the list's path, `string` where a parent's id goes: `['family', string, 'genus.json']`. */
  path: string[];
  /** Lists with `"items": true`: the segments of an item's own file, `['family', `${string}.json`]`. */
  itemPath?: string[];
  /** An item as the list answers it: its declared keys, `count` where it has counts, its children. */
  item: object;
}

/** A project's lists by name (the `Lists` of reflist-lists.d.ts). */
export type ListTypes<Lists> = { [Name in keyof Lists]: ListType };

/** A URL's path: what comes before its query. */
type PathOf<Url extends string> = Url extends `${infer Path}?${string}` ? Path : Url;

/** A path's segments: matched one by one, so that an id (`${string}`) never spans a `/`. */
type Segments<Path extends string> = Path extends `${infer Head}/${infer Rest}` ? [Head, ...Segments<Rest>] : [Path];

/** Whether segments may be a file at `pattern`: they fit it, or (a URL built from wider types) it fits them. */
type Fits<S, Pattern> = S extends Pattern ? true : Pattern extends S ? true : false;

/** A list file's body: a grid's rows, or the envelope of the other shapes. */
export type ListBody<L extends ListType> = L['shape'] extends 'grid' ? Grid<L['item']> : Envelope<L['item']>;

/** What a list answers at these segments: its body at its path, its item at an item's file. */
type BodyIn<L extends ListType, S> =
  | (Fits<S, L['path']> extends true ? ListBody<L> : never)
  | (L extends { itemPath: infer P } ? (Fits<S, P> extends true ? L['item'] : never) : never);

/** A list's item where it has files of its own. */
type FileItem<L extends ListType> = L extends { itemPath: string[] } ? L['item'] : never;

/**
 * The body a 200 answers `Url` with (a path below the tree, as `request`
 * takes it): the envelope or grid of the list at that path, or the item of an
 * item's file; any list's body for a URL known only as a string; never for a
 * path no list has.
 */
export type BodyAt<Lists extends ListTypes<Lists>, Url extends string> = Url extends string // one URL at a time
  ? string extends Url
    ? { [Name in keyof Lists]: ListBody<Lists[Name]> | FileItem<Lists[Name]> }[keyof Lists]
    : PathOf<Url> extends `/${infer Path}`
      ? { [Name in keyof Lists]: BodyIn<Lists[Name], Segments<Path>> }[keyof Lists]
      : never
  : never;

/** The URL itself when a list answers it; else a message the URL cannot be assigned to, so that a mistyped path fails to compile. */
export type RequestUrl<Lists extends ListTypes<Lists>, Url extends string> = [BodyAt<Lists, Url>] extends [never]
  ? `${Url}: no declared list has this path`
  : Url;
