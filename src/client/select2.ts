// select2 4.x wiring over client.request, for any declared list: the ajax
// option of a paged list, parents and their embedded children both
// selectable, preselection by id, and a cascade down nested lists. No jQuery
// import: the caller passes its jQuery-wrapped selects in, so the bundle stays
// dependency-free and loads in Node.
import type { LookupClient } from './client.js';
import { fold, tierOf } from './fold.js';
import { chainOf } from './request.js';
import type { ApiList, Envelope, Grid, Id, Manifest } from './types.js';

type Client = Pick<LookupClient, 'request' | 'manifest'>;

/** One option as select2 shows it; `select2('data')[0]` returns it for the selection. */
export interface LookupOption {
  /** select2's id, the select's value: the item id, or in a list with children `p:12` (parent 12) / `c:105` (child 105). */
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
}

/** An option of a cascade: its item's own keys as the service sends them, where it belongs, and the option's. */
export type CascadeOption = LookupOption & Record<string, unknown> & { parentIds: Id[] };

/** What select2 hands to `ajax.transport` and expects back. */
export interface Select2Query {
  term: string;
  page: number;
}
export interface Select2Page<T = LookupOption> {
  results: T[];
  pagination: { more: boolean };
}

/** The value for select2's `ajax` option. */
export interface Select2Ajax<T = LookupOption> {
  delay: number;
  data(params: { term?: string; page?: number }): Select2Query;
  transport(settings: { data: Select2Query }, success: (page: Select2Page<T>) => void, failure: () => void): { abort(): void };
}

export interface Select2AjaxOptions {
  /** The group (System) whose counts the options carry, where the list has counts; a function is asked at every request. */
  group?: string | null | (() => string | null | undefined);
  /** Milliseconds select2 waits after a keystroke before asking (default 250). */
  delay?: number;
}

/** The few jQuery methods the wiring calls, on a jQuery-wrapped `<select>` with select2 loaded. */
export interface JQuerySelect {
  val(): unknown;
  on(events: string, handler: () => void): unknown;
  empty(): JQuerySelect;
  prop(name: 'disabled', value: boolean): unknown;
  trigger(event: string): unknown;
  select2(...args: unknown[]): unknown;
}

/** An item as the service answers it: its keys (id and label among them), its count, its children. */
type PageItem = Record<string, unknown>;

const DEFAULT_DELAY = 250;

/** A declared list by name, from lookup.json. */
async function listOf(client: Client, name: string): Promise<ApiList> {
  const list = (await client.manifest()).api.lists.find((l) => l.name === name);
  if (!list) throw new Error(`no list "${name}" in this tree`);
  return list;
}

const keyOf = (keys: ApiList['keys'], value: 'id' | 'label') => keys.find((k) => k[1] === value)![0];

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

function groupOf(option: Select2AjaxOptions['group']): string | undefined {
  const value = typeof option === 'function' ? option() : option;
  return value ? value : undefined;
}

/** The service URL for one select2 query, by the list's own parameter names; the group only where the list has counts. */
export function listUrl(list: ApiList, term: string, page: number, group?: string): string {
  const params = new URLSearchParams();
  const { params: names } = list;
  if (term !== '' && names.term) params.set(names.term, term);
  if (page > 1 && names.page) params.set(names.page, String(page));
  if (group !== undefined && names.group) params.set(names.group, group);
  const query = params.toString();
  return `/${list.path}.json${query ? `?${query}` : ''}`;
}

function plainOption(list: ApiList, item: PageItem): LookupOption {
  const id = item[keyOf(list.keys, 'id')] as Id;
  const option: LookupOption = { id: String(id), text: String(item[keyOf(list.keys, 'label')]), itemId: id };
  if (item['count'] !== undefined) option.count = item['count'] as number;
  return option;
}

/**
 * Each parent followed by its children, all of them options: select2 4
 * would turn an item with `children` into an unselectable group.
 */
export function flattenChildren(list: ApiList, items: readonly PageItem[]): LookupOption[] {
  const { key, keys } = list.children!;
  return items.flatMap((item) => {
    const parent = plainOption(list, item);
    return [
      { ...parent, id: childValue(list, 'parent', parent.itemId), kind: 'parent' as const },
      ...((item[key] ?? []) as PageItem[]).map((child) => {
        const id = child[keyOf(keys, 'id')] as Id;
        return { id: childValue(list, 'child', id), text: String(child[keyOf(keys, 'label')]), itemId: id, kind: 'child' as const, parentId: parent.itemId };
      }),
    ];
  });
}

