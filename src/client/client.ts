// createLookupClient: answers any request of the original service (docs/contract.md §1)
// from the static tree alone, by turning it into one or two file reads.
import {
  bucketOf,
  bucketPath,
  childBucketPath,
  headPath,
  MANIFEST,
  nestedFolder,
  pagePath,
  resultPagesPath,
  scoped,
  searchFileFor,
  searchPath,
  storedCompressed,
} from './paths.js';
import { LookupError } from './errors.js';
import { chainOf, idKey, parseRequest, type Route } from './request.js';
import { byTier, itemTier } from './rank.js';
import { rankRecords, textOf, toItem } from './search.js';
import type { BodyAt, ListTypes, RequestUrl } from './typed.js';
import type {
  AnyBody,
  Answer as TypedAnswer,
  ApiList,
  ChildRecord,
  EntryRecord,
  Envelope,
  ListInfo,
  Manifest,
  NestedInfo,
  NestedRecord,
  SearchChunk,
  SearchPages,
} from './types.js';

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
  /** How many parsed files to keep for later requests (a scroll, a retyped term). */
  cacheSize?: number;
}

/** What the client needs of a fetch's answer. */
export interface FetchedFile {
  ok: boolean;
  status?: number;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** An answer as the client makes it; `request` hands it out as the typed Answer. */
interface Answer {
  status: number;
  body: unknown;
}

/** What `lookup` answers: the items found, in the order their ids were asked, and the ids that name none. */
export interface Lookup<Item = Record<string, unknown>> {
  items: Item[];
  /** Ids asked that name no item of the list, or are no id of its form, as they were given. */
  unknown: string[];
}

export interface LookupOptions {
  /** The group (System) whose count each item carries, where the list takes one. */
  group?: string;
  /** The ids are of the list's embedded children: each answers its parent with that child alone, as `Id` with `child=true` does. */
  child?: boolean;
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

const ok = (body: unknown): Answer => ({ status: 200, body });
const fail = (status: number, error: string): Answer => ({ status, body: { error } });

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

/**
 * What tells a client that its lookup.json is older than the files it reads:
 * a file the manifest routes to is missing (the deploy renamed it), or a page
 * file's total is not the manifest's. `fallback` is the answer to give when
 * lookup.json turns out to be current after all (docs/tree.md, Across a deploy).
 */
class Stale extends Error {
  constructor(
    message: string,
    readonly fallback?: Answer,
    readonly key = message,
  ) {
    super(message);
  }
}

/** A child's row as the record of its parent carrying that child alone: what `Id` with `child` answers. */
function parentOf([id, text, [pid, ptext, counts = [], , fields]]: ChildRecord): EntryRecord {
  return fields ? [pid, ptext, counts, [[id, text]], fields] : [pid, ptext, counts, [[id, text]]];
}

/** The manifest a client answers from, with its text, to tell a newer one from it. */
interface Tree {
  manifest: Manifest;
  text: string;
}

export function createLookupClient(options?: LookupClientOptions): LookupClient;
/** The same client, its answers typed by a project's lists: `createLookupClient<Lists>({ baseUrl })`. */
export function createLookupClient<Lists extends ListTypes<Lists>>(
  options?: LookupClientOptions,
): TypedLookupClient<Lists>;
export function createLookupClient(options: LookupClientOptions = {}): LookupClient {
  // A relative URL is the page's, as fetch would read it; elsewhere there is nothing to resolve it against.
  const pageUrl = (globalThis as { location?: { href?: string } }).location?.href;
  const base = new URL(String(options.baseUrl ?? defaultBaseUrl()), pageUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const baseUrl = base.href;
  const fetchImpl = options.fetch ?? fetchTree;
  const cacheSize = options.cacheSize ?? 64;
  // Only settled results are shared between requests, never a pending promise,
  // so no request's answer depends on another request's I/O: an edge runtime
  // ties I/O to the request that started it (Cloudflare cancels it when that
  // request's client goes away). Two requests for a file not yet read both
  // fetch it. See docs/hosts.md.
  const cache = new Map<string, unknown>();
  let tree: Tree | undefined;
  /** Files found stale under the current manifest even after reading lookup.json afresh: a broken tree, not a deploy. */
  const confirmed = new Set<string>();

  /**
   * A file's text, or undefined when it is missing (404, 410). Any other
   * failure (a 503, a dropped connection) rejects, so it is never mistaken
   * for an absent file, and is not cached.
   */
  async function fetchText(path: string): Promise<string | undefined> {
    const url = new URL(path, base).href;
    // One retry on a network failure (a keep-alive socket the server just closed); GETs are idempotent.
    const res = await fetchImpl(url).catch(() => fetchImpl(url));
    if (!res.ok) {
      if (res.status === undefined || res.status === 404 || res.status === 410) return undefined;
      throw new LookupError('HTTP', `GET ${url}: HTTP ${res.status}`, res.status);
    }
    return storedCompressed(path) ? inflate(await res.arrayBuffer()) : res.text();
  }

  /** A file's JSON, or undefined when it is missing or not JSON (an app-shell fallback page). */
  async function fetchJson(path: string): Promise<unknown> {
    return parseJson(await fetchText(path));
  }

  async function load<T>(path: string): Promise<T | undefined> {
    if (cache.has(path)) {
      const value = cache.get(path);
      cache.delete(path); // re-insert: the Map's order is the LRU order
      cache.set(path, value);
      return value as T | undefined;
    }
    const value = await fetchJson(path);
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
    cache.set(path, value);
    return value as T | undefined;
  }

  /** A file the manifest routes to: missing means the manifest may be older than the tree. */
  async function routed<T>(path: string): Promise<T> {
    const value = await load<T>(path);
    if (value === undefined) throw new Stale(`missing file ${path}`);
    return value;
  }

  /**
   * lookup.json, read with `fresh` past every HTTP cache (a URL no cache has
   * seen), or undefined when it is missing.
   */
  async function readTree(fresh: boolean): Promise<Tree | undefined> {
    const text = await fetchText(fresh ? `${MANIFEST}?fresh=${Date.now()}` : MANIFEST);
    const manifest = parseJson(text) as Manifest | undefined;
    return manifest && typeof manifest.pageSize === 'number' ? { manifest, text: text! } : undefined;
  }

  /** lookup.json is read once a page visit, outside the LRU that long scrolls churn, and again only after a deploy. */
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
      cache.clear();
      confirmed.clear();
    }
    return true;
  }

