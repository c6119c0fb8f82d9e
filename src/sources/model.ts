// The validated sources, sorted in list order (docs/contract.md §2): what every later
// stage renders from. Nothing here touches the disk.
import { compareInOrder, compareLabels, fold } from '../client/fold.js';
import type { Id } from '../client/types.js';
import type { OrderKey } from '../config/declaration.js';

/** An item's id is the client's (client/types.ts): an integer, or a string for a list declared with string ids. */
export type { Id };
/** A field's value on an item (docs/lists.md, Labels and fields). */
/** A typed cell: null only in an optional field's empty cell. */
export type Value = number | string | null;

export interface Labelled {
  id: Id;
  text: string;
  /** fold(text), computed once. */
  key: string;
}

/** An item of a paged list as the sources give it; counts[i] belongs to groups[i]. */
export interface ListItem {
  id: Id;
  text: string;
  counts: number[];
  /** Lists with children only, in list order. */
  children?: Labelled[];
  /** Lists with fields only, in declared order. */
  fields?: Value[];
}

/** An item with its folded label. */
export interface Entry extends ListItem, Labelled {}

/** An item of a whole or grid list, with the items of the lists under it, by list name, each in list order. */
export interface Node extends Labelled {
  fields?: Value[];
  nested: Record<string, Node[]>;
  /** An item of a paged list under a parent: none (an empty array), so that the node is its entry too. */
  counts?: number[];
}

export function labelled<T extends { id: Id; text: string }>(row: T): T & { key: string } {
  return { ...row, key: fold(row.text) };
}

/** Sorts in list order, in place (docs/contract.md §2). */
export function sortLabels<T extends Labelled>(items: T[]): T[] {
  return items.sort(compareLabels);
}

/**
 * Sorts in a list's declared order, in place (docs/lists.md, Order): by each
 * order key, numbers by value and strings by code unit (so an empty string
 * first ascending), then in list order; in list order alone without keys.
 */
export function sortInOrder<T extends Labelled & { fields?: Value[] }>(
  items: T[],
  order: readonly OrderKey[] | undefined,
): T[] {
  return items.sort(compareInOrder(order?.map(({ field, descending }) => [field, descending] as const)));
}
