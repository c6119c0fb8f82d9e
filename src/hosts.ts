// Host configuration beside the tree: `_headers` (Netlify, Cloudflare),
// `_redirects` (Netlify), `_routes.json` and `.assetsignore` (Cloudflare) and
// `nginx.conf`. Pure text from the manifest and the build's options, so the
// same sources give the same files; docs/hosts.md tells what each host
// answers. The paths written here are those of client/paths.ts (`pagePath`,
// `firstPagePaths`); test/nginx.test.ts checks that they agree by serving a
// real tree through nginx.
import { CACHE_CONTROL, HOST_FILES, IMMUTABLE_CACHE_CONTROL, MANIFEST_CACHE_CONTROL, SERVICE_PATHS } from './client/host.js';
import { COUNTED_LISTS, PAGED_LISTS, type CountedList, type Manifest, type PagedList } from './client/types.js';
import type { TreeFile } from './tree-files.js';

export interface HostOptions {
  /** An http(s) origin (`http://127.0.0.1:8081`) where nginx.conf sends what only the client answers. */
  nginxUpstream?: string;
}

/** Parameter spellings the legacy rules match on hosts that compare names case-sensitively (select2 sends lower case). */
const CASINGS = {
  page: ['page', 'Page'],
  system: ['system', 'System'],
  term: ['term', 'Term'],
  id: ['id', 'Id'],
} as const;

const isCounted = (list: PagedList): list is CountedList => (COUNTED_LISTS as readonly string[]).includes(list);

export function* hostFiles(manifest: Manifest, options: HostOptions = {}): Generator<TreeFile> {
  yield ['_headers', headers()];
  yield ['_redirects', redirects()];
  yield ['_routes.json', routes()];
  yield ['.assetsignore', assetsIgnore()];
  yield ['nginx.conf', nginxConf(manifest, options)];
}

/**
 * Cloudflare Pages sends the paths listed here to _worker.js and serves every
 * other file itself, at no invocation: the service's paths, and the host files
 * Pages would otherwise serve, which the worker answers with a 404.
 */
function routes(): string {
  return JSON.stringify({ version: 1, include: [...SERVICE_PATHS, ...HOST_FILES], exclude: [] }, null, 2) + '\n';
}

/** Files Cloudflare Workers' static assets must not upload (`_headers` it reads as its own). */
function assetsIgnore(): string {
  const names = HOST_FILES.filter((f) => f !== '/_headers').map((f) => f.slice(1).replace(/\/\*$/, ''));
  return `# reflist: host files, read by a host, never served (generated with the tree).\n${names.join('\n')}\n`;
}

/**
 * Netlify applies the last matching rule's Cache-Control, Cloudflare Pages
 * joins them all with commas: lookup.json's `no-cache` wins either way. The
 * result page files could be immutable, but a joined value would hold two
 * max-ages, so only nginx.conf says so.
 */
function headers(): string {
  return `# reflist: response headers for Netlify and Cloudflare Pages (generated with the tree).
# Files keep their URLs across builds, hence the short max-age; lookup.json is
# asked again on every visit, so a new visit starts on the newest build.
/*
  Access-Control-Allow-Origin: *
  Cache-Control: ${CACHE_CONTROL}
/lookup.json
  Cache-Control: ${MANIFEST_CACHE_CONTROL}
/*.json
  Content-Type: application/json; charset=utf-8
/lookup-client.js
  Content-Type: text/javascript; charset=utf-8
`;
}

/**
 * Netlify rewrites of the legacy query URLs onto the static pages. Rules match
 * top down and a rule matches whatever other parameters come along, so the
 * requests only lookup-client.js can answer (Term, Id) come first and answer
 * 404 rather than a page that ignores them. `!` is needed because
 * `/author.json` exists (a rewrite never shadows a file otherwise).
 */
