// The compat server: serves the tree's files and answers the original
// service's query-string URLs through the very client the browser runs.
import { createReadStream, realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { createLookupClient, fileAnswer, type LookupClient } from '../client/client.js';
import { adapterRouteOf, answerHttp } from '../client/host.js';
import { MANIFEST } from '../client/paths.js';
import { toUrl } from '../client/request.js';
import { ReflistError } from '../errors.js';
import { readRawRequestLines } from './request-lines.js';

const TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  // The index's files, stored gzip-compressed (docs/tree.md): bytes the client inflates, never a Content-Encoding.
  '.gz': 'application/gzip',
};

/**
 * The real path of a file inside root, or undefined for anything outside it
 * (`..`, symlinks out) or missing. Root itself may be a link (the build's
 * output is one): it is resolved on every call, so a rebuild's swap is seen.
 */
export function safeFile(root: string, relative: string): string | undefined {
  if (relative.includes('\0')) return undefined;
  try {
    const base = realpathSync(root);
    const real = realpathSync(resolve(base, '.' + sep + relative));
    if (real !== base && !real.startsWith(base + sep)) return undefined;
    const stat = statSync(real);
    if (stat.isDirectory()) return safeFile(root, join(relative, 'index.html'));
    return stat.isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** A client over the files of root; recreated when the tree is rebuilt (lookup.json changes). */
function treeClient(root: string): () => LookupClient {
  let client: LookupClient | undefined;
  let stamp = '';
  const fetch = async (url: string) => {
    // The client reads lookup.json past HTTP caches with a query (?fresh=…): a file is its path alone.
    const file = safeFile(root, url.slice('reflist:/'.length).replace(/[?#].*$/s, ''));
    return fileAnswer(file ? await readFile(file).catch(() => undefined) : undefined);
  };
  return () => {
    // A rebuild swaps the generation the root links to, or rewrites lookup.json in place.
    const file = safeFile(root, MANIFEST);
    const now = file ? `${file}@${statSync(file).mtimeMs}` : '';
    if (!client || now !== stamp)
      [client, stamp] = [createLookupClient({ baseUrl: 'reflist:/', fetch, cacheSize: 256 }), now];
    return client;
  };
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

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
    'content-type': TYPES['.json']!,
    'access-control-allow-origin': '*',
    ...headers,
    'content-length': Buffer.byteLength(text),
  });
  res.end(method === 'HEAD' ? undefined : text);
}

/**
 * Serves the files below root, by GET and HEAD, with CORS; `headers` go on
 * every answer. A request path is only ever read through safeFile.
 */
export function fileHandler(root: string, headers: Record<string, string> = {}): Handler {
  return async (req, res) => {
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
    const file = safeFile(root, path);
    if (!file) return sendJson(res, method, 404, { error: `not found: ${path}` }, headers);
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'access-control-allow-origin': '*',
      ...headers,
      'content-length': statSync(file).size,
    });
    if (method === 'HEAD') return void res.end();
    // A rebuild may remove the file between the stat and the read: end the answer, not the process.
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  };
}

export interface ServeOptions {
  dir: string;
  /** Headers every answer carries, over the defaults (`reflist dev` sends `cache-control: no-store`). */
  headers?: Record<string, string>;
}

/** The compat server's request handling: the original URLs answered by the client, everything else a file of the tree. */
export function compatHandler({ dir, headers = {} }: ServeOptions): Handler {
  const root = resolve(dir);
  const client = treeClient(root);
  const files = fileHandler(root, headers);
  return async (req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    try {
      // Without a readable lookup.json, the client's answer says what is wrong (502).
      const api = await client()
        .manifest()
        .then(
          (m) => m.api,
          () => undefined,
        );
      if ((method !== 'GET' && method !== 'HEAD') || !api || adapterRouteOf(url, api) === 'answer') {
        const http = await answerHttp(client(), method, url);
        res.writeHead(http.status, { ...http.headers, ...headers, 'content-length': Buffer.byteLength(http.body) });
        return void res.end(method === 'HEAD' ? undefined : http.body);
      }
      await files(req, res);
    } catch (err) {
      sendJson(res, 'GET', 500, { error: String(err) });
    }
  };
}

export function createCompatServer(options: ServeOptions): Server {
  return readRawRequestLines(createServer(compatHandler(options)));
}

/**
 * Starts `server` on host:port, resolving to the port it got. A port in use
 * or refused is an error a person can act on, not a stack trace.
 */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  try {
    await new Promise<void>((listening, failed) => server.once('error', failed).listen(port, host, listening));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new ReflistError(
        'INVALID_OPTION',
        `--port: ${host}:${port} is in use; choose another port, or --port 0 for any free one`,
      );
    if (code === 'EACCES')
      throw new ReflistError(
        'INVALID_OPTION',
        `--port: ${host}:${port} may not be listened on by this user; choose a port above 1023`,
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new ReflistError('INVALID_OPTION', `--host: ${host} is no address of this machine`);
    throw err;
  }
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}

/** The tree a server is started over: refused at once when it is none, rather than answering 502 to every URL. */
export function checkTree(dir: string): void {
  if (!safeFile(dir, MANIFEST)) {
    throw new ReflistError(
      'INVALID_OPTION',
      `--dir: no reflist tree at ${dir} (${MANIFEST} is missing); build one with reflist build --out ${dir}`,
    );
  }
}
