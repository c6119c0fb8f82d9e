// Stage 2, validate a nest (a section of whole and grid lists, docs/lists.md):
// typed rows → its root's nodes, each holding the nodes of the lists under
// it, every error collected with its file and line (the checker: validate.ts).
import { ancestors as ancestorsOf, type ListSpec } from '../config/declaration.js';
import type { SectionSpec } from '../config/sections.js';
import { ReflistError } from '../errors.js';
import { compareStrings, fold } from '../client/fold.js';
import { sortInOrder, type Id, type Node, type Value } from './model.js';
import type { Row } from './rows.js';
import {
  caseless,
  type Checker,
  idKey,
  idOrder,
  laterRows,
  Lines,
  listColumns,
  type ListColumns,
  uniqueRows,
} from './validate.js';

/**
 * What a node under which no list has a node yet holds as its nested lists:
 * one object shared, not an empty one each, as most nodes of a large nest
 * are leaves (a million species, 54 MB).
 */
const NONE_NESTED: Node['nested'] = Object.freeze({});

/** A paged list's items under a parent have no counts (their pages have no group variants). */
const NO_COUNTS: number[] = Object.freeze([]) as unknown as number[];

/**
 * A row as a node, its nested lists still empty; a paged list's with no
 * counts, so that the node is its entry too (render/nested.ts): a million
 * species under their families are a million objects, not two million.
 */
function nodeOf(r: Row, c: ListColumns, paged: boolean): Node {
  const id = r.values[c.id] as Id;
  const text = c.label(r);
  const key = fold(text);
  const fields = c.fields(r);
  const nested = NONE_NESTED;
  // Each key in the literal, none spread or added later: an object given a property after it is made keeps it apart, in a store of its own (39 B an item).
  if (paged)
    return fields ? { id, text, key, counts: NO_COUNTS, fields, nested } : { id, text, key, counts: NO_COUNTS, nested };
  return fields ? { id, text, key, fields, nested } : { id, text, key, nested };
}

/** A nest's nodes placed so far: by list, each by its chain of ids from the root (`840/6`), and by id, for a row that names its parent by id alone. */
class Placed {
  private readonly byChain = new Map<string, Map<string, Node>>();
  private readonly chainsById = new Map<string, Map<string, string[]>>();

  add(list: ListSpec, chain: string, node: Node): void {
    let nodes = this.byChain.get(list.name);
    if (!nodes) this.byChain.set(list.name, (nodes = new Map()));
    nodes.set(chain, node);
    let byId = this.chainsById.get(list.name);
    if (!byId) this.chainsById.set(list.name, (byId = new Map()));
    const id = idKey(node.id);
    byId.set(id, [...(byId.get(id) ?? []), chain]);
  }

  at(list: ListSpec, chain: string): Node | undefined {
    return this.byChain.get(list.name)?.get(chain);
  }

  /** The chains of a list's nodes with this id: one under each parent that has it. */
  chainsOf(list: ListSpec, id: string): string[] {
    return this.chainsById.get(list.name)?.get(id) ?? [];
  }
}

/**
 * A nest (a section of whole and grid lists): the root's items, each with the
 * items of the lists under it, every list in list order. A node is found by
 * its chain of ids from the root (`840/6`).
 */
export function validateNest(check: Checker, section: SectionSpec): Node[] {
  const { root } = section;
  const placed = new Placed();
  const c = listColumns(root, []);
  const rows = uniqueRows(check, root, c);
  const roots = [...rows.values()].map((r) => nodeOf(r, c, false));
  for (const node of roots) placed.add(root, idKey(node.id), node);
  // In the section's order: a list's parents are placed before it.
  const parents = new Set(section.nested.map((l) => l.parent!.list));
  for (const list of section.nested) placeNested(check, list, placed, parents.has(list.name));
  const sortAll = (items: Node[], list: ListSpec): Node[] => {
    for (const node of items)
      for (const [name, nested] of Object.entries(node.nested)) sortAll(nested, check.list(name));
    return sortInOrder(items, list.order);
  };
  return sortAll(roots, root);
}

