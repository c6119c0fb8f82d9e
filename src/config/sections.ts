// A declaration's sections: the parts of the tree made from their own sources,
// each kept whole by a build when none of those changed (docs/incremental.md).
// A section is a list without a parent, with the lists under it and the list
// its items embed; its files are under its path (and at `{path}.json`).
import type { Declaration, ListSpec } from './declaration.js';

export interface SectionSpec {
  /** The root list's path segment, the first segment of every path of the section. */
  name: string;
  root: ListSpec;
  /** The lists under the root, each after its parent (embedded children aside). */
  nested: ListSpec[];
  /** The list the root's items embed. */
  children?: ListSpec;
  /** Every source file the section is made from: its lists', their counts' and, with counts, the groups'. */
  files: string[];
}

export function sectionsOf(d: Declaration): SectionSpec[] {
  const byName = new Map(d.lists.map((l) => [l.name, l]));
  return d.lists
    .filter((l) => !l.parent)
    .map((root) => {
      const nested: ListSpec[] = [];
      const walk = (list: ListSpec) =>
        listsUnder(d, list).forEach((l) => {
          nested.push(l);
          walk(l);
        });
      walk(root);
      const children = root.children && byName.get(root.children.list);
      const lists = [root, ...nested, ...(children ? [children] : [])];
      const counted = lists.some((l) => l.counts);
      const files = [
        ...new Set([
          ...lists.flatMap((l) => [l.source.file, ...(l.counts ? [l.counts.source.file] : [])]),
          ...(counted && d.groups ? [d.groups.source.file] : []),
        ]),
      ];
      return { name: root.path, root, nested, ...(children ? { children } : {}), files };
    });
}

/** The lists directly under a list, in declared order (embedded children aside). */
export function listsUnder(d: Declaration, list: ListSpec): ListSpec[] {
  return d.lists.filter((l) => l.parent?.list === list.name && !l.embeddedIn);
}
