// The widget-neutral source every drop-down adapter is a thin layer over
// (src/widgets/): a page of options for a term, with whether more
// follow; the options of a set of select values, read by id bucket; a level of
// a cascade under the ids chosen above it; the value forms of a list with
// children, parent and child both selectable. Over client.request
// and client.lookup only, so it loads wherever the client does.
import type { Lookup, LookupOptions } from './client.js';
import { LookupError } from './errors.js';
import { fold } from './fold.js';
import { byTier, textTier } from './rank.js';
import { chainOf, idKey } from './request.js';
import type { ApiList, Envelope, Grid, Id, Manifest } from './types.js';

/** What the adapters use of a client: any createLookupClient makes, typed by a project's lists or not. */
export interface Client {
  request(url: string): Promise<{ status: number; body: unknown }>;
  lookup(list: string, ids: readonly (string | number)[], options?: LookupOptions): Promise<Lookup<unknown>>;
  manifest(): Promise<Manifest>;
}

/**
 * One option of a drop-down, whatever the widget: select2's
 * `select2('data')[0]` is one. Beside its own keys it carries its item's keys
 * (the id's, the label's and the declared fields', as the item has them), for
 * a custom render: a city's `population`. The option's own keys win: a field
 * keyed `text` or `kind` is shadowed (give it another key in the config).
 */
export interface LookupOption {
  /** The select's value: the item id, or in a list with children `p:12` (parent 12) / `c:105` (child 105). */
  id: string;
  text: string;
  /** The id in its own list (a parent's or a child's id). */
  itemId: Id;
  /** With a group (System): how many items that group refers to (parents, not children). */
  count?: number;
  /** Lists with children only: a parent, or one of its children listed (indented) right after it. */
  kind?: 'parent' | 'child';
  /** A child's parent. */
  parentId?: Id;
  /** The item's keys: its declared fields among them. */
  [key: string]: unknown;
}

/** The keys an option sets itself, which an item's key of the same name does not override. */
const OPTION_KEYS: readonly string[] = ['id', 'text', 'itemId', 'count', 'kind', 'parentId', 'parentIds'];

/** An option of a cascade: a LookupOption, and where it belongs (the ids chosen above it). */
export type CascadeOption = LookupOption & { parentIds: Id[] };

/** An item as the service answers it: its keys (id and label among them), its count, its children. */
export type PageItem = Record<string, unknown>;

/** The group (System) whose counts options carry: a value, or a function asked at every request; empty means none. */
export type GroupOption = string | null | undefined | (() => string | null | undefined);

export function groupOf(option: GroupOption): string | undefined {
  const value = typeof option === 'function' ? option() : option;
  return value ? value : undefined;
}

/** A declared list by name, from lookup.json. */
export async function listOf(client: Client, name: string): Promise<ApiList> {
  const list = (await client.manifest()).api.lists.find((l) => l.name === name);
  if (!list) throw new LookupError('UNKNOWN_LIST', `no list "${name}" in this tree`);
  return list;
}

export const keyOf = (keys: ApiList['keys'], value: 'id' | 'label') => keys.find((k) => k[1] === value)![0];

/**
 * The prefixes of a parent's and a child's select value: the first letters of
 * the two lists' names (`d:12`, `c:105`), or `p` and `c` when they share one.
 */
function prefixes(list: ApiList): { parent: string; child: string } {
  const parent = list.name[0]!.toLowerCase();
  const child = list.children!.list[0]!.toLowerCase();
  return parent === child ? { parent: 'p', child: 'c' } : { parent, child };
}

/** The select value of a parent (`d:12`) or of a child (`c:105`) in a list with children: two id spaces, one select. */
export function childValue(list: ApiList, kind: 'parent' | 'child', id: Id): string {
  return `${prefixes(list)[kind]}:${id}`;
}

/** Reads a select value of a list with children back; undefined for anything else. */
export function parseChildValue(list: ApiList, value: string): { kind: 'parent' | 'child'; id: string } | undefined {
  const { parent, child } = prefixes(list);
  const colon = value.indexOf(':');
  const prefix = value.slice(0, colon);
  if (colon < 0 || (prefix !== parent && prefix !== child) || value.length === colon + 1) return undefined;
  return { kind: prefix === parent ? 'parent' : 'child', id: value.slice(colon + 1) };
}

