// Parses a request of the original service (docs/contract.md §1) into a route, with the
// 400s and 404s that need no file to decide. Pure: no fetch, no manifest.
import { fold } from './fold.js';
import { canonicalDigits } from './paths.js';
import type { PagedList } from './types.js';

export type Route =
  | { kind: 'list'; list: PagedList; page: number; id?: string; q: string; system?: string; child: boolean }
  | { kind: 'countries'; q: string }
  | { kind: 'country'; country: string }
  | { kind: 'states'; country: string; q: string }
  | { kind: 'state'; country: string; state: string }
  | { kind: 'counties'; country: string; state: string }
  | { kind: 'county'; country: string; state: string; county: string };

export interface Failure {
  status: 400 | 404;
  error: string;
}

const ROUTES: [RegExp, (m: string[]) => Omit<Route, 'q' | 'page' | 'child'> & { kind: Route['kind'] }][] = [
  [/^\/(author|division|descriptor)\.json$/, (m) => ({ kind: 'list', list: m[1] as PagedList })],
  [/^\/country\.json$/, () => ({ kind: 'countries' })],
  [/^\/country\/(\d+)\.json$/, (m) => ({ kind: 'country', country: m[1]! })],
  [/^\/country\/(\d+)\/state\.json$/, (m) => ({ kind: 'states', country: m[1]! })],
  [/^\/country\/(\d+)\/state\/(\d+)\.json$/, (m) => ({ kind: 'state', country: m[1]!, state: m[2]! })],
  [/^\/country\/(\d+)\/state\/(\d+)\/county\.json$/, (m) => ({ kind: 'counties', country: m[1]!, state: m[2]! })],
  [
    /^\/country\/(\d+)\/state\/(\d+)\/county\/(\d+)\.json$/,
    (m) => ({ kind: 'county', country: m[1]!, state: m[2]!, county: m[3]! }),
  ],
];

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

export function parseRequest(url: string): Route | Failure {
  const { path, search } = splitUrl(url);
  for (const [pattern, make] of ROUTES) {
    const m = pattern.exec(path);
    if (!m) continue;
    const route = make(m) as Record<string, unknown>;
    for (const key of ['country', 'state', 'county']) {
      if (typeof route[key] === 'string') route[key] = canonicalDigits(route[key] as string);
    }
    const params = parseQuery(search);
    const q = fold(params.get('term') ?? '');
    if (route['kind'] !== 'list') return { ...route, q } as Route;
    return parseListParams(route['list'] as PagedList, params, q);
  }
  return { status: 404, error: `not found: ${path}` };
}

function parseListParams(list: PagedList, params: Map<string, string>, q: string): Route | Failure {
  const pageText = params.get('page') ?? '1';
  if (!/^\d+$/.test(pageText) || Number(pageText) < 1) {
    return { status: 400, error: `Page: expected an integer ≥ 1, got "${pageText}"` };
  }
  const id = params.get('id');
  if (id !== undefined && !/^\d+$/.test(id)) return { status: 400, error: `Id: expected digits, got "${id}"` };
  let child = false;
  const childText = params.get('child');
  if (list === 'division' && childText !== undefined) {
    const value = childText.toLowerCase();
    if (!['true', 'false', '1', '0'].includes(value)) {
      return { status: 400, error: `child: expected true, false, 1 or 0, got "${childText}"` };
    }
    child = value === 'true' || value === '1';
  }
  return {
    kind: 'list',
    list,
    page: Number(pageText),
    ...(id === undefined ? {} : { id: canonicalDigits(id) }),
    q,
    ...(list === 'descriptor' || !params.has('system') ? {} : { system: params.get('system')! }),
    child,
  };
}