/** An envelope page as select2 results; `more` counts list items (parents), not flattened options. */
export function toSelect2Page(list: ApiList, body: Envelope<PageItem>, page: number, pageSize: number): Select2Page {
  const results = list.children ? flattenChildren(list, body.items) : body.items.map((item) => plainOption(list, item));
  return { results, pagination: { more: page * pageSize < body.total } };
}

/** The body of a 200 answer; anything else becomes an error select2 reports as "could not be loaded". */
async function fetchBody<T>(client: Client, url: string): Promise<T> {
  const { status, body } = await client.request(url);
  if (status !== 200) throw new Error(`${url}: ${status} ${(body as { error?: string }).error ?? ''}`);
  return body as T;
}

function ajaxFrom<T>(load: (query: Select2Query) => Promise<Select2Page<T>>, delay = DEFAULT_DELAY): Select2Ajax<T> {
  return {
    delay,
    // select2 leaves term undefined when the dropdown opens and page undefined for page 1.
    data: (params) => ({ term: params.term ?? '', page: params.page ?? 1 }),
    transport(settings, success, failure) {
      let aborted = false;
      load(settings.data).then(
        (page) => {
          if (!aborted) success(page);
        },
        () => {
          if (!aborted) failure();
        },
      );
      // select2 aborts the previous request when the term changes: a slow answer to an old term must not win.
      return { abort: () => void (aborted = true) };
    },
  };
}

/** select2's `ajax` option for a paged list: every query becomes one `client.request`. */
export function select2Ajax(client: Client, list: string, options: Select2AjaxOptions = {}): Select2Ajax {
  return ajaxFrom(async ({ term, page }) => {
    // lookup.json first (read once a page visit): the request then has it at hand (the client shares no pending reads).
    const manifest: Manifest = await client.manifest();
    const spec = await listOf(client, list);
    const body = await fetchBody<Envelope<PageItem>>(client, listUrl(spec, term, page, groupOf(options.group)));
    return toSelect2Page(spec, body, page, manifest.pageSize);
  }, options.delay);
}

/** select2's `templateResult`: the count after the text, and a class to style parents and indent their children. */
export function templateResult(data: Partial<LookupOption> & { text: string }, container?: Element): string {
  if (data.kind && container?.classList) container.classList.add(`reflist-${data.kind}`);
  return data.count === undefined ? data.text : `${data.text} (${data.count})`;
}

function preselectUrl(list: ApiList, id: Id, child: boolean, group?: string): { url: string; child: boolean } {
  const parsed = list.children && typeof id === 'string' ? parseChildValue(list, id) : undefined;
  const itemId = parsed ? parsed.id : id;
  const isChild = parsed ? parsed.kind === 'child' : child && list.children !== undefined;
  const { params: names } = list;
  const params = new URLSearchParams({ [names.id ?? 'Id']: String(itemId) });
  if (isChild && names.child) params.set(names.child, 'true');
  if (group !== undefined && names.group) params.set(names.group, group);
  return { url: `/${list.path}.json?${params}`, child: isChild };
}

/** The option an Id lookup answers: for a child, the only child its parent carries. */
export function optionForId(list: ApiList, body: Envelope<PageItem>, child: boolean): LookupOption | undefined {
  const item = body.items[0];
  if (!item) return undefined;
  if (!list.children) return plainOption(list, item);
  const options = flattenChildren(list, [item]);
  return child ? options.find((o) => o.kind === 'child') : options[0];
}

/**
 * Selects item `id` of `list` in a select2 that is already initialised with
 * `select2Ajax`: `$select` is the jQuery-wrapped `<select>`. In a list with
 * children, `id` is a select value (`'d:12'`, `'c:105'`) or an id, a child's
 * when `child` is set. The option keeps its full data (count, kind), as if the
 * person had picked it; select2 adds it and triggers `change`. Resolves to the
 * option, or undefined (nothing selected) when no item has that id.
 */
