// The answers of the service (docs/contract.md §1) as functions of a route, the
// manifest and a reader of the tree's files: no fetch, no cache, no state, so
// each is tested over files in memory (test/unit/answer.test.ts). client.ts gives
// them a reader and makes the answer again when a file says the manifest is
// older than the tree (Stale).
import {
  groupSegment,
  bucketOf,
  bucketPath,
  childBucketPath,
  headPath,
  listFile,
  MANIFEST,
  nestedFolder,
  pagePath,
  resultPagesPath,
  scoped,
  searchFileFor,
  searchPath,
} from './paths.js';
import { LookupError, Stale } from './errors.js';
import type { Read } from './word-files.js';
import { answerWords, wholeWords } from './words.js';
import { chainOf, idKey, parseRequest, type Route } from './request.js';
import { byTier, foldTexts, itemTier } from './rank.js';
import { rankRecords, textOf, toItem } from './search.js';
import type {
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

export { Stale };
export type { Read };

/** An answer as the client makes it; `request` hands it out as the typed Answer. */
export type { Answer } from './errors.js';
import type { Answer } from './errors.js';

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

const ok = (body: unknown): Answer => ({ status: 200, body });
export const fail = (status: number, error: string): Answer => ({ status, body: { error } });

/** A child's row as the record of its parent carrying that child alone: what `Id` with `child` answers. */
function parentOf([id, text, [pid, ptext, counts = [], , fields]]: ChildRecord): EntryRecord {
  return fields ? [pid, ptext, counts, [[id, text]], fields] : [pid, ptext, counts, [[id, text]]];
}

/** A file the manifest routes to: missing means the manifest may be older than the tree. */
async function routed<T>(read: Read, path: string): Promise<T> {
  const value = await read<T>(path);
  if (value === undefined) throw new Stale(`missing file ${path}`);
  return value;
}

async function answerList(read: Read, r: Extract<Route, { kind: 'paged' }>, m: Manifest): Promise<Answer> {
  if (r.under) return answerUnder(read, m, r, r.under);
  const { list } = r;
  const info = m.lists[list.name] as ListInfo;
  let group: number | undefined;
  if (r.group !== undefined) {
    group = m.systems.findIndex((s) => s.id === r.group);
    if (group < 0) return fail(404, `unknown ${groupSegment(m.api.group!)} "${r.group}"`);
  }
  if (r.id !== undefined) {
    if (list.children && r.child) {
      const buckets = info.childBuckets ?? 1;
      const rows = await routed<ChildRecord[]>(
        read,
        childBucketPath(list.path, info.layout, buckets, bucketOf(r.id, buckets)),
      );
      const row = rows.find((c) => String(c[0]) === r.id);
      return ok(row ? { total: 1, items: [toItem(parentOf(row), '', group, list)] } : { total: 0, items: [] });
    }
    const rows = await routed<EntryRecord[]>(
      read,
      bucketPath(list.path, info.layout, info.buckets, bucketOf(r.id, info.buckets)),
    );
    const row = rows.find((e) => String(e[0]) === r.id);
    return ok(row ? { total: 1, items: [toItem(row, '', group, list)] } : { total: 0, items: [] });
  }
  if (r.q !== '') return answerSearch(read, m, r, info, group);
  if (r.page > info.pages) return ok({ total: info.total, items: [] });
  // A group's pages are under the groups' parameter in lower case, whatever a list calls it.
  const path = pagePath(
    list.path,
    r.page,
    r.group === undefined ? undefined : `${groupSegment(m.api.group!)}/${r.group}`,
  );
  const body = await routed<Envelope>(read, path);
  // One key for every page: a host that holds old pages costs one more read of lookup.json, not one a page.
  if (body.total !== info.total) throw new Stale(`${path} has another total than ${MANIFEST}`, ok(body), 'page totals');
  return ok(body);
}

async function answerSearch(
  read: Read,
  m: Manifest,
  r: Extract<Route, { kind: 'paged' }>,
  info: ListInfo,
  group: number | undefined,
) {
  const { q, list } = r;
  if (list.words) {
    const ix = { folder: list.path, info, list, pageSize: m.pageSize };
    const { total, kept } = await answerWords(read, ix, q, r.page);
    return ok({ total, items: kept.map((k) => toItem(k.record, q, group, list, k.children)) });
  }
  const { total, records } = await searchIndex<EntryRecord>(read, list.path, info, q, r, m.pageSize, (own) => own);
  return ok({ total, items: records.map((record) => toItem(record, q, group, list)) });
}

/**
 * The search file that holds `key`'s range. In a list listed in two
 * levels, a key under a head is routed by the first keys its head's file
 * holds: the head's file, then (unless the key is the head's) the file they
 * route it to, named as in one level, its neighbours being the same.
 */
async function searchFile<R>(
  read: Read,
  folder: string,
  info: Pick<ListInfo, 'layout' | 'search' | 'heads'>,
  key: string,
): Promise<SearchChunk<R>> {
  const { layout, search, heads } = info;
  const i = searchFileFor(key, search);
  const dir = heads && Object.hasOwn(heads, search[i]!) ? heads[search[i]!]! : undefined;
  if (dir === undefined) return routed<SearchChunk<R>>(read, searchPath(folder, layout, search, i));
  const head = await routed<SearchChunk<R>>(read, headPath(folder, layout, search[i]!, dir));
  const starts = [...search.slice(0, i + 1), ...(head.starts ?? []), ...search.slice(i + 1)];
  const j = searchFileFor(key, starts);
  return j === i ? head : routed<SearchChunk<R>>(read, searchPath(folder, layout, starts, j));
}

/**
 * A page of the records a Term matches, read from a list's Term index in
 * `folder` by `key` (the folded Term, after its parent chain for a list
 * under a parent): a large prefix's stored page, or the records of the
 * search file that holds the key's range, ranked here. `own` turns the
 * index's records into the list's own (under a parent: those of its chain).
 */
async function searchIndex<R>(
  read: Read,
  folder: string,
  info: Pick<ListInfo, 'layout' | 'search' | 'heads'>,
  key: string,
  r: { q: string; page: number; list: ApiList },
  size: number,
  own: (records: R[]) => EntryRecord[],
): Promise<{ total: number; records: EntryRecord[] }> {
  const { q, page, list } = r;
  const chunk = await searchFile<R>(read, folder, info, key);
  const large = chunk.large && Object.hasOwn(chunk.large, key) ? chunk.sets?.[chunk.large[key]!] : undefined;
  if (large) {
    const [total, per, page1, files] = large;
    if (page === 1) return { total, records: own(page1) };
    if ((page - 1) * size >= total) return { total, records: [] };
    const pagesFile = await routed<SearchPages<R>>(read, resultPagesPath(folder, files[Math.floor((page - 2) / per)]!));
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
  read: Read,
  m: Manifest,
  r: Extract<Route, { kind: 'paged' }>,
  under: { chain: string; prefix: string },
): Promise<Answer> {
  const { list, q, page, id } = r;
  const own = `${under.prefix}${list.path}`;
  const first = listFile(under.prefix, list.path);
  const unknown = fail(404, `not found: /${first}`);
  if (id === undefined && q === '') {
    const body = await read<Envelope>(page === 1 ? first : pagePath(own, page));
    if (body) return ok(body);
    const total = page === 1 ? undefined : (await read<Envelope>(first))?.total;
    return total === undefined ? unknown : ok({ total, items: [] });
  }
  const info = m.lists[list.name] as NestedInfo;
  const folder = nestedFolder(chainOf(m.api, list).map((l) => l.path));
  let answer: Envelope<Record<string, unknown>>;
  if (id !== undefined) {
    const key = scoped(under.chain, id);
    const rows = await routed<NestedRecord[]>(
      read,
      bucketPath(folder, info.layout, info.buckets, bucketOf(key, info.buckets)),
    );
    const row = rows.find(([chain, record]) => chain === under.chain && String(record[0]) === id);
    answer = row ? { total: 1, items: [toItem(row[1], '', undefined, list)] } : { total: 0, items: [] };
  } else if (list.words) {
    const ix = { folder, info, list, pageSize: m.pageSize, chain: under.chain };
    const { total, kept } = await answerWords(read, ix, q, page);
    answer = { total, items: kept.map((k) => toItem(k.record, q, undefined, list, k.children)) };
  } else {
    const ofChain = (records: NestedRecord[]) =>
      records.filter(([chain]) => chain === under.chain).map(([, record]) => record);
    const { total, records } = await searchIndex(read, folder, info, scoped(under.chain, q), r, m.pageSize, ofChain);
    answer = { total, items: records.map((record) => toItem(record, q, undefined, list)) };
  }
  return answer.total > 0 || (await read<Envelope>(first)) !== undefined ? ok(answer) : unknown;
}

/** A whole list, filtered by a Term: by tier, list order within a tier (docs/contract.md §2, docs/lists.md). */
async function answerWhole(read: Read, r: Extract<Route, { kind: 'whole' }>): Promise<Answer> {
  const body = await read<Envelope<Record<string, unknown>>>(r.file);
  if (!body) return fail(404, `not found: /${r.file}`);
  if (r.q === '') return ok(body);
  const { list } = r;
  const keyOf = (value: 'label' | number) => list.keys.find((k) => k[1] === value)![0];
  const label = keyOf('label');
  const columns = (list.search ?? []).map(keyOf);
  const texts = (item: Record<string, unknown>) => ({
    text: textOf(list, String(item[label]), (i) => item[keyOf(i)]),
    columns: columns.map((k) => item[k]),
  });
  if (list.words) {
    const items = wholeWords(body.items, (item) => foldTexts(texts(item)), r.q, list);
    return ok({ total: items.length, items });
  }
  const items = byTier(
    body.items,
    body.items.map((item) => itemTier(texts(item), r.q, list.exact === true)),
  );
  return ok({ total: items.length, items });
}

async function answerFile(read: Read, path: string): Promise<Answer> {
  const body = await read<unknown>(path);
  return body === undefined ? fail(404, `not found: /${path}`) : ok(body);
}

/** The answer to a route of `m`'s API, read by `read`. */
async function answerRoute(read: Read, r: Route, m: Manifest): Promise<Answer> {
  switch (r.kind) {
    case 'paged':
      return answerList(read, r, m);
    case 'whole':
      return answerWhole(read, r);
    case 'file':
      return answerFile(read, r.file);
  }
}

/** The answer to any request URL of a declared list under manifest `m`. */
export async function answerRequest(read: Read, url: string, m: Manifest): Promise<Answer> {
  const r = parseRequest(url, m.api);
  if (!('status' in r)) return answerRoute(read, r, m);
  if (r.unlessMissing && !(await read(r.unlessMissing))) return fail(404, `not found: /${r.unlessMissing}`);
  return fail(r.status, r.error);
}

/** Items of a paged list by id: the ids grouped by their bucket, each bucket file read once. */
export async function lookupItems(
  read: Read,
  m: Manifest,
  name: string,
  ids: readonly (string | number)[],
  options: LookupOptions,
): Promise<Lookup> {
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
    options.group === undefined || !list.params.group ? undefined : m.systems.findIndex((s) => s.id === options.group);
  if (group === -1)
    throw new LookupError(
      'UNKNOWN_GROUP',
      `lookup: unknown ${m.api.group ? groupSegment(m.api.group) : 'group'} "${options.group}"`,
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
      for (const row of await routed<(EntryRecord | ChildRecord)[]>(read, path)) {
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
    else if (!given.has(key!)) {
      // 7 and 007 are one item
      given.add(key!);
      items.push(toItem(row, '', group, list));
    }
  }
  return { items, unknown };
}
