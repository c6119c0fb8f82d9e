// The whole tree, section by section: each section is rendered from its
// sources, updated from the previous build's state, or kept from the served
// tree when its sources did not change. Pure: what the previous build left is
// passed in.
import { FORMAT, PAGED_LISTS, type ListInfo, type Manifest, type PagedList } from './client/types.js';
import { cacheLines, metaOutput, sourceFile, type CacheMeta } from './cache.js';
import type { TextEdit } from './delta.js';
import { sortEntries, type CountryNode, type ListItem } from './model.js';
import { encodeRecord, renderList, renderLocations, renderRoot, type ListState, type RenderOptions } from './render.js';
import type { Output, Section, TreeFile } from './tree-files.js';
import type { HostOptions } from './hosts.js';
import { patchList, updatable, updateList, type Served } from './update.js';
import type { Systems } from './validate.js';

export interface TreeInput {
  systems: Systems;
  /** The locations, or undefined to keep the served ones. */
  countries?: CountryNode[];
  /** Each list's sources, or undefined to keep the served list. */
  lists: Partial<Record<PagedList, ListInput>>;
  /** The scripts at the tree's root: lookup-client.js and the host adapters. */
  scripts: TreeFile[];
  hosts: HostOptions;
  /** What the build cache records besides the lists' states. */
  cache: Omit<CacheMeta, 'version' | 'lists' | 'countries'>;
}

/**
 * A list's items (read and checked when asked), and the text edits that turn
 * the served list into them when they are known from the source's bytes, as
 * the file the cache keeps a copy of.
 */
export interface ListInput {
  items: () => ListItem[];
  edits?: TextEdit[];
  source?: Uint8Array;
}

/**
 * How a build made each section: kept from the served tree (its sources did
 * not change), edited from the records that changed in its source, updated
 * from all its items against the served list, or rendered afresh.
 */
export type How = 'kept' | 'edited' | 'updated' | 'rendered';

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
export function* renderTree(
  input: TreeInput, options: RenderOptions, previous?: Previous, how: Partial<Record<Section, How>> = {},
): Generator<Output> {
  if (input.countries) yield* renderLocations(input.countries), (how.locations = 'rendered');
  else yield { keep: 'locations', drop: [] }, (how.locations = 'kept');
  const states = {} as Record<PagedList, ListState>;
  for (const list of PAGED_LISTS) {
    const source = input.lists[list];
    const served = previous?.meta.lists[list];
    if (!source) {
      yield { keep: list, drop: [] };
      states[list] = served!;
      how[list] = 'kept';
      continue;
    }
    const lines = served && previous?.lines(list);
    [states[list], how[list]] = yield* renderListFrom(list, source, input.systems.ids, options, served && lines ? { state: served, lines } : undefined);
    if (source.source && updatable(list)) yield { cache: sourceFile(list), text: source.source };
  }
  const lists = Object.fromEntries(PAGED_LISTS.map((l) => [l, states[l].info])) as Record<PagedList, ListInfo>;
  const countries = input.countries?.length ?? previous!.meta.countries;
  const manifest: Manifest = { format: FORMAT, pageSize: options.pageSize, systems: input.systems.list, lists: { ...lists, country: { total: countries } } };
  yield* renderRoot(manifest, input.scripts, input.hosts);
  yield metaOutput({ ...input.cache, countries, lists: states });
}

/** A list whose sources changed: updated in place when it can be, else rendered afresh (with its cache lines). */
function* renderListFrom(
  list: PagedList, source: ListInput, systems: string[], options: RenderOptions, served?: Served,
): Generator<Output, [ListState, How]> {
  const patch = served && source.edits && patchList(list, source.edits, served, systems, options);
  if (patch) return [yield* patch, 'edited'];
  const items = source.items();
  const update = served && updateList(list, items, served, systems, options);
  if (update) return [yield* update, 'updated'];
  const entries = sortEntries(items);
  const records = entries.map((e) => encodeRecord(e, list === 'division'));
  const state = yield* renderList(list, entries, records, systems, options);
  if (updatable(list)) yield* cacheLines(list, entries, records);
  return [state, 'rendered'];
}
