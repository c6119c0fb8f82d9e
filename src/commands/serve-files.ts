// The compat server's file half. Which file a path names, in which encoding
// and under which headers is decided here (pure, but for the file system's
// say on what exists); sirv then sends it: its length, its ETag and the 304
// that matches it, ranges.
import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, resolve, sep } from 'node:path';
import sirv, { type RequestHandler } from 'sirv';
import { CACHE_CONTROL, IMMUTABLE_CACHE_CONTROL, JSON_TYPE, MANIFEST_CACHE_CONTROL } from '../client/host.js';
import { MANIFEST, storedCompressed } from '../client/paths.js';
import { toUrl } from '../client/request.js';
import type { Manifest } from '../client/types.js';
import { internalFolder, paged } from '../render/host-rules.js';
import { takesCopies } from '../write/copies.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const TYPES: Record<string, string> = {
  '.json': JSON_TYPE,
  '.js': 'text/javascript; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  // The index's files, stored gzip-compressed (docs/tree.md): bytes the client inflates, never a Content-Encoding.
  '.gz': 'application/gzip',
};

/** A JSON answer, with CORS; HEAD sends the headers alone. */
export function sendJson(
  res: ServerResponse,
  method: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': JSON_TYPE,
    'access-control-allow-origin': '*',
    ...headers,
    'content-length': Buffer.byteLength(text),
  });
  res.end(method === 'HEAD' ? undefined : text);
}

/** A file of a tree: the real path of the tree's root and of the file, and the file's stat. */
export interface Located {
  base: string;
  file: string;
  stats: Stats;
}

/**
 * The file `relative` names inside root, or undefined for anything outside it
 * (`..`, symlinks out) or missing; a folder names its index.html. Root itself
 * may be a link (the build's output is one): it is resolved on every call, so
 * a rebuild's swap is seen.
 */
export function locate(root: string, relative: string): Located | undefined {
  if (relative.includes('\0')) return undefined;
  try {
    // The system's realpath: one call, where realpathSync's own walk reads every link of the path.
    const base = realpathSync.native(root);
    const file = realpathSync.native(resolve(base, '.' + sep + relative));
    if (file !== base && !file.startsWith(base + sep)) return undefined;
    const stats = statSync(file);
    if (stats.isDirectory()) return locate(root, join(relative, 'index.html'));
    return stats.isFile() ? { base, file, stats } : undefined;
  } catch {
    return undefined;
  }
}

/** The real path of the file `relative` names inside root (locate). */
export const safeFile = (root: string, relative: string): string | undefined => locate(root, relative)?.file;

/** The content codings of --compress's copies (write/copies.ts), by the suffix of the copy. */
const CODINGS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;
export type Coding = (typeof CODINGS)[number]['coding'];

/**
 * The copies' codings a request's Accept-Encoding takes, best first (RFC 9110
 * §12.5.3): by weight, brotli before gzip at equal weight (its copies are the
 * smaller), none that `q=0` refuses. No header takes none: a client that says
 * nothing, such as curl, gets the file as it is.
 */
export function acceptedCodings(header: string | undefined): Coding[] {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name === 'x-gzip' ? 'gzip' : name, Number.isNaN(weight) ? 0 : weight);
  }
  const any = weights.get('*') ?? 0;
  return CODINGS.map(({ coding }) => ({ coding, weight: weights.get(coding) ?? any }))
    .filter((c) => c.weight > 0)
    .sort((a, b) => b.weight - a.weight)
    .map((c) => c.coding);
}

/**
 * Which bytes answer for a file: its copy in the best coding the request
 * takes, else the file itself. `copies` are the codings the file has a copy
 * in; with any, the answer varies by Accept-Encoding.
 */
export function chooseCoding(accepted: readonly Coding[], copies: readonly Coding[]): Coding | undefined {
  return accepted.find((coding) => copies.includes(coding));
}

/** The folders of a tree's result page files, named after their content (docs/tree.md): `author/pages/`. */
export function contentNamedFolders(manifest: Manifest): string[] {
  return paged(manifest).map((list) => `${internalFolder(manifest, list)}/pages/`);
}

/**
 * How long a file of the tree may be kept (docs/hosts.md, "Cache headers"),
 * as nginx.conf says it: lookup.json asked again each time, a result page
 * file for a year, as what is at its URL never changes, anything else five
 * minutes. `path` is relative to the tree's root.
 */
export function cacheControlOf(path: string, contentNamed: readonly string[]): string {
  if (path === MANIFEST) return MANIFEST_CACHE_CONTROL;
  if (contentNamed.some((folder) => path.startsWith(folder))) return IMMUTABLE_CACHE_CONTROL;
  return CACHE_CONTROL;
}

/**
 * Whether an If-Modified-Since header lets a file modified at `mtime` answer
 * 304. HTTP dates count whole seconds; a date that cannot be read is ignored,
 * as RFC 9110 §13.1.3 says.
 */
