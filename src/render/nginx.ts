// nginx.conf beside the tree: the legacy query URLs answered from the static
// files where a file holds the answer, handed to `reflist serve` (or a 404)
// where only the client can answer (docs/hosts.md). Pure text from the
// manifest and the build's options; test/e2e/nginx.test.ts serves a real tree
// through nginx with it.
import { CACHE_CONTROL, HOST_FILES, IMMUTABLE_CACHE_CONTROL, MANIFEST_CACHE_CONTROL } from '../client/host.js';
import { groupSegment } from '../client/paths.js';
import { chainOf } from '../client/request.js';
import type { ApiList, ListInfo, Manifest } from '../client/types.js';
import {
  idClass,
  idPattern,
  internalFolder,
  nestedPaged,
  paged,
  pathPattern,
  rootPaged,
  spoken,
  type HostOptions,
} from './host-rules.js';

/**
 * A JSON error body for nginx's `return`: in single quotes, where nginx reads
 * a backslash as an escape, and interpolates `$name` (the unknown group's
 * message names its value so).
 */
const error = (message: string) => `'${JSON.stringify({ error: message }).replace(/[\\']/g, '\\$&')}'`;

/** Sends a request only the client can answer to @reflist_client (see clientLocation). */
const TO_CLIENT = 'return 418;';

/** Serves the path's plain file (see nginxList), as @reflist_file does. */
const TO_FILE = 'return 419;';

/**
 * The client reads a path as sent, nginx as decoded with `//` merged: a path
 * with a `//` or an escaped `.json` is no list's path but a file's name. This
 * matches `$request_uri` where the client reads a list's path.
 */
const AS_SENT = String.raw`"^([^/?]|/(?!/))*\.json(\?|$)"`;

/**
 * A parameter value nginx cannot read as sent, since it matches `$arg_name`
 * undecoded: an escape, a `+` (a space), a quote or a backslash (which the
 * unknown group's JSON message could not hold), a byte beyond ASCII. With an
 * upstream, the client reads those.
 */
const UNREAD = String.raw`"[^\x20-\x7e]|[%+\"\\\\]"`;

/** A quote or a backslash, which the unknown group's JSON message cannot hold as sent. */
const UNQUOTABLE = String.raw`"[\"\\\\]"`;

/** The variables a paged list's page and group are read into (pageSets), one per parameter name: lists may name them apart. */
const pageVar = (page: string | undefined) => (page === undefined ? '1' : `$reflist_page_${page.toLowerCase()}`);
const groupVar = (group: string) => `$reflist_group_${group.toLowerCase()}`;

/**
 * A paged list's checks of its parameters, in the original service's order
 * (Page, Id, child, then the group), and then the requests only the client
 * answers (Id, Term), each an nginx `if`.
 */
