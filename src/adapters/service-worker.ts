// lookup-sw.js: a service worker that answers the original service's URLs in
// the browser, for hosts that can run nothing (GitHub Pages, S3). Registered
// as `lookup-sw.js?tree=URL&from=URL`: `tree` is where the tree's files are
// (default: this file's folder), `from` the URL prefix old clients send their
// requests to (default: tree). See docs/hosts.md.
import { createLookupClient } from '../client/client.js';
import { answerHttp, pathBelow, routeOf, toResponse } from '../client/host.js';

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

self.addEventListener('fetch', (event: FetchEvent) => {
  const { method } = event.request;
  const path = pathBelow(new URL(event.request.url), from);
  if (path === undefined || routeOf(path) === 'file') return; // the network answers
  event.respondWith(answerHttp(client, method, path).then((http) => toResponse(http, method)));
});
