// Stage 4, render, for a nest (a section of whole and grid lists): each list's file
// under every item of its parent, and the paged lists under them
// (docs/lists.md, Paged lists under a parent): their pages under every
// parent item, and one set of Id buckets and one Term index for all their
// parents' items, whose keys carry the parent chain (docs/tree.md), so a
// parent with few items costs no files of its own beyond its pages. Pure.
import { bucketPath, itemFile, itemFolder, layoutOf, listFile, nestedFolder, scoped } from '../client/paths.js';
import type { NestedInfo } from '../client/types.js';
import { ancestors, type Declaration, type ListSpec } from '../config/declaration.js';
import { listsUnder, type SectionSpec } from '../config/sections.js';
import { buildSearchIndex, type IndexEntry } from '../search/index.js';
import type { Entry, Node } from '../sources/model.js';
import { encodeRecord, holdAll, recordShape } from '../sources/record.js';
import type { TreeFile } from '../tree-files.js';
import { ReflistError } from '../errors.js';
import {
  bucketsFor,
  itemHead,
  rankingOf,
  renderBuckets,
  renderItems,
  renderPages,
  searchedOf,
  searchFiles,
  type GroupVariants,
  type RenderOptions,
} from './render.js';

/** Paged lists under a parent have no counts: their pages have no group variants. */
const NO_GROUPS: GroupVariants = { segment: '', ids: [] };

/** A paged list under a parent, its items gathered parent by parent for the files they share. */
class NestedList {
  readonly entries: Entry[] = [];
  /** Each entry's parent chain (`US`, `840/6`). */
  readonly chains: string[] = [];

  constructor(
    readonly list: ListSpec,
    readonly folder: string,
  ) {}

  /** Its pages (and item files) under one parent item, whose files are under `prefix`; the items join the shared files. */
  *under(prefix: string, chain: string, nodes: Node[], pageSize: number): Generator<TreeFile> {
    // A paged list's node is its entry (sources/nest.ts): it has its (no) counts.
    for (const node of nodes) {
      if (!node.counts) throw new ReflistError('INTERNAL', `${this.list.name} ${node.id} is a node without counts`);
      this.entries.push(node as Entry);
      this.chains.push(chain);
    }
    const entries = nodes as Entry[];
    // The list's own paths, at this parent's prefix: `country/US/city.json`, `country/US/city/page/2.json`.
    const here = { ...this.list, path: `${prefix}${this.list.path}` };
    yield* renderPages(here, undefined, entries, pageSize, NO_GROUPS);
    yield* renderItems(here, undefined, entries);
  }

  /** The Id buckets and the Term index of every parent's items, and what lookup.json says of them. */
  *shared(options: RenderOptions): Generator<TreeFile, NestedInfo> {
    const { list, folder, entries, chains } = this;
    const { pageSize } = options;
    const shape = recordShape(list);
    const records = (options.records ?? holdAll)(
      entries.length,
      (i) => `[${JSON.stringify(chains[i])},${encodeRecord(entries[i]!, shape)}]`,
    );
    try {
      const layout = layoutOf(pageSize, undefined, rankingOf(list));
      const buckets = bucketsFor(entries.length);
      yield* renderBuckets(
        entries.map((_, i) => i),
        buckets,
        (i) => scoped(chains[i]!, String(entries[i]!.id)),
        (i) => records.at(i),
        (b) => bucketPath(folder, layout, buckets, b),
      );
      const info: NestedInfo = { layout, total: entries.length, buckets, search: [] };
      if (!list.search) return info;
      // An entry's chain is its parent's, and a parent's entries come together: one scope string each
      // parent. In place: the chains are not read again, and a second array was 8 bytes an entry more.
      const scopes = chains;
      let last: [chain: string, scope: string] | undefined;
      for (const [i, chain] of chains.entries())
        scopes[i] = (last?.[0] === chain ? last : (last = [chain, scoped(chain, '')]))[1];
      const searched = { ...searchedOf(list, entries), scopes };
      // The index reads an entry's key alone: the nodes go before it is built (renderNest lets go of the nest's).
      const indexed: IndexEntry[] = entries.map(({ key }) => key);
      entries.length = 0;
      // Records are made above, for every entry: an entry with children is encoded anew, and these have none.
      const encode = (): string => {
        throw new Error('a paged list under a parent has no children');
      };
      const index = buildSearchIndex(indexed, records, encode, { ...options.search, pageSize }, searched);
      return Object.assign(info, yield* searchFiles(folder, layout, index, options));
    } finally {
      records.close();
    }
  }
}

/**
 * A nest (a section of whole and grid lists): each list's file under every item of
 * its parent (`{path}.json` for the root), empty ones too, its items' files
 * where declared, and the paged lists under them with their shared files.
 * Returns what lookup.json says of those paged lists, by name. The nodes are
 * handed over: the array is emptied once their files are made.
 */
export function* renderNest(
  d: Declaration,
  section: SectionSpec,
  nodes: Node[],
  options: RenderOptions,
): Generator<TreeFile, Record<string, NestedInfo>> {
  const byName = new Map(d.lists.map((l) => [l.name, l]));
  const paged = new Map(
    section.nested
      .filter((l) => l.shape === 'paged')
      .map((l) => {
        const paths = [...ancestors(l, byName), l].map((a) => a.path);
        return [l.name, new NestedList(l, nestedFolder(paths))];
      }),
  );
  function* scope(list: ListSpec, prefix: string, chain: string, items: Node[]): Generator<TreeFile> {
    const nested = paged.get(list.name);
    if (nested) return yield* nested.under(prefix, chain, items, options.pageSize);
    const head = itemHead(list);
    const texts = items.map((n) => head(n) + '}');
    const body = texts.join(',');
    yield [
      listFile(prefix, list.path),
      list.shape === 'grid'
        ? `{"total":${texts.length ? 1 : 0},"page":1,"records":${texts.length},"rows":[${body}]}`
        : `{"total":${texts.length},"items":[${body}]}`,
    ];
    const under = listsUnder(d, list);
    for (const [i, node] of items.entries()) {
      if (list.items) yield [itemFile(prefix, list.path, node.id), texts[i]!];
      const id = String(node.id);
      for (const l of under)
        yield* scope(
          l,
          itemFolder(prefix + list.path, id),
          chain === '' ? id : scoped(chain, id),
          node.nested[l.name] ?? [],
        );
    }
  }
  yield* scope(section.root, '', '', nodes);
  // Every list's files under each parent are made: the paged lists' shared files need their entries alone.
  // Emptied in place: a generator holds the arguments it was called with for as long as it runs.
  nodes.length = 0;
  const infos: Record<string, NestedInfo> = {};
  for (const [name, nested] of paged) infos[name] = yield* nested.shared(options);
  return infos;
}
