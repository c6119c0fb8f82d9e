// `reflist dev`'s one port: the tree at `/` with the original URLs, the demo
// at `/demo/` (its page and script, `lookup/` = the tree, `vendor/` = the
// widgets, `widgets/` = the package's drop-down adapters, which take the
// client from `tree/`). Where a URL goes is a value (`routeDev`, pure), which
// the handler then carries out.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { toUrl } from '../client/request.js';
import { packageFile } from '../root.js';
import { bundleReactVendor, DEMO, REACT_VENDOR, type VendorSource } from './demo-vendor.js';
import { compatHandler } from './serve.js';
import { fileHandler, safeFile, sendJson, type Handler } from './serve-files.js';

/** The next save changes every answer: nothing may be cached, by a browser or a page's own select2. */
const NO_STORE = { 'cache-control': 'no-store' };

const WIDGETS = fileURLToPath(packageFile('lib/widgets/'));
const CLIENT = fileURLToPath(packageFile('lib/tree/'));

/** What answers a URL: `url` is the request's URL as the answering handler sees it, below its own root. */
export type DevRoute =
  | { kind: 'redirect'; status: 301 | 302; location: string }
  | { kind: 'tree'; url: string }
  | { kind: 'files'; root: string; url: string }
  | { kind: 'react' }
  | { kind: 'json'; status: number; body: object };

export interface DevState {
  /** The folder the tree is built into. */
  out: string;
  /** Whether a build has left a tree there (the last good one stays through a failed build). */
  hasTree(): boolean;
  /** The errors of the last build, none after a good one. */
  errors(): string[];
  /** Where each demo script comes from (`vendorSources`). */
  vendor: ReadonlyMap<string, VendorSource>;
}

/** `url` with its path taken below `prefix` (`/demo/lookup/author.json` → `/author.json`). */
function below(prefix: string, url: URL): string {
  return url.pathname.slice(prefix.length) + url.search;
}

/** The tree's answer, or until a tree exists a 503 with the errors of the build that failed. */
function treeOr503(url: string, state: DevState): DevRoute {
  if (state.hasTree()) return { kind: 'tree', url };
  return { kind: 'json', status: 503, body: { error: `no tree at ${state.out} yet`, errors: state.errors() } };
}

/** Where a request's URL goes, as a value. */
export function routeDev(rawUrl: string, state: DevState): DevRoute {
  const url = toUrl(rawUrl);
  const { pathname, search } = url;
  if (pathname === '/demo') return { kind: 'redirect', status: 301, location: `/demo/${search}` };
  // The tree has no page of its own at its root: a person opening the dev URL wants the demo.
  if (pathname === '/') return { kind: 'redirect', status: 302, location: '/demo/' };
  if (pathname.startsWith('/demo/lookup/')) return treeOr503(below('/demo/lookup', url), state);
  if (pathname === `/demo/vendor/${REACT_VENDOR}`) return { kind: 'react' };
  if (pathname.startsWith('/demo/widgets/')) return { kind: 'files', root: WIDGETS, url: below('/demo/widgets', url) };
  if (pathname === '/demo/tree/lookup-client.js') return { kind: 'files', root: CLIENT, url: below('/demo/tree', url) };
  if (pathname.startsWith('/demo/vendor/')) {
    const source = state.vendor.get(pathname.slice('/demo/vendor/'.length));
    if (!source) return { kind: 'json', status: 404, body: { error: `not found: ${pathname}` } };
    if ('redirect' in source) return { kind: 'redirect', status: 302, location: source.redirect };
    return { kind: 'files', root: source.root, url: `/${source.path}` };
  }
  if (pathname.startsWith('/demo/')) return { kind: 'files', root: DEMO, url: below('/demo', url) };
  return treeOr503(rawUrl, state);
}

/** The dev server's handler: each request routed by `routeDev`, then answered with nothing cached. */
export function devHandler(state: DevState): Handler {
  const tree = compatHandler({ dir: state.out, headers: NO_STORE });
  const files = new Map<string, Handler>();
  let react: Promise<string | undefined> | undefined; // bundled once, at the first page that asks
  const answer = async (route: DevRoute, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    switch (route.kind) {
      case 'redirect':
        res.writeHead(route.status, { location: route.location, ...NO_STORE });
        return void res.end();
      case 'json':
        return sendJson(res, method, route.status, route.body, NO_STORE);
      case 'tree':
        req.url = route.url;
        return await tree(req, res);
      case 'files': {
        let handler = files.get(route.root);
        if (!handler) files.set(route.root, (handler = fileHandler(route.root, NO_STORE)));
        req.url = route.url;
        return await handler(req, res);
      }
      case 'react': {
        const script = await (react ??= bundleReactVendor());
        if (!script)
          return sendJson(
            res,
            method,
            404,
            { error: 'react, react-dom, react-select, react-select-async-paginate or esbuild is not installed' },
            NO_STORE,
          );
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', ...NO_STORE });
        return void res.end(method === 'HEAD' ? undefined : script);
      }
    }
  };
  return async (req, res) => {
    try {
      await answer(routeDev(req.url ?? '/', state), req, res);
    } catch (err) {
      if (!res.headersSent) sendJson(res, 'GET', 500, { error: String(err) });
      else res.destroy();
    }
  };
}

/** Whether `out` holds a tree to serve. */
export const hasTree = (out: string): boolean => safeFile(out, 'lookup.json') !== undefined;
