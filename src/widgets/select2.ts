// select2 4.x wiring over the widget-neutral source (src/client/source.ts and
// cascade.ts), for any declared list: the ajax option of a paged list, parents
// and their embedded children both selectable, what a term matched marked,
// preselection by id, and a cascade down nested lists. lookup-client.js carries it (reflist/client). No
// jQuery import: the caller passes its jQuery-wrapped selects in, so the
// bundle stays dependency-free and loads in Node.
import { createCascade, type Cascade } from '../client/cascade.js';
import {
  fetchBody,
  flattenChildren,
  groupOf,
  listOf,
  optionsPage,
  parseChildValue,
  plainOption,
  without,
  type CascadeOption,
  type Client,
  type GroupOption,
  type LookupOption,
  type PageItem,
} from '../client/source.js';
import type { ApiList, Envelope, Id } from '../client/types.js';
import { marker, pieces, withMarks, type Marked } from './marks.js';

export { cascadeResults, childValue, flattenChildren, listUrl, parseChildValue } from '../client/source.js';
export type { CascadeOption, LookupOption } from '../client/source.js';

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
  transport(
    settings: { data: Select2Query },
    success: (page: Select2Page<T>) => void,
    failure: () => void,
  ): { abort(): void };
}

export interface Select2AjaxOptions {
  /** The group (System) whose counts the options carry, where the list has counts; a function is asked at every request. */
  group?: GroupOption;
  /** Milliseconds select2 waits after a keystroke before asking (default 250). */
  delay?: number;
  /** Whether `templateResult` puts what the term matched in <mark> (default true). */
  highlight?: boolean;
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

const DEFAULT_DELAY = 250;

/**
 * The keys select2 reads of an option beside `id` and `text`: an item's field
 * so keyed would make the option a group (`children`), disable it, select it,
 * or be its tooltip. It is left out of select2's options (docs/select2.md).
 */
export const SELECT2_KEYS: readonly string[] = ['children', 'disabled', 'selected', 'element', 'title'];

/** An option as select2 takes it: the item's fields kept, but for the keys select2 reads. */
export const toSelect2 = <T extends LookupOption>(option: T): T => without(option, SELECT2_KEYS);

/** An envelope page as select2 results; `more` counts list items (parents), not flattened options. */
export function toSelect2Page(list: ApiList, body: Envelope<PageItem>, page: number, pageSize: number): Select2Page {
  const results = (
    list.children ? flattenChildren(list, body.items) : body.items.map((item) => plainOption(list, item))
  ).map(toSelect2);
  return { results, pagination: { more: page * pageSize < body.total } };
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
    const { options: results, more } = await optionsPage(client, list, term, page, groupOf(options.group));
    const mark = await marker(client, list, options.highlight);
    return { results: results.map((o) => withMarks(toSelect2(o), term, mark)), pagination: { more } };
  }, options.delay);
}

/**
 * select2's `templateResult`: the text with what the term matched in <mark>
 * (`$marks`), the count after it, and a class to style parents and indent
 * their children. Marked, it is made of text nodes and <mark> elements, which
 * select2 appends as they are: the label is text, whatever it holds.
 */
export function templateResult(
  data: Partial<LookupOption> & Marked & { text: string },
  container?: Element,
): string | Node {
  if (data.kind && container?.classList) container.classList.add(`reflist-${data.kind}`);
  const count = data.count === undefined ? '' : ` (${data.count})`;
  if (!data.$marks) return data.text + count;
  const span = document.createElement('span');
  span.append(
    ...pieces(data.text, data.$marks).map((piece, i) =>
      i % 2 ? Object.assign(document.createElement('mark'), { textContent: piece }) : piece,
    ),
    count,
  );
  return span;
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
  const found = optionForId(spec, await fetchBody<Envelope<PageItem>>(client, url), child);
  const option = found && toSelect2(found);
  // Through select2's own 'select' (not a bare <option>) so select2('data') holds the whole option.
  if (option) $select.select2('trigger', 'select', { data: option });
  return option;
}

/** A select's value when it is an id; '' when nothing is chosen. */
function chosenId($select: JQuerySelect): string {
  const value = $select.val();
  return typeof value === 'string' ? value : '';
}

/**
 * The ajax options of a cascade down nested lists (`['country', 'state',
 * 'county']`), one per select; each level asks under the ids chosen above it
 * when select2 asks (the next page as it scrolls, where the level is a paged
 * list under its parent), and offers nothing while one of them is empty.
 */
export function cascadeAjax(
  client: Client,
  selects: readonly JQuerySelect[],
  lists: readonly string[],
  delay?: number,
  highlight?: boolean,
): Select2Ajax<CascadeOption>[] {
  return ajaxOf(client, createCascade(client, lists), selects, delay, highlight);
}

function ajaxOf(
  client: Client,
  levels: Cascade,
  selects: readonly JQuerySelect[],
  delay?: number,
  highlight?: boolean,
): Select2Ajax<CascadeOption>[] {
  return levels.lists.map((list, level) =>
    ajaxFrom(async ({ term, page }) => {
      const { options, more } = await levels.optionsUnder(level, selects.slice(0, level).map(chosenId), term, page);
      const mark = await marker(client, list, highlight);
      return { results: options.map((o) => withMarks(toSelect2(o), term, mark)), pagination: { more } };
    }, delay),
  );
}

/**
 * Wires a cascade of nested lists on jQuery-wrapped selects, one a level
 * (select2 is initialised here, with `templateResult` and `options.select2`
 * merged in, e.g. `{width: '100%'}`; placeholders come from
 * `data-placeholder`). A select is disabled until the one above it has a
 * value; changing or clearing a value clears what is below it. The chosen
 * item's keys are in `$select.select2('data')[0]`. With `options.highlight`
 * (the default), the options carry what the term matched.
 */
export function cascade(
  client: Client,
  selects: readonly JQuerySelect[],
  lists: readonly string[],
  options: { select2?: Record<string, unknown>; delay?: number; highlight?: boolean } = {},
): void {
  const levels = createCascade(client, lists);
  const ajax = ajaxOf(client, levels, selects, options.delay, options.highlight);
  selects.forEach((select, i) =>
    select.select2({ minimumInputLength: 0, templateResult, ...options.select2, ajax: ajax[i] }),
  );
  levels.connect(
    selects.map((select) => ({
      value: () => chosenId(select),
      onChange: (handler) => void select.on('change', handler),
      // The removed options' change reaches the next select down in turn.
      clear: () => void select.empty().trigger('change'),
      disable: () => void select.prop('disabled', true),
      enable: () => void select.prop('disabled', false),
    })),
  );
}
