// Parses a request (docs/contract.md §1, docs/lists.md) into a route to a
// declared list, with the 400s and 404s that need no file to decide. Pure: no
// fetch; the lists come from lookup.json.
import { fold } from './fold.js';
import { canonicalDigits, itemFile, itemFolder, listFile } from './paths.js';
import type { ApiList, Manifest } from './types.js';

export type Route =
  /** A paged list; `under` a parent's item for a list with a parent: its parents' ids (`US`, `840/6`) and the folder of its pages (`country/US/`). */
  | {
      kind: 'paged';
      list: ApiList;
      page: number;
      id?: string;
      q: string;
      group?: string;
      child: boolean;
      under?: { chain: string; prefix: string };
    }
  /** A whole list's or a grid's file under its parents (`country/840/state.json`), or an item's. */
  | { kind: 'whole'; list: ApiList; file: string; q: string }
  | { kind: 'file'; list: ApiList; file: string };

export interface Failure {
  status: 400 | 404;
  error: string;
  /**
   * A 400 of a paged list under a parent: the list's page 1 there, which
   * only a known parent has. An unknown parent is a 404 whatever the query
   * holds, as a root list's path is checked before its query.
   */
  unlessMissing?: string;
}

const patterns = new Map<string, RegExp>();
/** What an id's form is: an integer, or a string of these characters. */
export type IdForm = Pick<ApiList, 'id' | 'chars'>;

/** Whether a path segment or an Id is an id of this form: digits, or 1 to 64 of its characters. */
export function isId(list: IdForm, text: string): boolean {
  if (list.id === 'integer') return /^\d+$/.test(text);
  let pattern = patterns.get(list.chars!);
  if (!pattern) patterns.set(list.chars!, (pattern = new RegExp(`^[${list.chars}]{1,64}$`)));
  return pattern.test(text);
}

/** A list and its ancestors, outermost first: the lists its path walks through. */
export function chainOf(api: Manifest['api'], list: ApiList): ApiList[] {
  const chain = [list];
  for (let l = list; l.parent; ) chain.unshift((l = api.lists.find((p) => p.name === l.parent)!));
  return chain;
}

/** An id as its list's files name it: digits without leading zeros, a string as it is. */
const canonical = (list: IdForm, id: string) => (list.id === 'integer' ? canonicalDigits(id) : id);

/** An id of this form as its list's files name it, or undefined when it is none (`Id` answers 400 then). */
export const idKey = (list: IdForm, text: string): string | undefined =>
  isId(list, text) ? canonical(list, text) : undefined;

/** Query parameters by lower-cased name; the first occurrence wins and an empty value counts as absent. */
export function parseQuery(search: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(search)) {
    const key = name.toLowerCase();
    if (!params.has(key)) params.set(key, value);
  }
  for (const [key, value] of params) if (value === '') params.delete(key);
  return params;
}

/**
 * Any URL form (absolute, or path with query) as a URL. A path that starts
 * with `//` stays a path: read as a protocol-relative URL, `//x/author.json`
 * would be `/author.json` of the host `x`.
 */
export function toUrl(url: string): URL {
  return new URL(url.startsWith('//') ? `http://x${url}` : url, 'http://x/');
}

/** Splits any URL form into its path (percent-decoded where it can be) and query. */
export function splitUrl(url: string): { path: string; search: string } {
  const u = toUrl(url);
  let path = u.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape matches no route and so answers 404
  }
  return { path, search: u.search };
}

/**
 * A request's route: the path is walked list by list from the root, each
 * list's segment followed by an item's id and a list under it, and ends at a
 * list's file (`state.json`) or an item's (`state/6.json`).
 */
export function parseRequest(url: string, api: Manifest['api']): Route | Failure {
  const { path, search } = splitUrl(url);
  const notFound: Failure = { status: 404, error: `not found: ${path}` };
  // Split before decoding: an escaped `/` (%2F) stays inside its segment, where no list or id matches it.
  const raw = toUrl(url).pathname;
  if (!raw.startsWith('/') || !raw.endsWith('.json')) return notFound;
  let segments: string[];
  try {
    segments = raw.slice(1, -'.json'.length).split('/').map(decodeURIComponent);
  } catch {
    return notFound; // a malformed escape
  }
  let parent: string | undefined;
  let prefix = '';
  let chain = '';
  for (let i = 0; i < segments.length; i += 2) {
    const list = api.lists.find((l) => l.parent === parent && l.path === segments[i]);
    if (!list) return notFound;
    if (i === segments.length - 1) {
      const file = listFile(prefix, list.path);
      const params = parseQuery(search);
      if (list.shape === 'grid') return { kind: 'file', list, file };
      if (list.shape === 'whole')
        return {
          kind: 'whole',
          list,
          file,
          q: list.params.term ? fold(params.get(list.params.term.toLowerCase()) ?? '') : '',
        };
      const route = parseListParams(list, params, prefix === '' ? undefined : { chain, prefix });
      return 'status' in route && prefix !== '' ? { ...route, unlessMissing: file } : route;
    }
    const id = segments[i + 1]!;
    if (!isId(list, id)) return notFound;
    if (i + 1 === segments.length - 1)
      return list.items ? { kind: 'file', list, file: itemFile(prefix, list.path, canonical(list, id)) } : notFound;
    prefix += itemFolder(list.path, canonical(list, id));
    chain += `${chain === '' ? '' : '/'}${canonical(list, id)}`;
    parent = list.name;
  }
  return notFound;
}

function parseListParams(
  list: ApiList,
  params: Map<string, string>,
  under: { chain: string; prefix: string } | undefined,
): Route | Failure {
  const names = list.params;
  const get = (name: string | undefined) => (name === undefined ? undefined : params.get(name.toLowerCase()));
  const pageText = get(names.page) ?? '1';
  if (!/^\d+$/.test(pageText) || Number(pageText) < 1) {
    return { status: 400, error: `${names.page}: expected an integer ≥ 1, got "${pageText}"` };
  }
  const childText = get(names.child);
  const childValue = childText?.toLowerCase();
  const child = childValue === 'true' || childValue === '1';
  // With child, Id names a child: its form is the children's.
  const ids = child ? list.children! : list;
  const id = get(names.id);
  if (id !== undefined && !isId(ids, id)) {
    const expected = ids.id === 'integer' ? 'digits' : `1 to 64 of ${ids.chars}`;
    return { status: 400, error: `${names.id}: expected ${expected}, got "${id}"` };
  }
  if (childValue !== undefined && !['true', 'false', '1', '0'].includes(childValue)) {
    return { status: 400, error: `${names.child}: expected true, false, 1 or 0, got "${childText}"` };
  }
  const group = get(names.group);
  return {
    kind: 'paged',
    list,
    page: Number(pageText),
    ...(id === undefined ? {} : { id: canonical(ids, id) }),
    q: fold(get(names.term) ?? ''),
    ...(group === undefined ? {} : { group }),
    child,
    ...(under ? { under } : {}),
  };
}
