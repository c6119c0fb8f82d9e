// The plan of a build, as a value: for each section of the tree, what to do
// with it. Pure: the build reads and checks every source the plan needs
// before making it, so carrying it out (render/plan.ts) can fail only on the disk.
// See docs/incremental.md.
import type { Entry, Node } from '../sources/model.js';
import type { ListState } from './cache.js';
import { changedByItems, type Changed, type ServedList } from './changed.js';
import type { ListSpec } from '../config/declaration.js';
import type { NestedInfo } from '../client/types.js';

/**
 * What to do with one paged list: keep it as served (its sources did not
 * change), apply the entries that changed to the served list (`edited` when
 * they were read off the source's changed records, `updated` when found by
 * comparing all its items), or render it afresh from its items.
 */
export type ListPlan =
  | { how: 'kept'; state: ListState }
  | { how: 'edited' | 'updated'; served: ServedList; changed: Changed[] }
  | { how: 'rendered'; items: Entry[] };

/**
 * What to do with a nest (a section of whole and grid lists): keep it (with its root's
 * total and what lookup.json says of the paged lists under it), or render it
 * whole from its root's items.
 */
export type NestPlan =
  | { how: 'kept'; total: number; nested: Record<string, NestedInfo> }
  | { how: 'rendered'; nodes: Node[] };

/** By root list name: a paged list's plan, or a nest's. */
export interface Plan {
  lists: Record<string, ListPlan>;
  nests: Record<string, NestPlan>;
}

/** How a build made a section: what its report says. */
export type How = ListPlan['how'];

/**
 * What the build found of a list whose sources changed: the entries its text
 * edits change in the served list (see changedByEdits), or all its items,
 * read and checked.
 */
export type ListChange = { served: ServedList; changed: Changed[] } | { items: Entry[] };

/** What the plan needs of the served tree: its lists' states and entries, and its nests' totals. */
export interface Served {
  states: Record<string, ListState>;
  /** The entries in list order (cache lines) of the lists that may be changed in place. */
  lines: Record<string, string[]>;
  totals: Record<string, number>;
  /** The paged lists under a parent, by their section's root list (none when no section has any). */
  nested?: Record<string, Record<string, NestedInfo>>;
}

/**
 * The plan for the root lists `roots`: `nests` holds the nests whose
 * sources changed, `lists` what changed of each paged list whose sources did
 * (a root either leaves out is kept), `served` what the previous build left
 * (none on a first build).
 */
export function planBuild(
  roots: readonly ListSpec[],
  nests: Record<string, Node[]>,
  lists: Record<string, ListChange>,
  served: Served | undefined,
): Plan {
  const plan: Plan = { lists: {}, nests: {} };
  for (const root of roots) {
    const { name } = root;
    if (root.shape !== 'paged') {
      const nodes = nests[name];
      if (nodes) plan.nests[name] = { how: 'rendered', nodes };
      else if (served?.totals[name] !== undefined)
        plan.nests[name] = { how: 'kept', total: served.totals[name], nested: served.nested?.[name] ?? {} };
      else throw new Error(`planBuild: ${name} is unchanged but the served tree has no total for it`);
      continue;
    }
    const change = lists[name];
    const state = served?.states[name];
    if (!change) {
      if (!state) throw new Error(`planBuild: list ${name} is unchanged but the served tree has no state for it`);
      plan.lists[name] = { how: 'kept', state };
    } else if ('changed' in change) plan.lists[name] = { how: 'edited', ...change };
    else {
      const lines = served?.lines[name];
      const was = state && lines && { state, lines };
      const changed = was && changedByItems(root, change.items, was);
      plan.lists[name] =
        was && changed ? { how: 'updated', served: was, changed } : { how: 'rendered', items: change.items };
    }
  }
  return plan;
}