function redirects(): string {
  const lines = [
    '# reflist: legacy query URLs -> static files, for Netlify (generated with the tree).',
    '# Netlify matches query parameter names case-sensitively: these rules cover page/Page,',
    '# system/System, term/Term and id/Id. Term and Id need lookup-client.js: they answer 404.',
    '# Cloudflare Pages cannot match query strings and skips these lines. With the edge function',
    '# (_netlify/reflist.js) none of these rules is reached: it answers every such URL first.',
  ];
  for (const file of HOST_FILES) {
    if (file !== '/_headers' && file !== '/_redirects') lines.push(`${file}  /404.html  404!`);
  }
  const rule = (from: string, params: string[], to: string, status: string) =>
    lines.push([from, ...params, to, status].join('  '));
  for (const list of PAGED_LISTS) {
    const from = `/${list}.json`;
    for (const name of [...CASINGS.term, ...CASINGS.id]) rule(from, [`${name}=:x`], '/404.html', '404!');
    if (isCounted(list)) {
      for (const page of CASINGS.page) {
        for (const system of CASINGS.system) rule(from, [`${page}=:p`, `${system}=:s`], `/${list}/system/:s/page/:p.json`, '200!');
      }
    }
    for (const page of CASINGS.page) rule(from, [`${page}=:p`], `/${list}/page/:p.json`, '200!');
    if (isCounted(list)) for (const system of CASINGS.system) rule(from, [`${system}=:s`], `/${list}/system/:s.json`, '200!');
  }
  for (const from of ['/country.json', '/country/:c/state.json']) {
    for (const name of CASINGS.term) rule(from, [`${name}=:x`], '/404.html', '404!');
  }
  return lines.join('\n') + '\n';
}

/** A JSON error body for nginx's `return`, which interpolates `$name`: our messages hold none. */
const error = (message: string) => `'${JSON.stringify({ error: message })}'`;

/** Sends a request only the client can answer to @reflist_client (see clientLocation). */
const TO_CLIENT = 'return 418;';

function nginxList(list: PagedList, manifest: Manifest): string {
  const pastEnd = `'{"total":${manifest.lists[list].total},"items":[]}'`;
  // System ids are [A-Za-z0-9_-]: nothing to escape in a regex.
  const systems = manifest.systems.map((s) => s.id).join('|');
  // The checks run in the original service's order: Page, Id, child, then System.
  const checks = [
    `if ($arg_page !~ "^(0*[1-9][0-9]*)?$") { return 400 ${error('Page: expected an integer >= 1')}; }`,
    `if ($arg_id !~ "^[0-9]*$") { return 400 ${error('Id: expected digits')}; }`,
    ...(list === 'division'
      ? [`if ($arg_child !~* "^(true|false|1|0)?$") { return 400 ${error('child: expected true, false, 1 or 0')}; }`]
      : []),
    ...(isCounted(list) ? [`if ($arg_system !~ "^(${systems})?$") { return 404 ${error('unknown System')}; }`] : []),
    `if ($arg_id != "") { ${TO_CLIENT} }`,
    `if ($arg_term != "") { ${TO_CLIENT} }`,
    // No tree has a billion pages; such a number would only make a needlessly long file name.
    `if ($reflist_page ~ "^[0-9]{10}") { return 200 ${pastEnd}; }`,
  ];
  const file = isCounted(list) ? `/${list}$reflist_system/page/$reflist_page.json` : `/${list}/page/$reflist_page.json`;
  return `location = /${list}.json {
    error_page 418 = @reflist_client;
    ${checks.join('\n    ')}
    try_files ${file} @reflist_${list}_past_end;
}
# A page past the end has no file: the true total and no items.
location @reflist_${list}_past_end {
    return 200 ${pastEnd};
}
`;
}

/** A regex alternative of the host files, for an nginx location. */
const hostFilesPattern = () =>
  HOST_FILES.map((f) => f.slice(1).replace(/\./g, '\\\\.').replace(/\/\*$/, '/.*')).join('|');

/**
 * Where the requests only the client answers (Term, Id, child) go: to a
 * `reflist serve` on the same tree when the build names one, else a 501 that
 * says how to get there. The upstream's own CORS and cache headers give way
 * to the server's, so no header is sent twice.
 */
function clientLocation(upstream: string | undefined): string {
  if (upstream) {
    return `location @reflist_client {
    proxy_pass ${upstream};
    proxy_hide_header Access-Control-Allow-Origin;
    proxy_hide_header Cache-Control;
}
`;
  }
  return `# Term, Id and child need the client. To answer them exactly, run \`reflist serve --dir <this tree>\`
# and build with --nginx-upstream http://127.0.0.1:PORT: this location then proxies to it.
location @reflist_client {
    return 501 ${error('Term, Id and child need lookup-client.js or reflist serve: this nginx serves the static pages only (build with --nginx-upstream)')};
}
`;
}