function pagedChecks(list: ApiList, manifest: Manifest, upstream: boolean): { checks: string[]; toClient: string[] } {
  const { page, id, child, group, term } = list.params;
  // Group ids are [A-Za-z0-9_-]: nothing to escape in a regex.
  const groups = manifest.systems.map((s) => s.id).join('|');
  const arg = (param: string) => `$arg_${param.toLowerCase()}`;
  // nginx alone reads values as sent (docs/hosts.md); it names an unknown group only where JSON can hold it.
  const unread = (param: string | undefined) =>
    param && upstream ? [`if (${arg(param)} ~ ${UNREAD}) { ${TO_CLIENT} }`] : [];
  const unknownGroup = (value: string) =>
    `return 404 ${error(`unknown ${groupSegment(manifest.api.group!)}${value}`)};`;
  // With child, Id names a child: where the children's ids look otherwise, the client tells which form applies.
  const idChecked = !list.children || idClass(list.children) === idClass(list);
  const idCheck = id
    ? [
        `if (${arg(id)} !~ "^${idClass(list)}*$") { return 400 ${error(`${id}: expected ${list.id === 'integer' ? 'digits' : `1 to 64 of ${list.chars}`}`)}; }`,
      ]
    : [];
  const idToClient = id ? [`if (${arg(id)} != "") { ${TO_CLIENT} }`] : [];
  const checks = [
    ...unread(page),
    ...(page
      ? [`if (${arg(page)} !~ "^(0*[1-9][0-9]*)?$") { return 400 ${error(`${page}: expected an integer >= 1`)}; }`]
      : []),
    ...unread(id),
    ...(idChecked ? idCheck : idToClient),
    ...unread(child),
    ...(child
      ? [
          `if (${arg(child)} !~* "^(true|false|1|0)?$") { return 400 ${error(`${child}: expected true, false, 1 or 0`)}; }`,
        ]
      : []),
    ...unread(group),
    ...(group && !upstream ? [`if (${arg(group)} ~ ${UNQUOTABLE}) { ${unknownGroup('')} }`] : []),
    ...(group ? [`if (${arg(group)} !~ "^(${groups})?$") { ${unknownGroup(` "${arg(group)}"`)} }`] : []),
  ];
  return {
    checks,
    toClient: [...(idChecked ? idToClient : []), ...(term ? [`if (${arg(term)} != "") { ${TO_CLIENT} }`] : [])],
  };
}

/** No tree has a billion pages; such a number would only make a needlessly long file name. */
const billion = (page: string) => `if (${pageVar(page)} ~ "^[0-9]{10}")`;

function nginxList(list: ApiList, manifest: Manifest, upstream: boolean): string {
  const { page, group } = list.params;
  const name = list.path;
  const pastEnd = `'{"total":${(manifest.lists[list.name] as ListInfo).total},"items":[]}'`;
  const { checks, toClient } = pagedChecks(list, manifest, upstream);
  const all = [
    // A `//` or an escaped `.json`: no list's path, but the file's.
    `if ($request_uri !~ ${AS_SENT}) { ${TO_FILE} }`,
    ...checks,
    ...toClient,
    ...(page ? [`${billion(page)} { return 200 ${pastEnd}; }`] : []),
  ];
  const file = `/${name}${group ? groupVar(group) : ''}/page/${pageVar(page)}.json`;
  return `location = /${name}.json {
    error_page 418 = @reflist_client;
    error_page 419 = @reflist_file;
    ${all.join('\n    ')}
    try_files ${file} @reflist_${list.name}_past_end;
}
# A page past the end has no file: the true total and no items.
location @reflist_${list.name}_past_end {
    return 200 ${pastEnd};
}
`;
}

/**
 * A paged list under a parent: each parent item's pages are files beneath
 * it, so nginx serves Page from them, and answers 404 under an unknown
 * parent (no page 1). A page past the end has no file, and only the parent's
 * page 1 says its total: it goes to the client like Term and Id (decision:
 * without an upstream, a 501 that says so, as nginx.conf cannot hold every
 * parent's total).
 */
function nginxNested(list: ApiList, k: number, manifest: Manifest, upstream: boolean): string {
  const { page } = list.params;
  // The path without `.json`, a named capture: by number, as a list's name may hold a `-`, which a variable's may not.
  const base = `$reflist_under_${k}`;
  const pastEnd = upstream ? '@reflist_client' : `@reflist_${list.name}_past_end`;
  const { checks, toClient } = pagedChecks(list, manifest, upstream);
  const all = [
    `if ($request_uri !~ ${AS_SENT}) { ${TO_FILE} }`,
    // Every known parent has a page 1, which is this very path (of ids and names: nothing to escape in JSON).
    // Checked before the query, as the client does: an unknown parent is a 404 whatever Page or Id holds.
    `if (!-f $request_filename) { return 404 '{"error":"not found: $uri"}'; }`,
    ...checks,
    ...toClient,
    ...(page ? [`${billion(page)} { return 420; }`] : []),
  ];
  return `location ~ "^(?<${base.slice(1)}>/${pathPattern(manifest, list, 're')})\\.json$" {
    error_page 418 = @reflist_client;
    error_page 419 = @reflist_file;
    error_page 420 = ${pastEnd};
    ${all.join('\n    ')}
    try_files ${base}/page/${pageVar(page)}.json ${pastEnd};
}
${
  upstream
    ? ''
    : `# A page past the end has no file, and its total is its parent's page 1's: the client says it.
location ${pastEnd} {
    return 501 ${error('a page past the end of a list under a parent needs lookup-client.js or reflist serve, which read its total: this nginx serves the static pages only (build with --nginx-upstream)')};
}
`
}`;
}

