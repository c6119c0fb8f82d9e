// Carries out a build's plan (plan.ts): each section of the tree kept from
// the served tree, changed in place, or rendered afresh; then the root files
// and the build cache. Pure: the writer alone touches the disk.
import { FORMAT, type ListInfo, type Manifest } from '../client/types.js';
import { cacheLines, metaOutput, sourceFile, type CacheMeta } from '../plan/cache.js';
import { apiOf } from '../config/api.js';
import type { Declaration } from '../config/declaration.js';
import { sectionsOf, type SectionSpec } from '../config/sections.js';
import type { HostOptions } from './hosts.js';
import { sortInOrder } from '../sources/model.js';
import type { ListPlan, Plan } from '../plan/plan.js';
import { encodeRecord, recordShape, renderList, renderRoot, renderTreeSection, type GroupVariants, type ListState, type RenderOptions } from './render.js';
import type { Output, TreeFile } from '../tree-files.js';
import { renderChanges, updatable } from './update.js';
import type { Groups } from '../sources/validate.js';

export interface TreeInput {
  declaration: Declaration;
  groups: Groups;
  /** The scripts at the tree's root: lookup-client.js and the host adapters. */
  scripts: TreeFile[];
  hosts: HostOptions;
  /** The sources of the lists that changed, for the cache's copies (see delta.ts). */
  sources: Record<string, Uint8Array>;
  /** What the build cache records besides the lists' states. */
  cache: Omit<CacheMeta, 'version' | 'lists' | 'totals'>;
}

/**
 * Every output of a build. The sections of whole and grid lists come first:
 * many small files, quick to render and slow to write, they keep a writer busy
 * while the paged lists' search indexes are computed. lookup.json comes last:
 * the search index starts are known only then.
 */
export function* renderTree(plan: Plan, input: TreeInput, options: RenderOptions): Generator<Output> {
  const { declaration: d } = input;
  const sections = sectionsOf(d);
  const groups: GroupVariants = { segment: d.groups?.param.toLowerCase() ?? '', ids: input.groups.ids };
  const totals: Record<string, number> = {};
  for (const section of sections) {
    const treePlan = plan.trees[section.root.name];
    if (!treePlan) continue;
    if (treePlan.how === 'rendered') yield* renderTreeSection(d, section, treePlan.nodes);
    else yield { keep: section.name, drop: [] };
    totals[section.root.name] = treePlan.how === 'rendered' ? treePlan.nodes.length : treePlan.total;
  }
  const states: Record<string, ListState> = {};
  for (const section of sections) {
    const { root } = section;
    const listPlan = plan.lists[root.name];
    if (!listPlan) continue;
    states[root.name] = yield* renderListPlan(section, listPlan, groups, options);
    const source = input.sources[root.name];
    if (listPlan.how !== 'kept' && source && updatable(root)) yield { cache: sourceFile(root.name), text: source };
  }
  const lists: Record<string, ListInfo | { total: number }> = {};
  for (const [name, state] of Object.entries(states)) lists[name] = state.info;
  for (const [name, total] of Object.entries(totals)) lists[name] = { total };
  const manifest: Manifest = { format: FORMAT, pageSize: options.pageSize, systems: input.groups.list, lists, api: apiOf(d) };
  yield* renderRoot(manifest, input.scripts, input.hosts);
  yield metaOutput({ ...input.cache, totals, lists: states });
}

/** A paged list's outputs as its plan says, and its state for the next build. */
function* renderListPlan(section: SectionSpec, plan: ListPlan, groups: GroupVariants, options: RenderOptions): Generator<Output, ListState> {
  const { root } = section;
  switch (plan.how) {
    case 'kept':
      yield { keep: section.name, drop: [] };
      return plan.state;
    case 'edited':
    case 'updated':
      return yield* renderChanges(root, plan.served, plan.changed, groups, options);
    case 'rendered': {
      const entries = sortInOrder(plan.items, root.order);
      const shape = recordShape(root);
      const records = entries.map((e) => encodeRecord(e, shape));
      const state = yield* renderList(root, section.children, entries, records, groups, options);
      if (updatable(root)) yield* cacheLines(root.name, entries, records);
      return state;
    }
  }
}
