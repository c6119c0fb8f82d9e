// Carries out a build's plan (plan.ts): each section of the tree kept from
// the served tree, changed in place, or rendered afresh; then the root files
// and the build cache. Pure: the writer alone touches the disk.
import { FORMAT, PAGED_LISTS, type ListInfo, type Manifest, type PagedList } from './client/types.js';
import { cacheLines, metaOutput, sourceFile, type CacheMeta } from './cache.js';
import type { HostOptions } from './hosts.js';
import { sortEntries } from './model.js';
import type { ListPlan, Plan } from './plan.js';
import { encodeRecord, renderList, renderLocations, renderRoot, type ListState, type RenderOptions } from './render.js';
import type { Output, TreeFile } from './tree-files.js';
import { renderChanges, updatable } from './update.js';
import type { Systems } from './validate.js';

export interface TreeInput {
  systems: Systems;
  /** The scripts at the tree's root: lookup-client.js and the host adapters. */
  scripts: TreeFile[];
  hosts: HostOptions;
  /** The sources of the lists that changed, for the cache's copies (see delta.ts). */
  sources: Partial<Record<PagedList, Uint8Array>>;
  /** What the build cache records besides the lists' states. */
  cache: Omit<CacheMeta, 'version' | 'lists' | 'countries'>;
}

/**
 * Every output of a build. The locations come first: many small files, quick
 * to render and slow to write, they keep a writer busy while the lists'
 * search indexes are computed. lookup.json comes last: the search index
 * starts are known only then.
 */
export function* renderTree(plan: Plan, input: TreeInput, options: RenderOptions): Generator<Output> {
  const { locations } = plan;
  if (locations.how === 'rendered') yield* renderLocations(locations.countries);
  else yield { keep: 'locations', drop: [] };
  const states = {} as Record<PagedList, ListState>;
  for (const list of PAGED_LISTS) {
    const listPlan = plan.lists[list];
    states[list] = yield* renderListPlan(list, listPlan, input.systems.ids, options);
    const source = input.sources[list];
    if (listPlan.how !== 'kept' && source && updatable(list)) yield { cache: sourceFile(list), text: source };
  }
  const lists = Object.fromEntries(PAGED_LISTS.map((l) => [l, states[l].info])) as Record<PagedList, ListInfo>;
  const countries = locations.how === 'rendered' ? locations.countries.length : locations.total;
  const manifest: Manifest = { format: FORMAT, pageSize: options.pageSize, systems: input.systems.list, lists: { ...lists, country: { total: countries } } };
  yield* renderRoot(manifest, input.scripts, input.hosts);
  yield metaOutput({ ...input.cache, countries, lists: states });
}

/** One list's outputs as its plan says, and its state for the next build. */
function* renderListPlan(list: PagedList, plan: ListPlan, systems: string[], options: RenderOptions): Generator<Output, ListState> {
  switch (plan.how) {
    case 'kept':
      yield { keep: list, drop: [] };
      return plan.state;
    case 'edited':
    case 'updated':
      return yield* renderChanges(list, plan.served, plan.changed, systems, options);
    case 'rendered': {
      const entries = sortEntries(plan.items);
      const records = entries.map((e) => encodeRecord(e, list === 'division'));
      const state = yield* renderList(list, entries, records, systems, options);
      if (updatable(list)) yield* cacheLines(list, entries, records);
      return state;
    }
  }
}