/**
 * Rewrites that drop an integer id's leading zeros in a path (`/country/0840.json`
 * is country 840): one per list with integer ids and files beneath or of its
 * items, in a block that applies them where the client reads a list's path.
 */
function leadingZeros(manifest: Manifest): string {
  const rules: string[] = [];
  for (const list of manifest.api.lists) {
    const under = manifest.api.lists.some((l) => l.parent === list.name);
    if (list.id !== 'integer' || (!under && !list.items)) continue;
    const chain = chainOf(manifest.api, list);
    const before = chain.slice(0, -1).map((l) => `${l.path}/(${idPattern(l)})`);
    const from = [...before, `${list.path}/0+([0-9]+${under ? '' : '\\.json'})`].join('/');
    const to = [...chain.slice(0, -1).map((l, i) => `${l.path}/$${i + 1}`), `${list.path}/$${before.length + 1}`].join(
      '/',
    );
    rules.push(under ? `rewrite "^/${from}(.*)$" /${to}$${before.length + 2};` : `rewrite "^/${from}$" /${to};`);
  }
  if (rules.length === 0) return '';
  return `# Integer ids in a path may carry leading zeros: /list/0840.json is item 840 (in a
# path the client reads as a list's: not /list/0840%2Ejson, nor //list/0840.json).
if ($request_uri ~ ${AS_SENT}) {
${rules.map((rule) => `    ${rule}\n`).join('')}}
`;
}

/** Whole lists take Term, which only the client answers; under an unknown parent they are a 404. */
function nginxWhole(manifest: Manifest, list: ApiList): string {
  const term = list.params.term ? `\n    if ($arg_${list.params.term.toLowerCase()} != "") { ${TO_CLIENT} }` : '';
  if (!list.parent) {
    return `location = /${list.path}.json {
    error_page 418 = @reflist_client;${term}
    try_files $uri @reflist_not_found;
}
`;
  }
  return `location ~ "^/${pathPattern(manifest, list, 're').replace(/\.json$/, '')}\\.json$" {
    error_page 418 = @reflist_client;
    if (!-f $request_filename) { return 404 ${error(`not found: no such ${list.parent}`)}; }${term}
    try_files $uri @reflist_not_found;
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

/** The variables of pageVar and groupVar, set from the page and group parameters of every paged list. */
function pageSets(manifest: Manifest): string {
  const lists = paged(manifest);
  const pages = [...new Set(lists.map((l) => l.params.page?.toLowerCase()).filter((n) => n !== undefined))];
  const groups = [...new Set(lists.map((l) => l.params.group?.toLowerCase()).filter((n) => n !== undefined))];
  return (
    [
      ...pages.map((p) => `set ${pageVar(p)} 1;\nif ($arg_${p} ~ "^0*([1-9][0-9]*)$") {\n    set ${pageVar(p)} $1;\n}`),
      ...groups.map(
        (g) =>
          `set ${groupVar(g)} "";\nif ($arg_${g} ~ "^[A-Za-z0-9_-]+$") {\n    set ${groupVar(g)} /${groupSegment(manifest.api.group!)}/$arg_${g};\n}`,
      ),
    ].join('\n') + '\n'
  );
}

/** nginx.conf: the body of a server block of its own, for the tree `manifest` describes. */
export function nginxConf(manifest: Manifest, options: HostOptions): string {
  return `${confHeader(manifest, options)}
${serverSettings()}
${unreadableRequests()}
${listLocations(manifest, options)}${fileLocations(manifest, options)}`;
}

/** What the file is and how to use it, as comments: where it goes, the URLs it answers, where the rest go. */
function confHeader(manifest: Manifest, options: HostOptions): string {
  const example = paged(manifest)[0];
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
# Serves the static tree with CORS, and answers the legacy query URLs of
# ${spoken(paged(manifest).map((l) => pathPattern(manifest, l, ':')))} with their page${manifest.api.group ? ` and ${manifest.api.group}` : ''} parameters (as /${example ? pathPattern(manifest, example, ':') : 'list'}.json?${example?.params.page ?? 'Page'}=2).
# Term, Id and child need the client: ${options.nginxUpstream ? `they go to ${options.nginxUpstream} (reflist serve)` : 'they answer 501 here (see @reflist_client)'}.
`;
}

