// The whole tree, section by section: each section is rendered from its
// sources, updated from the previous build's state, or kept from the served
// tree when its sources did not change. Pure: what the previous build left is
// passed in.
import { FORMAT, PAGED_LISTS, type ListInfo, type Manifest, type PagedList } from './client/types.js';
import { cacheLines, metaOutput, type CacheMeta } from './cache.js';
import { sortEntries, type CountryNode, type ListItem } from './model.js';
import { encodeRecord, renderList, renderLocations, renderRoot, type ListState, type Output, type RenderOptions } from './render.js';
import { updatable, updateList } from './update.js';
import type { Systems } from './validate.js';

export interface TreeInput {
  systems: Systems;
  /** The locations, or undefined to keep the served ones. */
  countries?: CountryNode[];
  /** Each list's items, or undefined to keep the served list. */
  lists: Partial<Record<PagedList, ListItem[]>>;
  /** The text of lookup-client.js. */
  client: string;
  /** What the build cache records besides the lists' states. */
  cache: Omit<CacheMeta, 'version' | 'lists' | 'countries'>;
}

/** The served tree's cache, and its lists' lines when there are any. */
export interface Previous {
  meta: CacheMeta;
  lines(list: PagedList): string[] | undefined;
}

/**
 * Every output of a build. The locations come first: many small files, quick
 * to render and slow to write, they keep a writer busy while the lists'
 * search indexes are computed. lookup.json comes last: the search index
 * starts are known only then.
 */
export function* renderTree(input: TreeInput, options: RenderOptions, previous?: Previous): Generator<Output> {
  if (input.countries) yield* renderLocations(input.countries);
  else yield { keep: 'locations', drop: [] };
  const states = {} as Record<PagedList, ListState>;
  for (const list of PAGED_LISTS) {
    const items = input.lists[list];
    const served = previous?.meta.lists[list];
    if (!items) {
      yield { keep: list, drop: [] };
      states[list] = served!;
    } else states[list] = yield* renderListFrom(list, items, input.systems.ids, options, served && previous, served);
  }
  const lists = Object.fromEntries(PAGED_LISTS.map((l) => [l, states[l].info])) as Record<PagedList, ListInfo>;
  const countries = input.countries?.length ?? previous!.meta.countries;
  const manifest: Manifest = { format: FORMAT, pageSize: options.pageSize, systems: input.systems.list, lists: { ...lists, country: { total: countries } } };
  yield* renderRoot(manifest, input.client);
  yield metaOutput({ ...input.cache, countries, lists: states });
}

/** A list whose sources changed: updated in place when it can be, else rendered afresh (with its cache lines). */
function* renderListFrom(
  list: PagedList, items: ListItem[], systems: string[], options: RenderOptions, previous?: Previous, served?: ListState,
): Generator<Output, ListState> {
  const lines = served && previous?.lines(list);
  const update = lines && updateList(list, items, served, lines, systems, options);
  if (update) return yield* update;
  const entries = sortEntries(items);
  const records = entries.map((e) => encodeRecord(e, list === 'division'));
  const state = yield* renderList(list, entries, records, systems, options);
  if (updatable(list)) yield* cacheLines(list, entries, records);
  return state;
}