  async function answerList(r: Extract<Route, { kind: 'paged' }>, m: Manifest): Promise<Answer> {
    if (r.under) return answerUnder(m, r, r.under);
    const { list } = r;
    const info = m.lists[list.name] as ListInfo;
    let group: number | undefined;
    if (r.group !== undefined) {
      group = m.systems.findIndex((s) => s.id === r.group);
      if (group < 0) return fail(404, `unknown ${m.api.group!.toLowerCase()} "${r.group}"`);
    }
    if (r.id !== undefined) {
      if (list.children && r.child) {
        const buckets = info.childBuckets ?? 1;
        const rows = await routed<ChildRecord[]>(
          childBucketPath(list.path, info.layout, buckets, bucketOf(r.id, buckets)),
        );
        const row = rows.find((c) => String(c[0]) === r.id);
        return ok(row ? { total: 1, items: [toItem(parentOf(row), '', group, list)] } : { total: 0, items: [] });
      }
      const rows = await routed<EntryRecord[]>(
        bucketPath(list.path, info.layout, info.buckets, bucketOf(r.id, info.buckets)),
      );
      const row = rows.find((e) => String(e[0]) === r.id);
      return ok(row ? { total: 1, items: [toItem(row, '', group, list)] } : { total: 0, items: [] });
    }
    if (r.q !== '') return answerSearch(m, r, info, group);
    if (r.page > info.pages) return ok({ total: info.total, items: [] });
    // A group's pages are under the groups' parameter in lower case, whatever a list calls it.
    const path = pagePath(
      list.path,
      r.page,
      r.group === undefined ? undefined : `${m.api.group!.toLowerCase()}/${r.group}`,
    );
    const body = await routed<Envelope>(path);
    // One key for every page: a host that holds old pages costs one more read of lookup.json, not one a page.
    if (body.total !== info.total)
      throw new Stale(`${path} has another total than ${MANIFEST}`, ok(body), 'page totals');
    return ok(body);
  }

  async function answerSearch(
    m: Manifest,
    r: Extract<Route, { kind: 'paged' }>,
    info: ListInfo,
    group: number | undefined,
  ) {
    const { q, list } = r;
    const { total, records } = await searchIndex<EntryRecord>(list.path, info, q, r, m.pageSize, (own) => own);
    return ok({ total, items: records.map((record) => toItem(record, q, group, list)) });
  }