/** The server's types, compression and CORS, and the methods it takes. */
function serverSettings(): string {
  return `types {
    application/json json;
    text/javascript js mjs;
    text/html html;
    text/css css;
    image/png png;
    image/svg+xml svg;
    application/gzip gz;   # the index's files, stored compressed: sent as they are, never compressed again
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
`;
}

/** Requests nginx cannot read, answered in JSON too, and paths the client would read otherwise than nginx. */
function unreadableRequests(): string {
  return `# A request nginx cannot read answers JSON too: a path with an escape nginx
# refuses (%zz, %00) names nothing, as the client reads it (404); anything else
# is a 400.
error_page 400 = /_reflist/bad-request;
error_page 404 = @reflist_not_found;
location = /_reflist/bad-request {
    internal;
    if ($request ~ "^[A-Z]+ [^? ]*%") { return 404 ${error('not found: the path holds an escape nginx cannot read')}; }
    return 400 ${error('bad request: nginx could not read it')};
}

# An escaped / names no list and no file (as the client reads a path: segment by
# segment), though nginx would decode it into a folder.
if ($request_uri ~* "^[^?]*%2F") {
    return 404 ${error('not found: an escaped / (%2F) names no file')};
}
`;
}

/** The locations of the lists' paths, after the variables their parameters are read into. */
function listLocations(manifest: Manifest, options: HostOptions): string {
  return `${leadingZeros(manifest)}
# Page and System of the legacy URLs. nginx's $arg_name matches the name in any
# case and takes its first occurrence, as the original service does; each name
# has its own variable, as lists may name a parameter apart. They are set here,
# in the server, because an if that does not return inside a location would
# drop that location's try_files.
${pageSets(manifest)}
${rootPaged(manifest)
  .map((list) => nginxList(list, manifest, options.nginxUpstream !== undefined))
  .join('')}${nestedPaged(manifest)
  .map((list, k) => nginxNested(list, k, manifest, options.nginxUpstream !== undefined))
  .join('')}
${manifest.api.lists
  .filter((l) => l.shape === 'whole')
  .map((l) => nginxWhole(manifest, l))
  .join('')}`;
}

/** The locations of files: lookup.json, result pages, the client's requests, host files, and the fallbacks. */
function fileLocations(manifest: Manifest, options: HostOptions): string {
  return `# lookup.json is asked again on every visit; result page files are named after their content.
# (A location's own add_header drops the server's, hence CORS again.)
location = /lookup.json {
    add_header Access-Control-Allow-Origin * always;
    add_header Cache-Control "${MANIFEST_CACHE_CONTROL}";
    try_files $uri @reflist_not_found;
}
location ~ "^/(${paged(manifest)
    .map((l) => internalFolder(manifest, l))
    .join('|')})/pages/" {
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
location @reflist_file {
    try_files $uri @reflist_not_found;
}
location @reflist_not_found {
    if ($uri ~ "^[A-Za-z0-9/._~-]*$") { return 404 '{"error":"not found: $uri"}'; }
    return 404 ${error('not found')};
}
`;
}