/**
 * A list under a parent: each row a node under its parent's node, its id
 * unique under that parent, made as the row is read. Only a list that is
 * itself a parent is placed for the lists under it to find.
 */
function placeNested(check: Checker, list: ListSpec, placed: Placed, isParent: boolean): void {
  const ancestors = ancestorsOf(list, check.lists);
  const parent = ancestors[ancestors.length - 1]!;
  const c = listColumns(list, list.parent!.columns.length === 1 ? [parent] : ancestors);
  const file = list.source.file;
  const what = (chain: string, id: Value) =>
    `${list.name} ${id}` +
    chain
      .split('/')
      .reverse()
      .map((pid, i) => ` of ${ancestors[ancestors.length - 1 - i]!.name} ${pid}`)
      .join('');
  // Every row's node, parent chain (a string its parent's rows share) and line; its duplicates once all are read.
  const nodes: Node[] = [];
  const chains: string[] = [];
  const lines = new Lines();
  const chainOf = parentChain(check, list, ancestors, c, placed);
  check.eachRow(file, c.columns, (r) => {
    const chain = chainOf(r);
    if (chain === undefined) return;
    const node = nodeOf(r, c, list.shape === 'paged');
    nodes.push(node);
    chains.push(chain);
    lines.push(r.line);
    const under = placed.at(parent, chain)!;
    if (under.nested === NONE_NESTED) under.nested = {};
    (under.nested[list.name] ??= []).push(node);
  });
  const byId = idOrder(
    nodes.map((n) => n.id),
    caseless(list),
  );
  const later = laterRows(file, check.errors, {
    count: nodes.length,
    compare: (a, b) => compareStrings(chains[a]!, chains[b]!) || byId(a, b),
    id: (i) => nodes[i]!.id,
    line: (i) => lines.at(i),
    what: (i, id) => what(chains[i]!, id),
  });
  if (later.size > 0) {
    // A later row of a key is no node: its parent lets go of it.
    const dropped = new Set([...later].map((i) => nodes[i]!));
    for (const chain of new Set([...later].map((i) => chains[i]!))) {
      const under = placed.at(parent, chain)!;
      under.nested[list.name] = under.nested[list.name]!.filter((n) => !dropped.has(n));
    }
  }
  if (isParent)
    for (const [i, node] of nodes.entries())
      if (!later.has(i)) placed.add(list, `${chains[i]}/${idKey(node.id)}`, node);
}

/**
 * The chain of a row's parent: by the parent's id alone when one column
 * names it (an error when that id is under more than one grandparent), else
 * by every ancestor's id. A row whose parent is no node is an error, and
 * has none.
 */
function parentChain(
  check: Checker,
  list: ListSpec,
  ancestors: ListSpec[],
  c: ListColumns,
  placed: Placed,
): (r: Row) => string | undefined {
  const parent = ancestors[ancestors.length - 1]!;
  const named = list.parent!.columns;
  const file = list.source.file;
  return (r) => {
    const ids = r.values.slice(0, c.parents).map(idKey);
    let chain: string | undefined;
    if (named.length === 1) {
      const chains = placed.chainsOf(parent, ids[0]!);
      if (chains.length > 1) {
        check.errors.push(
          new ReflistError(
            'UNKNOWN_REFERENCE',
            `ambiguous ${named[0]} ${ids[0]}: ${parent.name} ${ids[0]} is under more than one ${ancestors[ancestors.length - 2]!.name}; name each ancestor's column in lists.${list.name}.parent.column`,
            { file, line: r.line },
          ),
        );
        return undefined;
      }
      chain = chains[0];
    } else chain = placed.at(parent, ids.join('/')) ? ids.join('/') : undefined;
    if (chain === undefined)
      check.missing(
        file,
        r.line,
        named
          .map((col, i) => `${col} ${ids[i]}`)
          .reverse()
          .join(' in '),
      );
    return chain;
  };
}