export async function preselect(
  $select: JQuerySelect,
  client: Client,
  list: string,
  id: Id,
  options: { child?: boolean; group?: string | null } = {},
): Promise<LookupOption | undefined> {
  const spec = await listOf(client, list);
  const { url, child } = preselectUrl(spec, id, options.child ?? false, options.group ?? undefined);
  const option = optionForId(spec, await fetchBody<Envelope<PageItem>>(client, url), child);
  // Through select2's own 'select' (not a bare <option>) so select2('data') holds the whole option.
  if (option) $select.select2('trigger', 'select', { data: option });
  return option;
}

/** Items filtered by a Term the way the service does (docs/contract.md §2: tier 1 first, list order within a tier). */
function byTerm<T>(items: readonly T[], term: string, label: (item: T) => string): T[] {
  const q = fold(term);
  if (q === '') return [...items];
  const tiers = items.map((item) => tierOf(fold(label(item)), q));
  return [1, 2].flatMap((t) => items.filter((_, i) => tiers[i] === t));
}

/** The items of a whole list or a grid as cascade options, under parents `parentIds`, each item's keys kept. */
export function cascadeResults(list: ApiList, items: readonly PageItem[], parentIds: Id[]): CascadeOption[] {
  return items.map((item) => ({ ...item, ...plainOption(list, item), parentIds }));
}

const whole = <T>(results: T[]): Select2Page<T> => ({ results, pagination: { more: false } });

/** A select's value when it is an id; undefined when nothing is chosen. */
function chosenId($select: JQuerySelect): string | undefined {
  const value = $select.val();
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The ajax options of a cascade down nested lists (`['country', 'state',
 * 'county']`), one per select; each level asks under the ids chosen above it
 * when select2 asks, and offers nothing while one of them is empty. A grid
 * (which takes no Term) is filtered here as the service filters a Term.
 */
export function cascadeAjax(client: Client, selects: readonly JQuerySelect[], lists: readonly string[], delay?: number): Select2Ajax<CascadeOption>[] {
  return lists.map((name, level) => ajaxFrom(async ({ term }) => {
    const list = await listOf(client, name);
    const ids = selects.slice(0, level).map(chosenId);
    if (ids.some((id) => id === undefined)) return whole<CascadeOption>([]);
    const above = chainOf((await client.manifest()).api, list).slice(0, -1);
    const path = `/${above.map((l, i) => `${l.path}/${encodeURIComponent(ids[i]!)}`).concat(list.path).join('/')}.json`;
    const parents = ids as string[];
    if (list.shape === 'grid') {
      const grid = await fetchBody<Grid<PageItem>>(client, path);
      const label = keyOf(list.keys, 'label');
      return whole(cascadeResults(list, byTerm(grid.rows, term, (row) => String(row[label])), parents));
    }
    const query = term !== '' && list.params.term ? `?${new URLSearchParams({ [list.params.term]: term })}` : '';
    const body = await fetchBody<Envelope<PageItem>>(client, path + query);
    return whole(cascadeResults(list, body.items, parents));
  }, delay));
}

/**
 * Wires a cascade of nested lists on jQuery-wrapped selects, one a level
 * (select2 is initialised here, with `options.select2` merged in, e.g.
 * `{width: '100%'}`; placeholders come from `data-placeholder`). A select is
 * disabled until the one above it has a value; changing or clearing a value
 * clears what is below it. The chosen item's keys are in
 * `$select.select2('data')[0]`.
 */
export function cascade(
  client: Client,
  selects: readonly JQuerySelect[],
  lists: readonly string[],
  options: { select2?: Record<string, unknown>; delay?: number } = {},
): void {
  const ajax = cascadeAjax(client, selects, lists, options.delay);
  selects.forEach((select, i) => select.select2({ minimumInputLength: 0, ...options.select2, ajax: ajax[i] }));
  for (let i = 1; i < selects.length; i++) follow(selects[i - 1]!, selects[i]!);
}

/** Keeps `below` empty and disabled until `above` has a value, and empties it whenever that value changes. */
function follow(above: JQuerySelect, below: JQuerySelect): void {
  let current = chosenId(above);
  below.prop('disabled', current === undefined);
  above.on('change', () => {
    const next = chosenId(above);
    if (next === current) return; // re-picking the same parent keeps what is below
    current = next;
    // The removed options' change reaches the next select down in turn.
    below.empty().trigger('change');
    below.prop('disabled', next === undefined);
  });
}
