// How a config's lists stand to one another, checked once each list is read:
// parents and children name declared lists, the parents form no cycle, and
// no two lists share a path. Pure.
import { didYouMean } from '../errors.js';
import type { ListSpec } from './spec.js';
import { quote, type Errors } from './json.js';

/** Root names the tree's own files take (lookup.json, lookup-client.js, lookup-sw.js, the demo). */
const RESERVED = ['lookup', 'lookup-client', 'lookup-sw', 'demo'];

/**
 * Parents and children name declared lists, parents form no cycle, and no two
 * lists share a path. Returns the lists as they stand to one another: a list
 * another embeds as its children gets `embeddedIn` and no parameters of its
 * own. The lists given are left as they are.
 */
export function checkRelations(e: Errors, read: readonly ListSpec[]): ListSpec[] {
  const readByName = new Map(read.map((l) => [l.name, l]));
  const names = [...readByName.keys()];
  const embeddedIn = new Map<string, string>();
  for (const list of read) {
    if (list.parent && !readByName.has(list.parent.list))
      e.add(
        `lists.${list.name}.parent.list`,
        `no list ${quote(list.parent.list)}${didYouMean(list.parent.list, names)}`,
      );
    if (!list.children) continue;
    const child = readByName.get(list.children.list);
    if (!child)
      e.add(
        `lists.${list.name}.children.list`,
        `no list ${quote(list.children.list)}${didYouMean(list.children.list, names)}`,
      );
    else if (child.parent?.list !== list.name)
      e.add(
        `lists.${list.name}.children.list`,
        `list ${quote(child.name)} must declare "parent": {"list": ${quote(list.name)}, …} to be its children`,
      );
    else if (embeddedIn.has(child.name))
      e.add(
        `lists.${list.name}.children.list`,
        `list ${quote(child.name)} is already the children of ${quote(embeddedIn.get(child.name)!)}`,
      );
    else embeddedIn.set(child.name, list.name);
  }
  const lists = read.map((l) => {
    const by = embeddedIn.get(l.name);
    return by === undefined ? l : { ...l, embeddedIn: by, params: {} };
  });
  if (e.all.length > 0) return lists;
  const byName = new Map(lists.map((l) => [l.name, l]));
  for (const list of lists) {
    const chain = [list.name];
    for (let p = list.parent; p; p = byName.get(p.list)!.parent) {
      if (chain.includes(p.list)) {
        e.add(`lists.${list.name}.parent`, `the parents form a cycle: ${[...chain, p.list].join(' → ')}`);
        break;
      }
      chain.push(p.list);
    }
  }
  if (e.all.length > 0) return lists;
  for (const list of lists) {
    const depth = ancestors(list, byName).length;
    if (list.parent && list.parent.columns.length !== 1 && list.parent.columns.length !== depth) {
      e.add(
        `lists.${list.name}.parent.column`,
        `expected one column (the parent's id) or ${depth}, one per ancestor (${ancestors(list, byName)
          .map((a) => a.name)
          .join(', ')})`,
      );
    }
    if (list.embeddedIn && (list.items || list.shape !== 'paged' || list.counts || list.fields.length > 0)) {
      e.add(
        `lists.${list.name}`,
        `the children of ${quote(list.embeddedIn)} are an id and a label in their parent's items: drop "items", "shape", "counts" and "fields"`,
      );
    }
    if (!list.parent && RESERVED.includes(list.path.toLowerCase()))
      e.add(
        `lists.${list.name}`,
        `/${list.path}.json is the tree's own; choose another ${list.path === list.name ? 'name' : 'path'}`,
      );
    const parent = list.parent && byName.get(list.parent.list)!;
    if (parent && !list.embeddedIn && parent.shape === 'paged') {
      e.add(
        `lists.${list.name}.parent`,
        `a parent is a "whole" or "grid" list for now (${quote(parent.name)} is paged): declare "shape": "whole" in lists.${parent.name}, or give ${quote(list.name)} another parent`,
      );
    }
    if (parent && !list.embeddedIn && list.shape === 'paged') {
      for (const key of ['counts', 'children'] as const) {
        if (list[key])
          e.add(
            `lists.${list.name}.${key}`,
            `a paged list under a parent has no ${key} for now: drop "${key}", or declare a list of its own without a parent for them`,
          );
      }
    }
  }
  const paths = new Map<string, string>();
  for (const list of lists) {
    if (list.embeddedIn) continue;
    const path = listPath(list, byName);
    const other = paths.get(path.toLowerCase());
    if (other)
      e.add(
        `lists.${list.name}`,
        `it has the path of list ${quote(other)}: /${path}.json (paths match case-insensitively on some hosts)`,
      );
    else paths.set(path.toLowerCase(), list.name);
  }
  return lists;
}

/** A list's ancestors, outermost first. */
export function ancestors(list: ListSpec, byName: ReadonlyMap<string, ListSpec>): ListSpec[] {
  const out: ListSpec[] = [];
  for (let p = list.parent; p; p = byName.get(p.list)!.parent) out.unshift(byName.get(p.list)!);
  return out;
}

/** The path pattern of a list's file, without `.json`: `country/{country}/state`. */
function listPath(list: ListSpec, byName: ReadonlyMap<string, ListSpec>): string {
  return [...ancestors(list, byName).map((a) => `${a.path}/{${a.name}}`), list.path].join('/');
}
