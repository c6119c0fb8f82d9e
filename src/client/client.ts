// createLookupClient: answers any request of the original service (docs/contract.md §1)
// from the static tree alone. This is its reader: files fetched, inflated and
// cached, and lookup.json read again when a file says the tree was deployed anew;
// the answers, one or two file reads each, are answer.ts's.
import { MANIFEST, storedCompressed } from './paths.js';
import { LookupError } from './errors.js';
import { answerRequest, fail, lookupItems, Stale, type Answer, type Lookup, type LookupOptions } from './answer.js';
import type { BodyAt, ListTypes, RequestUrl } from './typed.js';
import type { AnyBody, Answer as TypedAnswer, Manifest } from './types.js';

export type { Lookup, LookupOptions } from './answer.js';

export interface LookupClientOptions {
  /**
   * Where the tree is served: an http(s) URL, in a page also one relative to
   * the page (`'/lookup/'`, as a bundled app names it), or in Node a file: URL
   * of a built tree (`pathToFileURL('dist/')`). Defaults to the folder this file
   * was loaded from, where the runtime says so (a browser's module script);
   * required elsewhere (workers, service workers, bundles).
   */
  baseUrl?: string | URL;
  /**
   * A fetch implementation; defaults to globalThis.fetch (and node:fs for
   * file: URLs). Its answers need `arrayBuffer()` as well as `text()`: the
   * files behind the client are stored compressed (a Response has both).
   */
  fetch?: (url: string) => Promise<FetchedFile>;
  /** How many parsed files to keep for later requests (a scroll, a retyped term): 256 at most, of 24 MB of text at most, unless told. */
  cacheSize?: number;
}

