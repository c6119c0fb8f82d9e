// _netlify/lib/reflist.js: a Netlify edge function answering the URLs of the
// declared lists. The build writes _netlify/reflist.js beside it, which exports
// it with the paths of its tree's lists (hosts.ts). Netlify runs edge functions
// before _redirects, so the rules there that 404 Term and Id never see a
// request this function answers. See docs/hosts.md.
import { createLookupClient, type LookupClient } from '../client/client.js';
import { adapterRouteOf, answerHttp, fileNotFound, toResponse } from '../client/host.js';

/** Marks the function's own reads of the tree's files, which pass through it to the CDN. */
const OWN_READ = 'x-reflist-read';

/** One per isolate: it shares parsed files between requests, never a pending read (see createLookupClient). */
let client: LookupClient | undefined;

/** What the function uses of Netlify's context: the rest of the chain, the site's file for this request. */
interface Context {
  next(): Promise<Response>;
}

export default async function reflist(request: Request, context: Context): Promise<Response | undefined> {
  if (request.headers.has(OWN_READ)) return undefined; // undefined: Netlify serves the file
  const url = new URL(request.url);
  const path = url.pathname + url.search;
  client ??= createLookupClient({
    baseUrl: url.origin,
    fetch: (file) => fetch(file, { headers: { [OWN_READ]: '1' } }),
  });
  if (adapterRouteOf(path, (await client.manifest()).api) === 'file') {
    const file = await context.next();
    return file.status === 404 ? toResponse(fileNotFound(path), request.method) : file;
  }
  return toResponse(await answerHttp(client, request.method, path), request.method);
}
