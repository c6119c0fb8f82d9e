// What lookup.json says of a declaration (Manifest.api): enough for the client
// to route any request to its list and to answer it from the list's files.
import type { OrderBy } from '../client/fold.js';
import type { ApiList, KeyValue, Manifest } from '../client/types.js';
import type { Declaration, ListSpec } from './declaration.js';

function keysOf(list: ListSpec): [string, KeyValue][] {
  return list.keys.map((key): [string, KeyValue] => [
    key,
    key === list.id.key ? 'id' : key === list.label.key ? 'label' : list.fields.findIndex((f) => f.key === key),
  ]);
}

const idForm = (list: ListSpec) => ({
  id: list.id.type,
  ...(list.id.type === 'string' ? { chars: list.id.chars } : {}),
});

export function apiOf(d: Declaration): Manifest['api'] {
  const byName = new Map(d.lists.map((l) => [l.name, l]));
  const lists = d.lists
    .filter((l) => !l.embeddedIn)
    .map((list): ApiList => {
      const children = list.children && byName.get(list.children.list)!;
      return {
        name: list.name,
        path: list.path,
        ...(list.parent ? { parent: list.parent.list } : {}),
        shape: list.shape,
        items: list.items,
        ...idForm(list),
        params: list.params,
        keys: keysOf(list),
        ...(list.search && list.search.fields.length > 0 ? { search: list.search.fields } : {}),
        ...(list.search && list.search.text ? { text: list.search.text.parts } : {}),
        ...(list.search && list.search.exact ? { exact: true as const } : {}),
        ...(list.search && !list.search.phrase ? { words: true as const } : {}),
        // The words rule merges the records of several files in the list's order, which the client reckons.
        ...(list.search && !list.search.phrase && list.order
          ? { order: list.order.map(({ field, descending }): OrderBy => [field, descending]) }
          : {}),
        ...(list.search && list.search.noTypos ? { typos: false as const } : {}),
        ...(children
          ? {
              children: {
                list: children.name,
                key: list.children!.key,
                keys: keysOf(children).filter((k): k is [string, 'id' | 'label'] => typeof k[1] === 'string'),
                ...idForm(children),
              },
            }
          : {}),
      };
    });
  return { ...(d.groups ? { group: d.groups.param } : {}), lists };
}
