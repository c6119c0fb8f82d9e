// @ts-check
// A Deno program standing in for the part of Netlify's request chain that the
// tree's edge function (_netlify/reflist.js) relies on. JavaScript with JSDoc,
// so the Node type-check (`npm run check`) leaves its Deno globals alone;
// `deno check test/hosts/netlify-harness.js` checks it.
//
//   deno run --allow-net=127.0.0.1 --allow-read=TREE test/hosts/netlify-harness.js TREE [PORT]
//
// Serves TREE on 127.0.0.1:PORT (0 or absent: a free port) and prints one line,
// `{"port":N}`, once it listens. Each request:
// - whose URL path matches the function's `config.path` (URLPatterns on the
//   pathname, as Netlify's edge bundler compiles them) and none of its
//   `config.excludedPath`, and passes its `config.method` and `config.header`
//   if it has them, goes to the default export with (request, context). A Response is the answer; undefined lets
//   the request through to the static files, as on Netlify.
// - else is served from the static files: the file with a content type, a
//   folder's index.html, or a 404 carrying TREE/404.html.
// The function's own fetches come back here over real HTTP and take the same path.
// Every response carries `x-netlify-harness`: `function` (the function's
// Response), `function-next` (the file it asked for with context.next() and
// returned), `function-passthrough` (it returned undefined) or `static` (no
// route matched), so tests can tell who answered. Nothing else is added: no
// _headers, no _redirects (see docs/hosts.md, Netlify).

const [treeArg, portArg = '0'] = Deno.args;
if (!treeArg) {
  console.error('usage: netlify-harness.js TREE [PORT]');
  Deno.exit(2);
}
const tree = treeArg.replace(/\/+$/, '');

/** The tree path as a file URL (Deno's std would do this; the harness imports nothing remote). */
const fileUrl = (/** @type {string} */ path) => new URL('file://' + path.split('/').map(encodeURIComponent).join('/')).href;

/**
 * @typedef {(request: Request, context: Record<string, unknown>) => Promise<Response | undefined | void> | Response | undefined | void} EdgeFunction
 * @typedef {{ path?: string | string[], excludedPath?: string | string[], method?: string | string[], header?: Record<string, boolean | string> }} EdgeConfig
 */
const mod = /** @type {{ default: EdgeFunction, config?: EdgeConfig }} */ (await import(fileUrl(`${tree}/_netlify/reflist.js`)));
const fn = mod.default;
const config = mod.config ?? {};
const list = (/** @type {string | string[] | undefined} */ v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const included = list(config.path).map((p) => new URLPattern({ pathname: p }));
const excluded = list(config.excludedPath).map((p) => new URLPattern({ pathname: p }));
const methods = list(config.method).map((m) => m.toUpperCase());
/** Netlify's `header` matchers: true, the header is there; false, it is not; a string, a regex its value matches. */
const headerRules = Object.entries(config.header ?? {});

/** Whether Netlify would run the function for this request. */
function routed(/** @type {Request} */ request) {
  const { pathname } = new URL(request.url);
  if (methods.length > 0 && !methods.includes(request.method)) return false;
  for (const [name, rule] of headerRules) {
    const value = request.headers.get(name);
    if (rule === true ? value === null : rule === false ? value !== null : value === null || !new RegExp(rule).test(value)) return false;
  }
  return included.some((p) => p.test({ pathname })) && !excluded.some((p) => p.test({ pathname }));
}

/** @type {Record<string, string>} */
const TYPES = {
  json: 'application/json',
  js: 'application/javascript',
  mjs: 'application/javascript',
  html: 'text/html; charset=UTF-8',
  css: 'text/css; charset=UTF-8',
  txt: 'text/plain; charset=UTF-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  gz: 'application/gzip',
};
const typeOf = (/** @type {string} */ path) => TYPES[path.slice(path.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';

/** The file under the tree for a URL path, or undefined (an empty segment, `//`, names no file; nor does a bad escape). */
async function fileFor(/** @type {string} */ pathname) {
  let segments;
  try {
    segments = pathname.slice(1).split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
  if (segments.some((s, i) => (s === '' && i < segments.length - 1) || s === '.' || s === '..' || s.includes('/'))) return undefined;
  const path = [tree, ...segments].join('/');
  for (const candidate of segments.at(-1) === '' ? [path + 'index.html'] : [path, path + '/index.html']) {
    try {
      if ((await Deno.stat(candidate)).isFile) return candidate;
    } catch {
      // not there: try the next
    }
  }
  return undefined;
}

/** What Netlify's CDN answers from the deployed files. */
async function serveStatic(/** @type {Request} */ request, /** @type {string} */ via) {
  const headers = new Headers({ 'x-netlify-harness': via });
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    headers.set('allow', 'GET, HEAD');
    return new Response(null, { status: 405, headers });
  }
  const file = await fileFor(new URL(request.url).pathname);
  const status = file ? 200 : 404;
  const path = file ?? `${tree}/404.html`;
  let body;
  try {
    body = await Deno.readFile(path);
  } catch {
    body = new TextEncoder().encode('Not Found');
  }
  headers.set('content-type', file ? typeOf(path) : 'text/html; charset=UTF-8');
  return new Response(request.method === 'HEAD' ? null : body, { status, headers });
}

let requests = 0;

/** A Netlify Context with what the function may touch; no geo, no real cookies. */
function contextFor(/** @type {Request} */ request, /** @type {Deno.ServeHandlerInfo} */ info) {
  const url = new URL(request.url);
  return {
    account: { id: 'harness' },
    cookies: { get: () => undefined, set: () => {}, delete: () => {} },
    deploy: { context: 'production', id: 'harness', published: true },
    ip: 'hostname' in info.remoteAddr ? info.remoteAddr.hostname : '127.0.0.1',
    log: (/** @type {unknown[]} */ ...args) => console.error(...args),
    next: (/** @type {Request | undefined} */ next) => serveStatic(next ?? request, 'function-next'),
    params: {},
    requestId: `harness-${++requests}`,
    server: { region: 'local' },
    site: { id: 'harness', name: 'reflist-harness', url: url.origin },
    url,
    waitUntil: (/** @type {Promise<unknown>} */ p) => void p.catch(() => {}),
  };
}

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(portArg),
    onListen: ({ port }) => console.log(JSON.stringify({ port })),
  },
  async (request, info) => {
    if (!routed(request)) return serveStatic(request, 'static');
    let response;
    try {
      response = await fn(request, contextFor(request, info));
    } catch (err) {
      // Netlify answers an uncaught error with its own error page.
      console.error(err);
      return new Response('edge function threw', { status: 500, headers: { 'x-netlify-harness': 'function-error' } });
    }
    if (response === undefined) return serveStatic(request, 'function-passthrough');
    const headers = new Headers(response.headers);
    if (!headers.has('x-netlify-harness')) headers.set('x-netlify-harness', 'function');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  },
);
