// The compat server: serves the tree's files and answers the original
// service's query-string URLs through the very client the browser runs.
import { createReadStream, realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { createLookupClient, type LookupClient } from './client/client.js';
import { answerHttp, routeOf } from './client/host.js';
import { MANIFEST } from './client/paths.js';
import { toUrl } from './client/request.js';

const TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
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
    const file = safeFile(root, url.slice('reflist:/'.length));
    const text = file ? await readFile(file, 'utf8').catch(() => undefined) : undefined;
    return { ok: text !== undefined, text: async () => text ?? '' };
  };
  return () => {
    // A rebuild swaps the generation the root links to, or rewrites lookup.json in place.
    const file = safeFile(root, MANIFEST);
    const now = file ? `${file}@${statSync(file).mtimeMs}` : '';
    if (!client || now !== stamp) [client, stamp] = [createLookupClient({ baseUrl: 'reflist:/', fetch, cacheSize: 256 }), now];
    return client;
  };
}

export interface ServeOptions {
  dir: string;
}

export function createCompatServer({ dir }: ServeOptions): Server {
  const root = resolve(dir);
  const client = treeClient(root);
  return createServer(async (req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    try {
      if (method !== 'GET' && method !== 'HEAD' || routeOf(url) === 'answer') {
        const http = await answerHttp(client(), method, url);
        res.writeHead(http.status, { ...http.headers, 'content-length': Buffer.byteLength(http.body) });
        return res.end(method === 'HEAD' ? undefined : http.body);
      }
      const fail = (status: number, error: string) => {
        const body = JSON.stringify({ error });
        res.writeHead(status, { 'content-type': TYPES['.json']!, 'access-control-allow-origin': '*', 'content-length': Buffer.byteLength(body) });
        res.end(method === 'HEAD' ? undefined : body);
      };
      let path: string;
      try {
        path = decodeURIComponent(toUrl(url).pathname);
      } catch {
        return fail(400, 'malformed percent-encoding in path');
      }
      const file = safeFile(root, path);
      if (!file) return fail(404, `not found: ${path}`);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'access-control-allow-origin': '*',
        'content-length': statSync(file).size,
      });
      if (method === 'HEAD') return res.end();
      createReadStream(file).pipe(res);
    } catch (err) {
      const body = JSON.stringify({ error: String(err) });
      res.writeHead(500, { 'content-type': TYPES['.json']!, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }
  });
}
