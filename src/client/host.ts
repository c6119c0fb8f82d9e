// What every host adapter shares (the compat server, the Cloudflare worker, the
// Netlify edge function, the service worker): which paths belong to the
// original service, and how one of its requests becomes an HTTP answer.
// See docs/hosts.md.
import type { LookupClient } from './client.js';
import { parseRequest, splitUrl, toUrl } from './request.js';
import type { Manifest } from './types.js';

/**
 * The service's paths as host routing globs (`*` matches the rest of a path):
 * each root list's file, and everything under a root list with lists or items
 * under it. A paged list's own folder (`author/page/…`, search and id files)
 * holds plain files no adapter touches.
 */
export function servicePaths(api: Manifest['api']): string[] {
  return api.lists
    .filter((l) => !l.parent)
    .flatMap((l) => [
      `/${l.path}.json`,
      ...(l.items || api.lists.some((under) => under.parent === l.name) ? [`/${l.path}/*`] : []),
    ]);
}

/**
 * Host files at the tree's root that a host reads but must not serve. Adapters
 * routed to them answer 404; a path ending in `/*` is a folder.
 */
export const HOST_FILES = [
  '/_worker.js',
  '/_routes.json',
  '/_headers',
  '/_redirects',
  '/.assetsignore',
  '/nginx.conf',
  '/_netlify/*',
] as const;

/**
 * The service's answers and the tree's files keep their URLs from one build
 * to the next, so they get five minutes, and stale-while-revalidate hides the
 * refetch. A page that pairs an old lookup.json with newer files still gets
 * whole answers from one build (docs/tree.md, Across a deploy).
 */
export const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=600';

/** lookup.json is asked again on every page visit (a 304 when unchanged), so a new visit starts on the new build. */
export const MANIFEST_CACHE_CONTROL = 'no-cache';

/** Result page files are named after their content: what is at their URL never changes. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export const JSON_TYPE = 'application/json; charset=utf-8';

const matches = (globs: readonly string[], path: string) =>
  globs.some((glob) => (glob.endsWith('/*') ? path.startsWith(glob.slice(0, -1)) : path === glob));

/**
 * What an adapter does with a request (its URL relative to the tree, with the
 * query): `answer` it with answerHttp (a request of a declared list, or a host
 * file, which answers 404), or leave it to the host's `file`s.
 */
export function routeOf(url: string, api: Manifest['api']): 'answer' | 'file' {
  if (matches(HOST_FILES, splitUrl(url).path)) return 'answer';
  const route = parseRequest(url, api);
  return 'status' in route && route.status === 404 ? 'file' : 'answer';
}

/**
 * Whether a path names no file as the client reads it, each segment
 * percent-decoded on its own (docs/lists.md): one holds an escaped `/`, or
 * an escape that is no UTF-8 (`%zz`, `%E9`).
 */
function namesNoFile(path: string): boolean {
  return path.split('/').some((segment) => {
    try {
      return decodeURIComponent(segment).includes('/');
    } catch {
      return true;
    }
  });
}

/**
 * routeOf as the tree's own adapters (the compat server, `_worker.js`, the
 * Netlify function, `lookup-sw.js`) take it: a path that names no file as
 * the client reads it, though a host would decode an escaped `/` into a
 * folder or refuse a malformed escape, they answer: the client's 404.
 */
export function adapterRouteOf(url: string, api: Manifest['api']): 'answer' | 'file' {
  return namesNoFile(toUrl(url).pathname) ? 'answer' : routeOf(url, api);
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** The JSON text; a HEAD answer sends the headers alone. */
  body: string;
}

const answer = (status: number, body: unknown, extra: Record<string, string> = {}): HttpAnswer => ({
  status,
  headers: { 'content-type': JSON_TYPE, 'access-control-allow-origin': '*', 'cache-control': CACHE_CONTROL, ...extra },
  body: JSON.stringify(body),
});

/**
 * The HTTP answer to a request of the original service, `url` relative to the
 * tree (`/author.json?Term=smi`): 405 for a method other than GET and HEAD,
 * 404 for a host file, else the client's answer. A failure to read the tree (a 503 from the host)
 * answers 502, never a wrong 200 or 404.
 */
export async function answerHttp(client: LookupClient, method: string, url: string): Promise<HttpAnswer> {
  if (method !== 'GET' && method !== 'HEAD') {
    return answer(405, { error: `method ${method} not allowed: use GET or HEAD` }, { allow: 'GET, HEAD' });
  }
  const { path } = splitUrl(url);
  if (matches(HOST_FILES, path)) return answer(404, { error: `not found: ${path}` });
  try {
    const { status, body } = await client.request(url);
    return answer(status, body);
  } catch (err) {
    return answer(
      502,
      { error: `could not read the tree: ${err instanceof Error ? err.message : String(err)}` },
      { 'cache-control': 'no-store' },
    );
  }
}

/**
 * The answer to a path an adapter left to the host's files where there is no
 * such file: the client's JSON 404, not a host's `404.html` (which the tree's
 * `_headers` would label JSON on a `.json` path).
 */
export const fileNotFound = (url: string): HttpAnswer => answer(404, { error: `not found: ${splitUrl(url).path}` });

/** An HttpAnswer as a fetch Response (workers, Deno, service workers). */
export function toResponse(http: HttpAnswer, method: string): Response {
  return new Response(method === 'HEAD' ? null : http.body, { status: http.status, headers: http.headers });
}

/** The path of `url` below the tree's URL `base` (with its query), or undefined when it lies elsewhere. */
export function pathBelow(url: URL, base: URL): string | undefined {
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return undefined;
  return '/' + url.pathname.slice(base.pathname.length) + url.search;
}
