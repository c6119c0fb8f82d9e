// The query parameters a list takes, by role (page, term, id, group, child):
// the usual names its shape, search, counts and children allow, or the ones
// its config declares (their form checked by the schema). Pure.
import type { RawParams } from './schema.js';
import type { GroupsSpec, ListSpec, ParamSpec } from './spec.js';
import { quote, type Errors } from './json.js';

const PARAM_ROLES = ['page', 'term', 'id', 'group', 'child'] as const;

/** The parameters a list takes when it declares none: what its shape, search, counts and children allow, by their usual names. */
function defaultParams(list: Omit<ListSpec, 'params'>, groups: GroupsSpec | undefined): ParamSpec {
  if (list.shape === 'grid') return {};
  const term = list.search ? { term: 'Term' } : {};
  if (list.shape === 'whole') return term;
  return {
    page: 'Page',
    ...term,
    id: 'Id',
    ...(list.counts && groups ? { group: groups.param } : {}),
    ...(list.children ? { child: 'child' } : {}),
  };
}

export function readParams(
  e: Errors,
  path: string,
  v: RawParams | undefined,
  list: Omit<ListSpec, 'params'>,
  groups: GroupsSpec | undefined,
): ParamSpec {
  const defaults = defaultParams(list, groups);
  if (v === undefined) return defaults;
  const params: ParamSpec = {};
  const allowed: Record<(typeof PARAM_ROLES)[number], string | undefined> = {
    page: list.shape === 'paged' ? undefined : 'only paged lists take page',
    term: list.search
      ? list.shape === 'grid'
        ? 'a grid takes no parameters'
        : undefined
      : 'this list has no search ("search": false)',
    id:
      list.shape === 'paged'
        ? undefined
        : 'only paged lists take id (a whole list has its items at {list}/{id}.json with "items": true)',
    group: list.counts
      ? list.shape === 'paged'
        ? undefined
        : 'only paged lists take group'
      : 'this list has no counts',
    child: list.children ? undefined : 'this list has no children',
  };
  const seen = new Map<string, string>();
  for (const role of PARAM_ROLES) {
    const name = v[role] ?? defaults[role];
    if (name === undefined || name === false) continue;
    if (allowed[role]) {
      if (v[role] !== undefined) e.add(`${path}.${role}`, allowed[role]!);
      continue;
    }
    const other = seen.get(name.toLowerCase());
    if (other)
      e.add(`${path}.${role}`, `${quote(name)} is already the name of ${other} (names match case-insensitively)`);
    seen.set(name.toLowerCase(), role);
    params[role] = name;
  }
  return params;
}
