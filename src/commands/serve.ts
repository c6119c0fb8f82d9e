// The compat server: serves the tree's files and answers the original
// service's query-string URLs through the very client the browser runs.
import { createReadStream, realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { Duplex } from 'node:stream';
import { createLookupClient, fileAnswer, type LookupClient } from '../client/client.js';
import { adapterRouteOf, answerHttp } from '../client/host.js';
import { MANIFEST } from '../client/paths.js';
import { toUrl } from '../client/request.js';
import { ReflistError } from '../errors.js';

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

/** What Node's parser says of a request it could not read (the `clientError` event). */
interface ClientError extends Error {
  code?: string;
  reason?: string;
  /** The bytes it was reading, and where in them it stopped. */
  rawPacket?: Buffer;
  bytesParsed?: number;
}

/**
 * The head of a request whose line Node's parser refused for a byte it takes
 * in no request target: a raw space, a control character, a byte beyond
 * ASCII (`curl 'http://host/author.json?Term=ß'` sends the ß as its UTF-8
 * bytes, as static hosts take it). `packet` holds the request's line from
 * before `at`, where the parser stopped; the head is the request from that
 * line on, its target's such bytes percent-encoded as a browser sends them,
 * and to close the connection after it. Undefined when `packet` does not
 * hold the head from the line's start to its end.
 */
export function encodeRequestHead(packet: Buffer, at: number): Buffer | undefined {
  const start = at > 0 ? packet.lastIndexOf(0x0a, at - 1) + 1 : 0;
  const end = packet.indexOf(0x0a, at);
  // Only a whole head: the rest of it would go to the parser that failed.
  if (end < 0 || !/\r?\n\r?\n/.test(packet.subarray(start).toString('latin1'))) return undefined;
  // latin1: one character a byte, so a character's code is its byte.
  const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (.+) (HTTP\/\d\.\d)\r?$/s.exec(
    packet.subarray(start, end).toString('latin1'),
  );
  if (!line) return undefined;
  const target = line[2]!.replace(
    /[^\x21-\x7e]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  // The parser reads no more of the client's connection: the answer closes it.
  return Buffer.concat([
    Buffer.from(`${line[1]} ${target} ${line[3]}\r\nconnection: close\r\n`, 'latin1'),
    packet.subarray(end + 1),
  ]);
}

/** Statuses for what Node's parser refuses, as Node's own answers give them; anything else is a 400. */
const REFUSED: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * Makes `server` answer a request whose line Node's parser refuses as it
 * answers the same request percent-encoded (encodeRequestHead), where Node
 * would answer an empty 400, and every other request it cannot read with a
 * JSON error. The request is read again on a connection of its own that
 * writes to the client's; the client's connection then ends, as the parser
 * reads no more of it. Its answer waits for one still being written there.
 */
export function readRawRequestLines(server: Server): Server {
  const answering = new WeakMap<Duplex, Promise<void>>();
  const refused = new WeakSet<Duplex>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    answering.set(req.socket, new Promise((closed) => res.once('close', () => closed())));
  });
  server.on('clientError', async (err: ClientError, socket: Duplex) => {
    // The parser stays failed: every later chunk on this connection fails again.
    if (refused.has(socket)) return;
    refused.add(socket);
    await answering.get(socket);
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const head =
      err.code === 'HPE_INVALID_URL' && err.rawPacket
        ? encodeRequestHead(err.rawPacket, err.bytesParsed ?? 0)
        : undefined;
    if (head) return void server.emit('connection', relay(socket, head));
    const status = REFUSED[err.code ?? ''] ?? 400;
    const body = JSON.stringify({ error: `the request could not be read: ${err.reason ?? err.message}` });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: ${TYPES['.json']}\r\naccess-control-allow-origin: *\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

/**
 * A connection that reads `head` and writes to `socket`: the request read
 * again, answered to the client. Its reading side ends only once the server
 * has ended the answer, which a server would otherwise take for a client gone.
 */
function relay(socket: Duplex, head: Buffer): Duplex {
  const inner = new Duplex({
    read() {},
    write: (chunk: Buffer, encoding, done) => void socket.write(chunk, encoding, done),
    final: (done) => {
      inner.push(null);
      socket.end(done);
    },
    destroy: (err, done) => {
      socket.destroy();
      done(err);
    },
  });
  socket.once('close', () => inner.destroy());
  inner.push(head);
  return inner;
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