  /**
   * The search file that holds `key`'s range. In a list listed in two
   * levels, a key under a head is routed by the first keys its head's file
   * holds: the head's file, then (unless the key is the head's) the file they
   * route it to, named as in one level, its neighbours being the same.
   */
  async function searchFile<R>(
    folder: string,
    info: Pick<ListInfo, 'layout' | 'search' | 'heads'>,
    key: string,
  ): Promise<SearchChunk<R>> {
    const { layout, search, heads } = info;
    const i = searchFileFor(key, search);
    const dir = heads && Object.hasOwn(heads, search[i]!) ? heads[search[i]!]! : undefined;
    if (dir === undefined) return routed<SearchChunk<R>>(searchPath(folder, layout, search, i));
    const head = await routed<SearchChunk<R>>(headPath(folder, layout, search[i]!, dir));
    const starts = [...search.slice(0, i + 1), ...(head.starts ?? []), ...search.slice(i + 1)];
    const j = searchFileFor(key, starts);
    return j === i ? head : routed<SearchChunk<R>>(searchPath(folder, layout, starts, j));
  }

  /**
   * A page of the records a Term matches, read from a list's Term index in
   * `folder` by `key` (the folded Term, after its parent chain for a list
   * under a parent): a large prefix's stored page, or the records of the
   * search file that holds the key's range, ranked here. `own` turns the
   * index's records into the list's own (under a parent: those of its chain).
   */
  async function searchIndex<R>(
    folder: string,
    info: Pick<ListInfo, 'layout' | 'search' | 'heads'>,
    key: string,
    r: { q: string; page: number; list: ApiList },
    size: number,
    own: (records: R[]) => EntryRecord[],
  ): Promise<{ total: number; records: EntryRecord[] }> {
    const { q, page, list } = r;
    const chunk = await searchFile<R>(folder, info, key);
    const large = chunk.large && Object.hasOwn(chunk.large, key) ? chunk.sets?.[chunk.large[key]!] : undefined;
    if (large) {
      const [total, per, page1, files] = large;
      if (page === 1) return { total, records: own(page1) };
      if ((page - 1) * size >= total) return { total, records: [] };
      const pagesFile = await routed<SearchPages<R>>(resultPagesPath(folder, files[Math.floor((page - 2) / per)]!));
      return { total, records: own(pagesFile.pages[(page - 2) % per] ?? []) };
    }
    const ranked = rankRecords(own(chunk.records), q, list);
    return { total: ranked.length, records: ranked.slice((page - 1) * size, page * size) };
  }

  /**
   * A paged list under a parent (docs/lists.md, Paged lists under a parent):
   * a page is its own public file under the parent (past the end, page 1
   * says the true total); Term and Id read the Id buckets and Term index all
   * the list's parents share, by keys that start with the parent chain. Every
   * known parent has a page 1, empty or not: an answer that would be empty
   * reads it, to tell a parent without a match from an unknown one (404).
   */
  async function answerUnder(
    m: Manifest,
    r: Extract<Route, { kind: 'paged' }>,
    under: { chain: string; prefix: string },
  ): Promise<Answer> {
    const { list, q, page, id } = r;
    const own = `${under.prefix}${list.path}`;
    const first = `${own}.json`;
    const unknown = fail(404, `not found: /${first}`);
    if (id === undefined && q === '') {
      const body = await load<Envelope>(page === 1 ? first : pagePath(own, page));
      if (body) return ok(body);
      const total = page === 1 ? undefined : (await load<Envelope>(first))?.total;
      return total === undefined ? unknown : ok({ total, items: [] });
    }
    const info = m.lists[list.name] as NestedInfo;
    const folder = nestedFolder(chainOf(m.api, list).map((l) => l.path));
    let answer: Envelope<Record<string, unknown>>;
    if (id !== undefined) {
      const key = scoped(under.chain, id);
      const rows = await routed<NestedRecord[]>(
        bucketPath(folder, info.layout, info.buckets, bucketOf(key, info.buckets)),
      );
      const row = rows.find(([chain, record]) => chain === under.chain && String(record[0]) === id);
      answer = row ? { total: 1, items: [toItem(row[1], '', undefined, list)] } : { total: 0, items: [] };
    } else {
      const ofChain = (records: NestedRecord[]) =>
        records.filter(([chain]) => chain === under.chain).map(([, record]) => record);
      const { total, records } = await searchIndex(folder, info, scoped(under.chain, q), r, m.pageSize, ofChain);
      answer = { total, items: records.map((record) => toItem(record, q, undefined, list)) };
    }
    return answer.total > 0 || (await load<Envelope>(first)) !== undefined ? ok(answer) : unknown;
  }