/** What the client needs of a fetch's answer. */
export interface FetchedFile {
  ok: boolean;
  status?: number;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export interface LookupClient {
  /**
   * Any request of a declared list, e.g. `/author.json?Term=smi&Page=2`:
   * narrow on `status === 200` to read the body, whose type a caller who
   * knows the list may name (`request<Envelope<Item>>(url)`); else it is
   * an envelope of `{id, text}` items, a grid or an item (AnyBody).
   */
  request<Body = AnyBody>(url: string): Promise<TypedAnswer<Body>>;
  /**
   * Many items of a paged list at once, each as `Id` answers it, with the
   * group's count when `group` is given: a multi-select restored from a saved
   * form. It reads one file per id bucket the ids fall in, never one per id.
   */
  lookup<Item = Record<string, unknown>>(
    list: string,
    ids: readonly (string | number)[],
    options?: LookupOptions,
  ): Promise<Lookup<Item>>;
  /** The tree's lookup.json (page size, systems, list sizes). */
  manifest(): Promise<Manifest>;
  readonly baseUrl: string;
}

/**
 * A client made with a project's lists (`createLookupClient<Lists>()`, Lists
 * from `reflist types`): a request's answer is typed by its URL's path, a
 * path no list has does not compile, and `lookup` takes a paged list's name.
 */
export interface TypedLookupClient<Lists extends ListTypes<Lists>> extends Pick<LookupClient, 'manifest' | 'baseUrl'> {
  request<Url extends string>(url: RequestUrl<Lists, Url>): Promise<TypedAnswer<BodyAt<Lists, Url>>>;
  // The names of the paged lists without a parent (a path of one segment), written out so that a name of another list is told which names it could be.
  lookup<
    Name extends {
      [N in keyof Lists]: Lists[N]['shape'] extends 'paged' ? (Lists[N]['path'] extends [string] ? N : never) : never;
    }[keyof Lists] &
      string,
  >(list: Name, ids: readonly (string | number)[], options?: LookupOptions): Promise<Lookup<Lists[Name]['item']>>;
}

/** The folder this module was loaded from, when the runtime gives it a URL (a bundle for a worker does not). */
function defaultBaseUrl(): string {
  const here: unknown = import.meta.url;
  if (typeof here === 'string' && /^(https?|file):/.test(here)) return new URL('.', here).href;
  throw new LookupError(
    'NO_BASE_URL',
    'createLookupClient: pass baseUrl, the URL the tree is served at (this runtime does not say where the client was loaded from)',
  );
}

/**
 * globalThis.fetch, and a tree on disk: Node's fetch reads no file: URLs, so
 * those are read with node:fs, imported only then (the specifier is a
 * variable, marked for webpack and Vite too, so bundlers for the browser
 * leave it alone).
 */
async function fetchTree(url: string): Promise<FetchedFile> {
  if (!url.startsWith('file:')) return globalThis.fetch(url);
  const fs = 'node:fs/promises';
  const { readFile } = (await import(/* webpackIgnore: true */ /* @vite-ignore */ fs)) as {
    readFile(path: URL): Promise<Uint8Array>;
  };
  return fileAnswer(await readFile(new URL(url)).catch(() => undefined));
}

/** A file's bytes (undefined: missing) as a fetch answer: what a custom fetch over files on disk gives the client. */
export function fileAnswer(bytes: Uint8Array | undefined): FetchedFile {
  const data = bytes ?? new Uint8Array(0);
  return {
    ok: bytes !== undefined,
    status: bytes === undefined ? 404 : 200,
    text: async () => new TextDecoder().decode(data),
    arrayBuffer: async () => new Uint8Array(data).buffer, // a copy: a Buffer may be a view of a shared pool
  };
}

/**
 * A stored file's text (paths.ts, STORED_GZIP): inflated, unless a host sent it
 * with `Content-Encoding: gzip` and the fetch inflated it already (no gzip
 * magic bytes then).
 */
async function inflate(bytes: ArrayBuffer): Promise<string> {
  const head = new Uint8Array(bytes, 0, Math.min(2, bytes.byteLength));
  if (head[0] !== 0x1f || head[1] !== 0x8b) return new TextDecoder().decode(bytes);
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
}

function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** The manifest a client answers from, with its text, to tell a newer one from it. */
interface Tree {
  manifest: Manifest;
  text: string;
}

/** The folder the tree is served at: a relative URL is the page's, as fetch would read it; elsewhere there is nothing to resolve it against. */
function baseOf(baseUrl: string | URL | undefined): URL {
  const pageUrl = (globalThis as { location?: { href?: string } }).location?.href;
  const base = new URL(String(baseUrl ?? defaultBaseUrl()), pageUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return base;
}

/**
 * The reader of the tree's files over a fetch: a file's text, or undefined
 * when it is missing (404, 410). Any other failure (a 503, a dropped
 * connection) rejects, so it is never mistaken for an absent file, and is not
 * cached.
 */
function textReader(fetchImpl: (url: string) => Promise<FetchedFile>, base: URL) {
  return async (path: string): Promise<string | undefined> => {
    const url = new URL(path, base).href;
    // One retry on a network failure (a keep-alive socket the server just closed); GETs are idempotent.
    const res = await fetchImpl(url).catch(() => fetchImpl(url));
    if (!res.ok) {
      if (res.status === undefined || res.status === 404 || res.status === 410) return undefined;
      throw new LookupError('HTTP', `GET ${url}: HTTP ${res.status}`, res.status);
    }
    if (!storedCompressed(path)) return res.text();
    // A custom fetch (a test's, a framework's) may give text() alone: say so here, not deep in the answer.
    if (typeof res.arrayBuffer !== 'function')
      throw new LookupError(
        'BAD_FETCH',
        `GET ${url}: the fetch given to createLookupClient answered without arrayBuffer(), which the client needs for ${path} (the index's files are gzip-compressed)`,
      );
    return inflate(await res.arrayBuffer());
  };
}

/** A Term made only of common words reads many record blocks: their text, not their number, is what a page holds. */
const CACHE_TEXT = 24_000_000;

/**
 * The files' JSON through a cache of parsed files (least recently used go
 * first): what the answers read the tree by. Only settled results are shared
 * between requests, never a pending promise, so no request's answer depends
 * on another request's I/O: an edge runtime ties I/O to the request that
 * started it (Cloudflare cancels it when that request's client goes away).
 * Two requests for a file not yet read both fetch it. See docs/hosts.md.
 */
function parsedFiles(fetchText: (path: string) => Promise<string | undefined>, cacheSize: number) {
  const cache = new Map<string, { value: unknown; size: number }>();
  let cached = 0;
  async function load<T>(path: string): Promise<T | undefined> {
    const hit = cache.get(path);
    if (hit) {
      cache.delete(path); // re-insert: the Map's order is the LRU order
      cache.set(path, hit);
      return hit.value as T | undefined;
    }
    const text = await fetchText(path);
    const entry = { value: parseJson(text), size: text?.length ?? 0 };
    cache.set(path, entry);
    cached += entry.size;
    // The oldest go first, down to the limits (the newest stays whatever its size).
    for (const [oldest, { size }] of cache) {
      if (cache.size <= cacheSize && cached <= CACHE_TEXT) break;
      if (oldest === path) break;
      cache.delete(oldest);
      cached -= size;
    }
    return entry.value as T | undefined;
  }
  /** Whether a file is read already: a Term of several words reads the files of the word that costs fewest requests. */
  load.has = (path: string): boolean => cache.has(path);
  const clear = () => {
    cache.clear();
    cached = 0;
  };
  return { load, clear };
}

/**
 * The build a client answers from: lookup.json, read once a page visit
 * (outside the LRU that long scrolls churn), and again only when a file says
 * the tree was deployed anew; `renew` then drops whatever was read under the
 * old one.
 */
function oneBuild(fetchText: (path: string) => Promise<string | undefined>, baseUrl: string, renew: () => void) {
  let tree: Tree | undefined;
  /** Files found stale under the current manifest even after reading lookup.json afresh: a broken tree, not a deploy. */
  const confirmed = new Set<string>();

  /** lookup.json, read with `fresh` past every HTTP cache (a URL no cache has seen), or undefined when it is missing. */
  async function readTree(fresh: boolean): Promise<Tree | undefined> {
    const text = await fetchText(fresh ? `${MANIFEST}?fresh=${Date.now()}` : MANIFEST);
    const manifest = parseJson(text) as Manifest | undefined;
    return text !== undefined && manifest && typeof manifest.pageSize === 'number' ? { manifest, text } : undefined;
  }

  async function current(): Promise<Tree> {
    if (tree) return tree;
    const read = await readTree(false);
    if (!read) throw new LookupError('NO_TREE', `no reflist tree at ${baseUrl} (${MANIFEST} is missing)`);
    return (tree ??= read);
  }

  /**
   * After a stale read under `used`: lookup.json afresh, and whether it is
   * another build's (then it is the client's from now on, and no file read
   * under the old one is kept).
   */
  async function renewed(used: Tree): Promise<boolean> {
    if (tree && tree.text !== used.text) return true; // another request has renewed it
    const read = await readTree(true);
    if (!read || read.text === used.text) return false;
    if (tree?.text === used.text) {
      tree = read;
      renew();
      confirmed.clear();
    }
    return true;
  }

  /**
   * An answer from one build: when a file says the manifest is older than
   * the tree, lookup.json is read afresh and, if it is another build's, the
   * answer is made again from it, once. A file still stale under a current
   * lookup.json is a broken tree: `broken` says what to answer, and it asks
   * for lookup.json no more.
   */
  async function fromOneBuild<T>(answer: (m: Manifest) => Promise<T>, broken: (err: Stale) => T): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const used = await current();
      try {
        return await answer(used.manifest);
      } catch (err) {
        if (!(err instanceof Stale)) throw err;
        const { key } = err;
        if (attempt > 0 || confirmed.has(key) || !(await renewed(used))) {
          if (tree === used) confirmed.add(key);
          return broken(err);
        }
      }
    }
  }

