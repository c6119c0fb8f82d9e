// The plan of a build, as a value: for each section of the tree, what to do
// with it. Pure: the build reads and checks every source the plan needs
// before making it, so carrying it out (tree.ts) can fail only on the disk.
// See docs/incremental.md.
import { PAGED_LISTS, type PagedList } from './client/types.js';
import type { CountryNode, ListItem } from './model.js';
import type { ListState } from './render.js';
import { changedByItems, type Changed, type ServedList } from './update.js';

/**
 * What to do with one list: keep it as served (its sources did not change),
 * apply the entries that changed to the served list (`edited` when they were
 * read off the source's changed records, `updated` when found by comparing
 * all its items), or render it afresh from its items.
 */
export type ListPlan =
  | { how: 'kept'; state: ListState }
  | { how: 'edited' | 'updated'; served: ServedList; changed: Changed[] }
  | { how: 'rendered'; items: ListItem[] };

export type LocationsPlan = { how: 'kept'; total: number } | { how: 'rendered'; countries: CountryNode[] };

export interface Plan {
  locations: LocationsPlan;
  lists: Record<PagedList, ListPlan>;
}

/** How a build made a section: what its report says. */
export type How = ListPlan['how'];

/**
 * What the build found of a list whose sources changed: the entries its text
 * edits change in the served list (see changedByEdits), or all its items,
 * read and checked.
 */
export type ListChange = { served: ServedList; changed: Changed[] } | { items: ListItem[] };

/** What the plan needs of the served tree: its lists' states and entries, and its number of countries. */
export interface Served {
  states: Partial<Record<PagedList, ListState>>;
  /** The entries in list order (cache lines) of the lists that may be changed in place. */
  lines: Partial<Record<PagedList, string[]>>;
  countries: number;
}

/**
 * The plan: `countries` are the locations when their sources changed, `lists`
 * what changed of each list whose sources did (a list it leaves out is kept),
 * `served` what the previous build left (none on a first build).
 */
export function planBuild(
  countries: CountryNode[] | undefined, lists: Partial<Record<PagedList, ListChange>>, served: Served | undefined,
): Plan {
  const plan = (list: PagedList): ListPlan => {
    const change = lists[list];
    const state = served?.states[list];
    if (!change) {
      if (!state) throw new Error(`planBuild: list ${list} is unchanged but the served tree has no state for it`);
      return { how: 'kept', state };
    }
    if ('changed' in change) return { how: 'edited', ...change };
    const lines = served?.lines[list];
    const was = state && lines && { state, lines };
    const changed = was && changedByItems(list, change.items, was);
    return was && changed ? { how: 'updated', served: was, changed } : { how: 'rendered', items: change.items };
  };
  const locations = (): LocationsPlan => {
    if (countries) return { how: 'rendered', countries };
    if (!served) throw new Error('planBuild: the locations are unchanged but there is no served tree');
    return { how: 'kept', total: served.countries };
  };
  return {
    locations: locations(),
    lists: Object.fromEntries(PAGED_LISTS.map((list) => [list, plan(list)])) as Record<PagedList, ListPlan>,
  };
}
