// Carries out a build's plan (plan/plan.ts): each section of the tree kept from
// the served tree, changed in place, or rendered afresh; then the root files
// and the build cache. Pure: the writer alone touches the disk, and the
// records store a build hands it (write/spill.ts) its own temp file.
import { FORMAT, type ListInfo, type Manifest, type NestedInfo } from '../client/types.js';
import { groupSegment } from '../client/paths.js';
import { metaOutput, sourceFile, type CacheMeta, type ListState } from '../plan/cache.js';
import { apiOf } from '../config/api.js';
import type { Declaration } from '../config/declaration.js';
import type { SectionSpec } from '../config/sections.js';
import type { HostOptions } from './hosts.js';
import { sortInOrder } from '../sources/model.js';
import type { ListPlan, Plan } from '../plan/plan.js';
import { renderNest } from './nested.js';
import { renderList, renderRoot, type GroupVariants, type RenderOptions } from './render.js';
import type { Output, TreeFile } from '../tree-files.js';
import { renderChanges } from './update.js';
import { updatable } from '../plan/changed.js';
import type { Groups } from '../sources/validate.js';

export interface RenderInput {
  declaration: Declaration;
  sections: readonly SectionSpec[];
  groups: Groups;
  /** The scripts at the tree's root: lookup-client.js and the host adapters. */
  scripts: TreeFile[];
  hosts: HostOptions;
  /**
   * A section's plan, asked for just before the section is rendered, so that
   * a build reads and checks a section's sources then and holds one
   * section's rows at a time; with the sources of its lists that changed,
   * for the cache's copies (see delta.ts).
   */
  planOf: (section: SectionSpec) => SectionPlan;
  /** What the build cache records besides the lists' states, asked for once every section is rendered. */
  cache: () => Omit<CacheMeta, 'version' | 'lists' | 'totals' | 'nested'>;
}

/** One section's plan (plan/plan.ts) and the sources of its lists that changed. */
export interface SectionPlan {
  plan: Plan;
  sources: Record<string, Uint8Array>;
}

/**
 * Every output of a build, section by section as each one's plan says. The
 * nests come first: many small files, quick to render and slow to write,
 * they keep a writer busy while the paged lists' search indexes are
 * computed. lookup.json comes last: the search index starts are known only
 * then.
 */
export function* renderPlan(input: RenderInput, options: RenderOptions): Generator<Output> {
  const { declaration: d, sections } = input;
  const groups: GroupVariants = { segment: d.groups ? groupSegment(d.groups.param) : '', ids: input.groups.ids };
  const totals: Record<string, number> = {};
  /** The paged lists under a parent, by their section's root: a kept section's are the served build's. */
  const nested: Record<string, Record<string, NestedInfo>> = {};
  for (const section of sections) {
    const { name, shape } = section.root;
    if (shape === 'paged') continue;
    [totals[name], nested[name]] = yield* renderNestPlan(input, section, options);
    if (Object.keys(nested[name]).length === 0) delete nested[name];
  }
  const states: Record<string, ListState> = {};
  for (const section of sections)
    if (section.root.shape === 'paged')
      states[section.root.name] = yield* renderSection(input, section, groups, options);
  const lists: Record<string, ListInfo | { total: number }> = {};
  for (const [name, state] of Object.entries(states)) lists[name] = state.info;
  for (const [name, total] of Object.entries(totals)) lists[name] = { total };
  for (const infos of Object.values(nested)) Object.assign(lists, infos);
  const manifest: Manifest = {
    format: FORMAT,
    pageSize: options.pageSize,
    systems: input.groups.list,
    lists,
    api: apiOf(d),
  };
  yield* renderRoot(manifest, input.scripts, input.hosts);
  yield metaOutput({ ...input.cache(), totals, lists: states, nested });
}

// A section's plan is asked for and let go of in a function of its own: a
// generator's locals outlive the loop they are in, and the rows of a section
// rendered would be held while the next one is read.

/** A nest's outputs as its section's plan says: its rows, and what lookup.json says of its lists under each parent. */
function* renderNestPlan(
  input: RenderInput,
  section: SectionSpec,
  options: RenderOptions,
): Generator<Output, [number, Record<string, NestedInfo>]> {
  const plan = input.planOf(section).plan.nests[section.root.name]!;
  if (plan.how === 'rendered') {
    const total = plan.nodes.length;
    // Taken out of the plan, the nodes are the render's alone, to let go of as it goes (renderNest).
    return [total, yield* renderNest(input.declaration, section, plan.nodes.splice(0), options)];
  }
  yield { keep: section.name, drop: [] };
  return [plan.total, plan.nested];
}

/** A paged list's outputs as its section's plan says, with its source for the cache, and its state for the next build. */
function* renderSection(
  input: RenderInput,
  section: SectionSpec,
  groups: GroupVariants,
  options: RenderOptions,
): Generator<Output, ListState> {
  const { root } = section;
  const { plan, sources } = input.planOf(section);
  const listPlan = plan.lists[root.name]!;
  const state = yield* renderListPlan(section, listPlan, groups, options);
  const source = sources[root.name];
  if (listPlan.how !== 'kept' && source && updatable(root)) yield { cache: sourceFile(root.name), text: source };
  return state;
}

/** A paged list's outputs as its plan says, and its state for the next build. */
function* renderListPlan(
  section: SectionSpec,
  plan: ListPlan,
  groups: GroupVariants,
  options: RenderOptions,
): Generator<Output, ListState> {
  const { root } = section;
  switch (plan.how) {
    case 'kept':
      yield { keep: section.name, drop: [] };
      return plan.state;
    case 'edited':
    case 'updated':
      return yield* renderChanges(root, plan.served, plan.changed, groups, options);
    case 'rendered':
      // Taken out of the plan, the items are the render's alone, to let go of as it goes (renderList).
      return yield* renderList(
        root,
        section.children,
        sortInOrder(plan.items.splice(0), root.order),
        groups,
        options,
        updatable(root),
      );
  }
}
