// Requests Node's HTTP parser refuses. It takes no byte beyond ASCII, no raw
// space and no control character in a request target, so `curl
// 'http://host/author.json?Term=ß'` (the ß sent as its UTF-8 bytes, as static
// hosts take it) never becomes a request event: Node would answer an empty
// 400. Every other request's target reaches the handler as sent, in req.url.
import { connect, type Socket } from 'node:net';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { JSON_TYPE } from '../client/host.js';

/**
 * The request line a refused request is read again with: the request from its
 * line on, its target's bytes that Node refuses percent-encoded as a browser
 * sends them, asking to close the connection after the answer. `packet` holds
 * the request's line from before `at`, where the parser stopped. Undefined
 * when `packet` does not hold the whole head from the line's start, or when
 * the target holds no byte to encode (the request was refused for another
 * reason, and would be again).
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
  if (target === line[2]) return undefined;
  return Buffer.concat([
    Buffer.from(`${line[1]} ${target} ${line[3]}\r\nconnection: close\r\n`, 'latin1'),
    packet.subarray(end + 1),
  ]);
}

/** What Node's parser says of a request it could not read (the `clientError` event, as Node documents it). */
interface ClientError extends Error {
  code?: string;
  /** The bytes it was reading, and where in them it stopped. */
  rawPacket?: Buffer;
  bytesParsed?: number;
}

/** Statuses for what Node's parser refuses, as Node's own answers give them (its documented codes); anything else is a 400. */
const REFUSED: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/** Where a client on this machine reaches `server`: a wildcard address is reached through loopback. */
function dial(server: Server): Socket | undefined {
  const address = server.address();
  if (typeof address === 'string') return connect(address);
  if (!address) return undefined;
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return connect(address.port, host);
}

/**
 * Makes `server` answer a request whose line Node's parser refuses as it
 * answers the same request percent-encoded (encodeRequestHead), and every
 * other request it cannot read with a JSON error, where Node would answer an
 * empty 400. Public APIs only: the `clientError` event gives the bytes the
 * parser refused (`rawPacket`, `bytesParsed`); the request is sent again,
 * encoded, to the server's own address over a new connection, as any client
 * would send it, and its answer is relayed to the client, whose connection
 * then ends, as the parser reads no more of it. The relayed answer waits for
 * one still being written there.
 */
export function readRawRequestLines(server: Server): Server {
  const last = new WeakMap<Duplex, ServerResponse>();
  const refused = new WeakSet<Duplex>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => last.set(req.socket, res));
  server.on('clientError', async (err: ClientError, socket: Duplex) => {
    // One answer a connection: Node may report more of one it has stopped reading.
    if (refused.has(socket)) return;
    refused.add(socket);
    // Nothing more is read from it, so a client that ends its side after the request still gets the answer.
    socket.pause();
    const answering = last.get(socket);
    if (answering) await done(answering);
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const head = err.rawPacket ? encodeRequestHead(err.rawPacket, err.bytesParsed ?? 0) : undefined;
    const again = head ? dial(server) : undefined;
    if (head && again) return relay(again, head, socket);
    const status = REFUSED[err.code ?? ''] ?? 400;
    const body = JSON.stringify({ error: `the request could not be read: ${err.message}` });
    close(
      socket,
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: ${JSON_TYPE}\r\naccess-control-allow-origin: *\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

/** Once an answer is written, or will never be. */
const done = (res: ServerResponse): Promise<unknown> =>
  res.writableFinished || res.destroyed ? Promise.resolve() : new Promise((closed) => res.once('close', closed));

/** Ends a connection that is read no more once `last` is written: it would never close of itself. */
const close = (socket: Duplex, last?: string) => socket.end(last, () => socket.destroy());

/**
 * Sends `head` on `again` and its answer, to its end, to the client's
 * `socket`, then closes it. `again` is not ended after the head: a server
 * takes a client that ends its side for one gone, and drops its answer; the
 * head asks the server to close the connection once it has answered.
 */
function relay(again: Socket, head: Buffer, socket: Duplex): void {
  again.on('error', () => socket.destroy());
  socket.on('close', () => again.destroy());
  again.pipe(socket, { end: false });
  again.on('end', () => close(socket));
  again.write(head);
}
