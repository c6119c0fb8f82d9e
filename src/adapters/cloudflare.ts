// _worker.js: answers the original service's URLs on Cloudflare, the same file
// for Pages (advanced mode, routed by _routes.json) and Workers with static
// assets (`main`, with the assets binding ASSETS). See docs/hosts.md.
import { createLookupClient, type LookupClient } from '../client/client.js';
import { adapterRouteOf, answerHttp, fileNotFound, toResponse } from '../client/host.js';

interface Env {
  ASSETS: { fetch(input: Request | string): Promise<Response> };
}

/** One per isolate: it shares parsed files between requests, never a pending read (see createLookupClient). */
let client: LookupClient | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname + url.search;
    client ??= createLookupClient({ baseUrl: url.origin, fetch: (file) => env.ASSETS.fetch(file) });
    // Which paths are the lists' is in lookup.json, read once an isolate.
    if (adapterRouteOf(path, (await client.manifest()).api) === 'file') {
      const file = await env.ASSETS.fetch(request);
      return file.status === 404 ? toResponse(fileNotFound(path), request.method) : file;
    }
    return toResponse(await answerHttp(client, request.method, path), request.method);
  },
};
