// select2 4.x wiring over client.request: the ajax option for each paged list,
// division parents and children both selectable, preselection by id and the
// country → state → county cascade. No jQuery import: the caller passes its
// jQuery-wrapped selects in, so the bundle stays dependency-free and loads in Node.
import type { LookupClient } from './client.js';
import { fold, tierOf } from './fold.js';
import { COUNTED_LISTS, type County, type Envelope, type Grid, type PagedList } from './types.js';

type Client = Pick<LookupClient, 'request' | 'manifest'>;

/** One option as select2 shows it; `select2('data')[0]` returns it for the selection. */
export interface LookupOption {
  /** select2's id, the select's value: the item id, or `d:12` (division 12) / `c:105` (category 105) in division. */
  id: string;
  text: string;
  /** The id in its own list (a division's or a category's id in division). */
  itemId: number;
  /** With a System: how many items that system refers to (authors and divisions, not categories). */
  count?: number;
  /** division only: a division, or one of its categories listed (indented) right after it. */
  kind?: 'parent' | 'child';
  /** A category's division. */
  parentId?: number;
}

/** A county of the cascade: its grid row as the service sends it, plus where it belongs. */
export type CountyOption = LookupOption & County & { countryId: number; stateId: number };

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
  /** The System whose counts author and division options carry; a function is asked at every request. */
  system?: string | null | (() => string | null | undefined);
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

/** An item of a list's page as the service answers it (with System, its count; in division, its categories). */
interface PageItem {
  id: number;
  text: string;
  count?: number;
  children?: { id: number; text: string }[];
}

const DEFAULT_DELAY = 250;
const PREFIX = { parent: 'd', child: 'c' } as const;

/** The select value of a division (`d:12`) or of a category (`c:105`): two id spaces, one select. */
export function divisionValue(kind: 'parent' | 'child', id: number): string {
  return `${PREFIX[kind]}:${id}`;
}

/** Reads a division select's value back; undefined for anything else. */
export function parseDivisionValue(value: string): { kind: 'parent' | 'child'; id: number } | undefined {
  const m = /^([dc]):(\d+)$/.exec(value);
  if (!m) return undefined;
  return { kind: m[1] === 'd' ? 'parent' : 'child', id: Number(m[2]) };
}

function systemOf(option: Select2AjaxOptions['system']): string | undefined {
  const value = typeof option === 'function' ? option() : option;
  return value ? value : undefined;
}

/** The service URL for one select2 query; System only where the list has counts. */
export function listUrl(list: PagedList, term: string, page: number, system?: string): string {
  const params = new URLSearchParams();
  if (term !== '') params.set('Term', term);
  if (page > 1) params.set('Page', String(page));
  if (system !== undefined && (COUNTED_LISTS as readonly string[]).includes(list)) params.set('System', system);
  const query = params.toString();
  return `/${list}.json${query ? `?${query}` : ''}`;
}

function plainOption(item: PageItem): LookupOption {
  const option: LookupOption = { id: String(item.id), text: item.text, itemId: item.id };
  if (item.count !== undefined) option.count = item.count;
  return option;
}

/**
 * Each division followed by its categories, all of them options: select2 4
 * would turn an item with `children` into an unselectable group.
 */
export function flattenDivisions(items: readonly PageItem[]): LookupOption[] {
  return items.flatMap((item) => [
    { ...plainOption(item), id: divisionValue('parent', item.id), kind: 'parent' as const },
    ...(item.children ?? []).map((child) => ({
      id: divisionValue('child', child.id),
      text: child.text,
      itemId: child.id,
      kind: 'child' as const,
      parentId: item.id,
    })),
  ]);
}