/** The service URL for one query, by the list's own parameter names; the group only where the list has counts. */
export function listUrl(list: ApiList, term: string, page: number, group?: string): string {
  return `/${list.path}.json${queryOf(list, term, page, group)}`;
}

/** The query of one request (`?Term=smi&Page=2`), by the list's own parameter names; '' when it asks nothing. */
function queryOf(list: ApiList, term: string, page: number, group?: string): string {
  const params = new URLSearchParams();
  const { params: names } = list;
  if (term !== '' && names.term) params.set(names.term, term);
  if (page > 1 && names.page) params.set(names.page, String(page));
  if (group !== undefined && names.group) params.set(names.group, group);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** `option` without the keys a widget reads of its own (select2's `disabled`, …): an item's field so keyed would be taken for one. */
export function without<T extends object>(option: T, keys: readonly string[]): T {
  if (!keys.some((key) => key in option)) return option;
  return Object.fromEntries(Object.entries(option).filter(([key]) => !keys.includes(key))) as T;
}

export function plainOption(list: ApiList, item: PageItem): LookupOption {
  const id = item[keyOf(list.keys, 'id')] as Id;
  const keys = list.keys.flatMap(([key]) =>
    OPTION_KEYS.includes(key) || item[key] === undefined ? [] : [[key, item[key]]],
  );
  const option: LookupOption = {
    ...Object.fromEntries(keys),
    id: String(id),
    text: String(item[keyOf(list.keys, 'label')]),
    itemId: id,
  };
  if (item['count'] !== undefined) option.count = item['count'] as number;
  return option;
}

/**
 * Each parent followed by its children, all of them options, so that parent
 * and child are both selectable (select2 4 would turn an item with
 * `children` into an unselectable group).
 */
export function flattenChildren(list: ApiList, items: readonly PageItem[]): LookupOption[] {
  const { key, keys } = list.children!;
  return items.flatMap((item) => {
    const parent = plainOption(list, item);
    return [
      { ...parent, id: childValue(list, 'parent', parent.itemId), kind: 'parent' as const },
      ...((item[key] ?? []) as PageItem[]).map((child) => {
        const id = child[keyOf(keys, 'id')] as Id;
        return {
          id: childValue(list, 'child', id),
          text: String(child[keyOf(keys, 'label')]),
          itemId: id,
          kind: 'child' as const,
          parentId: parent.itemId,
        };
      }),
    ];
  });
}

/** The body of a 200 answer; anything else is an error (select2 reports it as "could not be loaded"). */
export async function fetchBody<T>(client: Client, url: string): Promise<T> {
  const { status, body } = await client.request(url);
  if (status !== 200)
    throw new LookupError('ANSWERED', `${url}: ${status} ${(body as { error?: string }).error ?? ''}`, status);
  return body as T;
}

/** Page `page` of a paged list's options for `term`; `more` counts list items (parents), not flattened options. */
export async function optionsPage(
  client: Client,
  name: string,
  term: string,
  page: number,
  group?: string,
): Promise<{ options: LookupOption[]; more: boolean; total: number }> {
  // lookup.json first (read once a page visit): the request then has it at hand (the client shares no pending reads).
  const manifest = await client.manifest();
  const list = await listOf(client, name);
  const body = await fetchBody<Envelope<PageItem>>(client, listUrl(list, term, page, group));
  const options = list.children ? flattenChildren(list, body.items) : body.items.map((item) => plainOption(list, item));
  return { options, more: page * manifest.pageSize < body.total, total: body.total };
}

/**
 * The options of some select values (ids; in a list with children `d:12` or
 * `c:105`), in the order given, and the values that name no item: a
 * multi-select restored from a saved form. Parents and children are each read
 * by id bucket (client.lookup): a request per bucket, never one per value.
 */
export async function optionsForValues(
  client: Client,
  name: string,
  values: readonly string[],
  group?: string,
): Promise<{ options: LookupOption[]; unknown: string[] }> {
  const list = await listOf(client, name);
  const parsed = values.map((value) =>
    list.children ? parseChildValue(list, value) : { kind: 'parent' as const, id: value },
  );
  const found = { parent: new Map<string, LookupOption>(), child: new Map<string, LookupOption>() };
  await Promise.all(
    (['parent', 'child'] as const).map(async (kind) => {
      const ids = parsed.flatMap((p) => (p?.kind === kind ? [p.id] : []));
      if (ids.length === 0) return;
      const { items } = await client.lookup(name, ids, {
        ...(group === undefined ? {} : { group }),
        child: kind === 'child',
      });
      for (const item of items as PageItem[]) {
        const option = !list.children
          ? plainOption(list, item)
          : flattenChildren(list, [item]).find((o) => (o.kind === 'child') === (kind === 'child'))!;
        found[kind].set(String(option.itemId), option);
      }
    }),
  );
  const options: LookupOption[] = [];
  const unknown: string[] = [];
  for (const [i, p] of parsed.entries()) {
    const form = p?.kind === 'child' ? list.children! : list;
    const key = p && idKey(form, p.id);
    const option = key === undefined ? undefined : found[p!.kind].get(key);
    if (option) options.push(option);
    else unknown.push(values[i]!);
  }
  return { options, unknown };
}

/**
 * Saved values restored in a widget: their options (optionsForValues, the
 * values given as ids or numbers) handed to `select`, which adds them to the
 * widget and selects them in the order given. Resolves to what
 * optionsForValues does.
 */
export async function preselectValues(
  client: Client,
  name: string,
  values: readonly (string | number)[],
  group: GroupOption,
  select: (options: LookupOption[]) => void,
): Promise<{ options: LookupOption[]; unknown: string[] }> {
  const found = await optionsForValues(client, name, values.map(String), groupOf(group));
  select(found.options);
  return found;
}

/** Items filtered by a Term the way the service does (docs/contract.md §2: tier 1 first, list order within a tier). */
function byTerm<T>(items: readonly T[], term: string, label: (item: T) => string): T[] {
  const q = fold(term);
  if (q === '') return [...items];
  return byTier(
    items,
    items.map((item) => textTier(fold(label(item)), q, false)),
  );
}

/** The items of a whole list or a grid as cascade options, under parents `parentIds`, each item's keys kept. */
export function cascadeResults(list: ApiList, items: readonly PageItem[], parentIds: Id[]): CascadeOption[] {
  return items.map((item) => ({ ...plainOption(list, item), parentIds }));
}

/** A page of a cascade's level: its options, and whether a next page follows. */
export interface LevelPage {
  options: CascadeOption[];
  more: boolean;
}

/**
 * A page of a level of a cascade down nested lists, of any depth: the options
 * of list `name` under the ids chosen at each level above it
 * (`childOptions(client, 'county', ['US', 'TX'])`), filtered by `term` as the
 * service filters a Term. A paged list under its parent comes a page at a
 * time, as any paged list does (`more` while its parent has more); a whole
 * list or a grid is one page of all its items. A grid takes no Term, so it is
 * filtered here the same way.
 */
export async function childOptions(
  client: Client,
  name: string,
  parentIds: readonly string[],
  term = '',
  page = 1,
): Promise<LevelPage> {
  const manifest = await client.manifest();
  const list = await listOf(client, name);
  const above = chainOf(manifest.api, list).slice(0, -1);
  if (parentIds.length !== above.length)
    throw new LookupError(
      'INVALID_ARGUMENT',
      `${name}: ${above.length} parent ids expected, ${parentIds.length} given`,
    );
  const path = `/${above
    .map((l, i) => `${l.path}/${encodeURIComponent(parentIds[i]!)}`)
    .concat(list.path)
    .join('/')}.json`;
  const parents = [...parentIds];
  const paged = list.shape === 'paged' && list.params.page !== undefined;
  // A whole list or a grid has no page after its first.
  if (page > 1 && !paged) return { options: [], more: false };
  if (list.shape === 'grid') {
    const grid = await fetchBody<Grid<PageItem>>(client, path);
    const label = keyOf(list.keys, 'label');
    const rows = byTerm(grid.rows, term, (row) => String(row[label]));
    return { options: cascadeResults(list, rows, parents), more: false };
  }
  const body = await fetchBody<Envelope<PageItem>>(client, path + queryOf(list, term, page));
  return {
    options: cascadeResults(list, body.items, parents),
    more: paged && page * manifest.pageSize < body.total,
  };
}