  return { manifest: async () => (await current()).manifest, fromOneBuild };
}

export function createLookupClient(options?: LookupClientOptions): LookupClient;
/** The same client, its answers typed by a project's lists: `createLookupClient<Lists>({ baseUrl })`. */
export function createLookupClient<Lists extends ListTypes<Lists>>(
  options?: LookupClientOptions,
): TypedLookupClient<Lists>;
export function createLookupClient(options: LookupClientOptions = {}): LookupClient {
  const base = baseOf(options.baseUrl);
  const fetchText = textReader(options.fetch ?? fetchTree, base);
  const { load, clear } = parsedFiles(fetchText, options.cacheSize ?? 256);
  const { manifest, fromOneBuild } = oneBuild(fetchText, base.href, clear);

  /** Any request of a declared list. */
  function request(url: string): Promise<Answer> {
    return fromOneBuild(
      (m) => answerRequest(load, url, m),
      (err) => err.fallback ?? fail(404, err.message),
    );
  }

  /** Items of a paged list by id (answer.ts, lookupItems). */
  function lookup(name: string, ids: readonly (string | number)[], options: LookupOptions = {}): Promise<Lookup> {
    return fromOneBuild(
      (m) => lookupItems(load, m, name, ids, options),
      (err) => {
        throw new LookupError('BROKEN_TREE', `lookup: ${err.message}`);
      },
    );
  }

  return {
    request: request as LookupClient['request'],
    lookup: lookup as LookupClient['lookup'],
    manifest,
    baseUrl: base.href,
  };
}