  /** A whole list, filtered by a Term: by tier, list order within a tier (docs/contract.md §2, docs/lists.md). */
  async function answerWhole(r: Extract<Route, { kind: 'whole' }>): Promise<Answer> {
    const body = await load<Envelope<Record<string, unknown>>>(r.file);
    if (!body) return fail(404, `not found: /${r.file}`);
    if (r.q === '') return ok(body);
    const { list } = r;
    const keyOf = (value: 'label' | number) => list.keys.find((k) => k[1] === value)![0];
    const label = keyOf('label');
    const columns = (list.search ?? []).map(keyOf);
    const tiers = body.items.map((item) =>
      itemTier(
        {
          text: textOf(list, String(item[label]), (i) => item[keyOf(i)]),
          columns: columns.map((k) => item[k]),
        },
        r.q,
        list.exact === true,
      ),
    );
    const items = byTier(body.items, tiers);
    return ok({ total: items.length, items });
  }

  async function answerFile(path: string): Promise<Answer> {
    const body = await load<unknown>(path);
    return body === undefined ? fail(404, `not found: /${path}`) : ok(body);
  }

  async function route(r: Route, m: Manifest): Promise<Answer> {
    switch (r.kind) {
      case 'paged':
        return answerList(r, m);
      case 'whole':
        return answerWhole(r);
      case 'file':
        return answerFile(r.file);
    }
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

  /** Any request of a declared list. */
  function request(url: string): Promise<Answer> {
    return fromOneBuild(
      async (m) => {
        const r = parseRequest(url, m.api);
        if (!('status' in r)) return route(r, m);
        if (r.unlessMissing && !(await load(r.unlessMissing))) return fail(404, `not found: /${r.unlessMissing}`);
        return fail(r.status, r.error);
      },
      (err) => err.fallback ?? fail(404, err.message),
    );
  }

  /** Items of a paged list by id: the ids grouped by their bucket, each bucket file read once. */
  function lookup(name: string, ids: readonly (string | number)[], options: LookupOptions = {}): Promise<Lookup> {
    return fromOneBuild(
      async (m) => {
        const list = m.api.lists.find((l) => l.name === name && l.shape === 'paged');
        if (!list) throw new LookupError('UNKNOWN_LIST', `lookup: ${MANIFEST} has no paged list "${name}"`);
        // Its ids are unique only under their parent: request(`/…/{parent id}/${list.path}.json?Id=…`) names one.
        if (list.parent)
          throw new LookupError(
            'UNDER_PARENT',
            `lookup: "${name}" is a list under a parent, whose ids name an item only under their parent; request its Id under the parent's path`,
          );
        // A list that takes no group ignores one, as its Id does (descriptor and System).
        const group =
          options.group === undefined || !list.params.group
            ? undefined
            : m.systems.findIndex((s) => s.id === options.group);
        if (group === -1)
          throw new LookupError(
            'UNKNOWN_GROUP',
            `lookup: unknown ${m.api.group?.toLowerCase() ?? 'group'} "${options.group}"`,
          );
        const info = m.lists[name] as ListInfo;
        const child = options.child === true && list.children !== undefined;
        const [form, count] = child ? [list.children!, info.childBuckets ?? 1] : [list, info.buckets];
        const asked = [...new Set(ids.map(String))];
        const keys = asked.map((id) => idKey(form, id));
        const buckets = new Map<number, Set<string>>();
        for (const key of keys) {
          if (key === undefined) continue;
          const b = bucketOf(key, count);
          buckets.set(b, (buckets.get(b) ?? new Set()).add(key));
        }
        const found = new Map<string, EntryRecord>();
        await Promise.all(
          [...buckets].map(async ([b, wanted]) => {
            const path = (child ? childBucketPath : bucketPath)(list.path, info.layout, count, b);
            for (const row of await routed<(EntryRecord | ChildRecord)[]>(path)) {
              if (wanted.has(String(row[0])))
                found.set(String(row[0]), child ? parentOf(row as ChildRecord) : (row as EntryRecord));
            }
          }),
        );
        const items: Record<string, unknown>[] = [];
        const unknown: string[] = [];
        const given = new Set<string>();
        for (const [i, key] of keys.entries()) {
          const row = key === undefined ? undefined : found.get(key);
          if (!row) unknown.push(asked[i]!);
          else if (!given.has(key!)) given.add(key!), items.push(toItem(row, '', group, list)); // 7 and 007 are one item
        }
        return { items, unknown };
      },
      (err) => {
        throw new LookupError('BROKEN_TREE', `lookup: ${err.message}`);
      },
    );
  }

  return {
    request: request as LookupClient['request'],
    lookup: lookup as LookupClient['lookup'],
    manifest: async () => (await current()).manifest,
    baseUrl,
  };
}