export function unmodifiedSince(header: string | undefined, mtime: Date): boolean {
  if (header === undefined) return false;
  const since = Date.parse(header);
  return !Number.isNaN(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since;
}

/** What answers a request for a file: the file sent and the headers decided here. */
export interface FileChoice {
  /** The real path of the file sent (a copy, or the file), below `base`. */
  sent: string;
  base: string;
  headers: Record<string, string>;
  stats: Stats;
}

/**
 * The copies beside `file`, by coding: each a regular file, never a link, so
 * nothing outside the tree. A file stored compressed has none.
 */
function copiesOf(file: string, size: number): Map<Coding, { file: string; stats: Stats }> {
  const copies = new Map<Coding, { file: string; stats: Stats }>();
  if (storedCompressed(file) || !takesCopies(file, size)) return copies;
  for (const { coding, suffix } of CODINGS) {
    const stats = lstatSync(file + suffix, { throwIfNoEntry: false });
    if (stats?.isFile()) copies.set(coding, { file: file + suffix, stats });
  }
  return copies;
}

/** What answers for the file `path` names below root, or undefined when it names none. */
export function chooseFile(
  root: string,
  path: string,
  acceptEncoding: string | undefined,
  contentNamed: readonly string[],
): FileChoice | undefined {
  const found = locate(root, path);
  if (!found) return undefined;
  const { base, file, stats } = found;
  const copies = copiesOf(file, stats.size);
  const coding = chooseCoding(acceptedCodings(acceptEncoding), [...copies.keys()]);
  const sent = coding ? copies.get(coding)! : { file, stats };
  const headers: Record<string, string> = {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'access-control-allow-origin': '*',
    'cache-control': cacheControlOf(relative(base, file).split(sep).join('/'), contentNamed),
    'last-modified': sent.stats.mtime.toUTCString(),
  };
  if (copies.size > 0) headers['vary'] = 'Accept-Encoding';
  if (coding) headers['content-encoding'] = coding;
  return { sent: sent.file, base, headers, stats: sent.stats };
}

/**
 * sirv over the real root a file was found in, made anew when a rebuild has
 * swapped the root's link to another generation. `dev`: sirv looks at the
 * file system on each request, not at a map of the files taken at its start.
 * Its ETag is the file's size and modification time, and it answers an
 * If-None-Match that is that ETag with a 304.
 */
function sirvOver(): (base: string) => RequestHandler {
  let current: { base: string; send: RequestHandler } | undefined;
  return (base) => {
    if (current?.base !== base) current = { base, send: sirv(base, { dev: true, etag: true, extensions: [] }) };
    return current.send;
  };
}

/** A path of the tree as the URL path sirv reads back to it (decodeURI). No tree's file name holds `?` or `#`. */
const urlPath = (base: string, file: string): string => encodeURI('/' + relative(base, file).split(sep).join('/'));

/**
 * Sends the file a choice names through sirv, which takes the headers set
 * here over its own. It labels any `.gz` file gzip-encoded: a stored index
 * file gets an empty list of Content-Encoding values, which Node writes as
 * no header. A read that fails (a rebuild removed the file) ends the answer,
 * not the process: sirv pipes its read stream unwatched.
 */
function send(req: IncomingMessage, res: ServerResponse, choice: FileChoice, sender: RequestHandler): void {
  for (const [name, value] of Object.entries(choice.headers)) res.setHeader(name, value);
  if (choice.headers['content-encoding'] === undefined) res.setHeader('content-encoding', []);
  res.once('pipe', (read) => read.on('error', () => res.destroy()));
  const asked = req.url;
  req.url = urlPath(choice.base, choice.sent);
  sender(req, res, () => {
    // sirv found no file: a rebuild removed it since chooseFile looked. The headers were the file's.
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    sendJson(res, req.method ?? 'GET', 404, { error: `not found: ${asked}` });
  });
}

/**
 * Serves the files below root, by GET and HEAD, with CORS; `headers` go on
 * every answer, over the ones decided here. A request path is only ever read
 * through locate. `contentNamed` are the folders whose files never change at
 * their URL (contentNamedFolders).
 */
export function fileHandler(
  root: string,
  headers: Record<string, string> = {},
): (req: IncomingMessage, res: ServerResponse, contentNamed?: readonly string[]) => Promise<void> {
  const senderFor = sirvOver();
  return async (req, res, contentNamed = []) => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      return sendJson(
        res,
        method,
        405,
        { error: `method ${method} not allowed: use GET or HEAD` },
        { ...headers, allow: 'GET, HEAD' },
      );
    }
    let path: string;
    try {
      path = decodeURIComponent(toUrl(req.url ?? '/').pathname);
    } catch {
      return sendJson(res, method, 400, { error: 'malformed percent-encoding in path' }, headers);
    }
    const choice = chooseFile(root, path, req.headers['accept-encoding'], contentNamed);
    if (!choice) return sendJson(res, method, 404, { error: `not found: ${path}` }, headers);
    Object.assign(choice.headers, headers);
    // sirv answers If-None-Match (its ETag); If-Modified-Since, which it leaves, counts only without one.
    if (
      req.headers['if-none-match'] === undefined &&
      unmodifiedSince(req.headers['if-modified-since'], choice.stats.mtime)
    ) {
      res.writeHead(304, choice.headers);
      return void res.end();
    }
    send(req, res, choice, senderFor(choice.base));
  };
}