function nginxConf(manifest: Manifest, options: HostOptions): string {
  return `# reflist nginx.conf, tree format ${manifest.format}: generated by the build, rebuilt with the tree.
# The body of a server block of its own. Include it in a server that sets root to
# this folder, and reload nginx after each build (list totals and systems are
# written below):
#
#   server {
#       listen 8080;
#       root /srv/reflist/dist;
#       include /srv/reflist/dist/nginx.conf;
#   }
#
# Serves the static tree with CORS, and answers the legacy query URLs of author,
# division and descriptor with Page and System (as /author.json?Page=2&System=gbif).
# Term, Id and child need the client: ${options.nginxUpstream ? `they go to ${options.nginxUpstream} (reflist serve)` : 'they answer 501 here (see @reflist_client)'}.

types {
    application/json json;
    text/javascript js mjs;
    text/html html;
    text/css css;
    image/png png;
    image/svg+xml svg;
}
default_type application/json;
charset utf-8;
charset_types application/json text/javascript text/css image/svg+xml;
gzip on;
gzip_types application/json text/javascript text/css image/svg+xml;
gzip_min_length 256;
gzip_vary on;
# a tree built with --compress carries .gz siblings: serve them instead of compressing again
gzip_static on;
add_header Access-Control-Allow-Origin * always;
add_header Cache-Control "${CACHE_CONTROL}";

if ($request_method !~ ^(GET|HEAD)$) {
    return 405 ${error('method not allowed: use GET or HEAD')};
}

# Path ids may carry leading zeros: /country/0840.json is country 840.
rewrite "^/country/0+([0-9]+)(.*)$" /country/$1$2;
rewrite "^/country/([0-9]+)/state/0+([0-9]+)(.*)$" /country/$1/state/$2$3;
rewrite "^/country/([0-9]+)/state/([0-9]+)/county/0+([0-9]+\\.json)$" /country/$1/state/$2/county/$3;

# Page and System of the legacy URLs. nginx's $arg_name matches the name in any
# case and takes its first occurrence, as the original service does. They are
# set here, in the server, because an if that does not return inside a location
# would drop that location's try_files.
set $reflist_page 1;
if ($arg_page ~ "^0*([1-9][0-9]*)$") {
    set $reflist_page $1;
}
set $reflist_system "";
if ($arg_system ~ "^[A-Za-z0-9_-]+$") {
    set $reflist_system /system/$arg_system;
}

${PAGED_LISTS.map((list) => nginxList(list, manifest)).join('')}
location = /country.json {
    error_page 418 = @reflist_client;
    if ($arg_term != "") { ${TO_CLIENT} }
    try_files $uri @reflist_not_found;
}
location ~ "^/country/[0-9]+/state\\.json$" {
    error_page 418 = @reflist_client;
    if (!-f $request_filename) { return 404 ${error('not found: no such country')}; }
    if ($arg_term != "") { ${TO_CLIENT} }
    try_files $uri @reflist_not_found;
}
# lookup.json is asked again on every visit; result page files are named after their content.
# (A location's own add_header drops the server's, hence CORS again.)
location = /lookup.json {
    add_header Access-Control-Allow-Origin * always;
    add_header Cache-Control "${MANIFEST_CACHE_CONTROL}";
    try_files $uri @reflist_not_found;
}
location ~ "^/(${PAGED_LISTS.join('|')})/pages/" {
    add_header Access-Control-Allow-Origin * always;
    add_header Cache-Control "${IMMUTABLE_CACHE_CONTROL}";
    try_files $uri @reflist_not_found;
}
${clientLocation(options.nginxUpstream)}location ~ "^/(${hostFilesPattern()})$" {
    return 404 ${error('not found')};
}
location / {
    try_files $uri $uri/index.html @reflist_not_found;
}
location @reflist_not_found {
    if ($uri ~ "^[A-Za-z0-9/._~-]*$") { return 404 '{"error":"not found: $uri"}'; }
    return 404 ${error('not found')};
}
`;
}