/** An envelope page as select2 results; `more` counts list items (division parents), not flattened options. */
export function toSelect2Page(list: PagedList, body: Envelope<PageItem>, page: number, pageSize: number): Select2Page {
  const results = list === 'division' ? flattenDivisions(body.items) : body.items.map(plainOption);
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
export function select2Ajax(client: Client, list: PagedList, options: Select2AjaxOptions = {}): Select2Ajax {
  return ajaxFrom(async ({ term, page }) => {
    const url = listUrl(list, term, page, systemOf(options.system));
    // One after the other: the request reads lookup.json, which the client then has at hand (it shares no pending reads).
    const body = await fetchBody<Envelope<PageItem>>(client, url);
    return toSelect2Page(list, body, page, (await client.manifest()).pageSize);
  }, options.delay);
}

/** select2's `templateResult`: the count after the text, and a class to style divisions and indent categories. */
export function templateResult(data: Partial<LookupOption> & { text: string }, container?: Element): string {
  if (data.kind && container?.classList) container.classList.add(`reflist-${data.kind}`);
  return data.count === undefined ? data.text : `${data.text} (${data.count})`;
}

function preselectUrl(list: PagedList, id: number | string, child: boolean, system?: string): { url: string; child: boolean } {
  const parsed = list === 'division' && typeof id === 'string' ? parseDivisionValue(id) : undefined;
  const itemId = parsed ? parsed.id : id;
  const isChild = parsed ? parsed.kind === 'child' : child && list === 'division';
  const params = new URLSearchParams({ Id: String(itemId) });
  if (isChild) params.set('child', 'true');
  if (system !== undefined && (COUNTED_LISTS as readonly string[]).includes(list)) params.set('System', system);
  return { url: `/${list}.json?${params}`, child: isChild };
}

/** The option an Id lookup answers: for a category, the only child its parent carries. */
export function optionForId(list: PagedList, body: Envelope<PageItem>, child: boolean): LookupOption | undefined {
  const item = body.items[0];
  if (!item) return undefined;
  if (list !== 'division') return plainOption(item);
  const options = flattenDivisions([item]);
  return child ? options.find((o) => o.kind === 'child') : options[0];
}

/**
 * Selects item `id` of `list` in a select2 that is already initialised with
 * `select2Ajax`: `$select` is the jQuery-wrapped `<select>`. In division, `id` is a
 * select value (`'d:12'`, `'c:105'`) or a number, a category's when `child` is set.
 * The option keeps its full data (count, kind), as if the person had picked it;
 * select2 adds it and triggers `change`. Resolves to the option, or undefined
 * (nothing selected) when no item has that id.
 */
export async function preselect(
  $select: JQuerySelect,
  client: Client,
  list: PagedList,
  id: number | string,
  options: { child?: boolean; system?: string | null } = {},
): Promise<LookupOption | undefined> {
  const { url, child } = preselectUrl(list, id, options.child ?? false, options.system ?? undefined);
  const option = optionForId(list, await fetchBody<Envelope<PageItem>>(client, url), child);
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

/** The counties of a grid as options, filtered by a term (the county grid has no Term of its own). */
export function countyResults(grid: Grid, term: string, countryId: number, stateId: number): CountyOption[] {
  return byTerm(grid.rows, term, (row) => row.county).map((row) => ({
    ...row,
    id: String(row.FIPS),
    text: row.county,
    itemId: row.FIPS,
    countryId,
    stateId,
  }));
}

const termQuery = (term: string) => (term === '' ? '' : `?Term=${encodeURIComponent(term)}`);
const whole = <T>(results: T[]): Select2Page<T> => ({ results, pagination: { more: false } });

/** A select's value when it is an id (path ids are digits); undefined when nothing is chosen. */
function chosenId($select: JQuerySelect): string | undefined {
  const value = $select.val();
  return typeof value === 'string' && /^\d+$/.test(value) ? value : undefined;
}

export interface CascadeSelects {
  country: JQuerySelect;
  state: JQuerySelect;
  county: JQuerySelect;
}

/** The three ajax options of the cascade; each reads the upstream selects when select2 asks. */
export function cascadeAjax(client: Client, selects: CascadeSelects, delay?: number) {
  const country = ajaxFrom(async ({ term }) => {
    const body = await fetchBody<Envelope<PageItem>>(client, `/country.json${termQuery(term)}`);
    return whole(body.items.map(plainOption));
  }, delay);
  const state = ajaxFrom(async ({ term }) => {
    const c = chosenId(selects.country);
    if (c === undefined) return whole<LookupOption & { countryId: number }>([]);
    const body = await fetchBody<Envelope<PageItem>>(client, `/country/${c}/state.json${termQuery(term)}`);
    return whole(body.items.map((item) => ({ ...plainOption(item), countryId: Number(c) })));
  }, delay);
  const county = ajaxFrom(async ({ term }) => {
    const c = chosenId(selects.country);
    const s = chosenId(selects.state);
    if (c === undefined || s === undefined) return whole<CountyOption>([]);
    const grid = await fetchBody<Grid>(client, `/country/${c}/state/${s}/county.json`);
    return whole(countyResults(grid, term, Number(c), Number(s)));
  }, delay);
  return { country, state, county };
}

/**
 * Wires country → state → county on three jQuery-wrapped selects (select2 is
 * initialised here, with `options.select2` merged in, e.g. `{width: '100%'}`;
 * placeholders come from `data-placeholder`). A downstream select is disabled
 * until its parent has a value; changing or clearing a parent clears what is
 * below it. The chosen county's `FIPS`, `latitudeCenter` and `LongitudeCenter`
 * are in `$county.select2('data')[0]`.
 */
export function countyCascade(
  client: Client,
  selects: CascadeSelects,
  options: { select2?: Record<string, unknown>; delay?: number } = {},
): void {
  const ajax = cascadeAjax(client, selects, options.delay);
  for (const key of ['country', 'state', 'county'] as const) {
    selects[key].select2({ minimumInputLength: 0, ...options.select2, ajax: ajax[key] });
  }
  follow(selects.country, selects.state);
  follow(selects.state, selects.county);
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
