// lookup-sw.js: a service worker that answers the original service's URLs in
// the browser, for hosts that can run nothing (GitHub Pages, S3). Registered
// as `lookup-sw.js?tree=URL&from=URL`: `tree` is where the tree's files are
// (default: this file's folder), `from` the URL prefix old clients send their
// requests to (default: tree). See docs/hosts.md.
import { createLookupClient } from '../client/client.js';
import { adapterRouteOf, answerHttp, pathBelow, toResponse } from '../client/host.js';
import type { Manifest } from '../client/types.js';

interface FetchEvent extends Event {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
declare const self: {
  location: Location;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: string, listener: (event: never) => void): void;
};

const here = new URL(self.location.href);
const folder = (value: string | null, fallback: string) => {
  const url = new URL(value ?? fallback, here);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
};
const tree = folder(here.searchParams.get('tree'), '.');
const from = folder(here.searchParams.get('from'), tree.href);
const client = createLookupClient({ baseUrl: tree });

// Take over at once, so the page that registered it is answered without a reload.
self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event: ExtendableEvent) => event.waitUntil(self.clients.claim()));

/** The lists' routes, from the lookup.json the client answers from; undefined until it has read one. */
let api: Manifest['api'] | undefined;

/** The lists' routes as the client's lookup.json says, or undefined when it cannot be read. */
const readApi = () =>
  client.manifest().then(
    (m) => (api = m.api),
    () => undefined,
  );

async function answer(request: Request, path: string): Promise<Response> {
  // Without a readable lookup.json, the client's answer says what is wrong (502).
  const lists = await readApi();
  if (lists && adapterRouteOf(path, lists) === 'file') return fetch(request);
  const http = await answerHttp(client, request.method, path);
  await readApi(); // the answer may have read a newer lookup.json
  return toResponse(http, request.method);
}

self.addEventListener('fetch', (event: FetchEvent) => {
  const path = pathBelow(new URL(event.request.url), from);
  // A file the network answers; before lookup.json is read, the worker reads it first to tell.
  if (path === undefined || (api && adapterRouteOf(path, api) === 'file')) return;
  event.respondWith(answer(event.request, path));
});
