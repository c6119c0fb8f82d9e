// The compat server: serves the tree's files (serve-files.ts) and answers the
// original service's query-string URLs through the very client the browser runs.
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { createLookupClient, fileAnswer, type LookupClient } from '../client/client.js';
import { adapterRouteOf, answerHttp } from '../client/host.js';
import { MANIFEST } from '../client/paths.js';
import type { Manifest } from '../client/types.js';
import { ReflistError } from '../errors.js';
import { readRawRequestLines } from './request-lines.js';
import { contentNamedFolders, fileHandler, safeFile, sendJson, type Handler } from './serve-files.js';

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
  const contentNamed = new WeakMap<Manifest, string[]>();
  return async (req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    try {
      const current = client();
      // Without a readable lookup.json, the client's answer says what is wrong (502).
      const manifest = await current.manifest().catch(() => undefined);
      if ((method !== 'GET' && method !== 'HEAD') || !manifest || adapterRouteOf(url, manifest.api) === 'answer') {
        const http = await answerHttp(current, method, url);
        res.writeHead(http.status, { ...http.headers, ...headers, 'content-length': Buffer.byteLength(http.body) });
        return void res.end(method === 'HEAD' ? undefined : http.body);
      }
      let folders = contentNamed.get(manifest);
      if (!folders) contentNamed.set(manifest, (folders = contentNamedFolders(manifest)));
      await files(req, res, folders);
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
