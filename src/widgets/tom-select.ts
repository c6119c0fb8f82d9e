// reflist/tom-select: Tom Select over a static tree. Settings for a paged
// list (its virtual_scroll plugin loads page after page) that mark what the
// term matched, the options of saved values, and a cascade down nested
// lists. It imports no Tom Select (the page's own): the settings are plain
// objects, and the few instance members used are named below.
import { createCascade } from '../client/cascade.js';
import {
  groupOf,
  optionsPage,
  preselectValues,
  type Client,
  type GroupOption,
  type LookupOption,
} from '../client/source.js';
import { marker, markedHtml, type Mark, type Marked } from './marks.js';

/** The members of a TomSelect instance the wiring uses; a real one has them all. */
export interface TomSelectInstance {
  options: Record<string, unknown>;
  /** What the box holds (Tom Select's last input value). */
  lastValue: string;
  control_input: HTMLInputElement;
  wrapper: HTMLElement;
  updateOption(value: string, data: object): void;
  addOptions(data: object[]): void;
  getValue(): string | string[];
  setValue(value: string | string[], silent?: boolean): void;
  clear(silent?: boolean): void;
  clearOptions(filter?: (option: unknown, value: string) => boolean): void;
  load(query: string): void;
  /** Loads the empty query once: the first focus (`preload: 'focus'`) calls it too. */
  preload(): void;
  refreshOptions(triggerDropdown?: boolean): void;
  on(event: 'change' | 'type', handler: (value: string) => void): void;
  on(event: 'dropdown_close', handler: () => void): void;
  disable(): void;
  enable(): void;
}

/** What virtual_scroll adds to an instance, which `tomSelectSettings` loads. */
interface VirtualScroll {
  setNextUrl(query: string, next: unknown): void;
  clearPagination(): void;
}

type Paged = TomSelectInstance & VirtualScroll;
type Load<T> = (this: T, query: string, callback: (options?: object[]) => void) => void;
type Score<T> = (this: T, typed: string) => (option: { id: unknown }) => number;

export interface TomSelectSourceOptions {
  /** The group (System) whose counts the options carry, where the list has counts; a function is asked at every request. */
  group?: GroupOption;
  /** Whether the options show what the term matched in <mark> (default true). */
  highlight?: boolean;
}

/**
 * Tom Select's `render.option` and `render.item`: in the drop-down, the text
 * with what the term matched (`$marks`) in <mark>, every piece of it escaped,
 * and the count after it; parents and their children are classed to be styled.
 */
export const render = {
  option: (data: LookupOption & Marked, escapeHtml: (text: string) => string): string =>
    `<div class="reflist-${data.kind ?? 'item'}">${markedHtml(data.text, data.$marks, escapeHtml)}${data.count === undefined ? '' : ` <span class="reflist-count">(${data.count})</span>`}</div>`,
  item: (data: LookupOption, escapeHtml: (text: string) => string): string => `<div>${escapeHtml(data.text)}</div>`,
};

/**
 * What a drop-down shows. Tom Select keeps the options it holds and filters
 * them by its own search of `searchField`, so it would hide what the tree
 * matched by another word or a folded accent, and show a kept option that
 * does not match. Here an option shows only if it was loaded for the query
 * typed, in the order loaded: `score` says which, `$order` says where.
 */
class Shown {
  query: string | undefined;
  private values = new Set<string>();
  private order = 0;

  score(typed: string) {
    return (option: { id: unknown }) => (typed === this.query && this.values.has(String(option.id)) ? 1 : 0);
  }

  /**
   * The options for Tom Select's load callback when an answer is dropped: those showing now. The callback
   * must be called (Tom Select counts its loads), and virtual_scroll empties the options at each first page.
   */
  held(tom: TomSelectInstance): object[] {
    return Object.values(tom.options).filter((o) => this.values.has(String((o as { id: unknown }).id))) as object[];
  }

  /**
   * Shows `options` for `typed`: a first page in place of what showed, a next page after it, each with
   * what `typed` matched of it. Returns them for Tom Select.
   */
  show(
    tom: TomSelectInstance,
    typed: string,
    first: boolean,
    options: readonly LookupOption[],
    mark: Mark,
  ): LookupOption[] {
    if (first || typed !== this.query) this.values = new Set();
    this.query = typed;
    const ordered = options.map((o) => ({ ...o, $order: ++this.order, $marks: mark(o.text, typed) }));
    for (const option of ordered) {
      this.values.add(option.id);
      // Tom Select keeps an option it already holds as it was: give it its place in this answer.
      if (option.id in tom.options) tom.updateOption(option.id, option);
    }
    return ordered;
  }
}

/** What every list's settings share: the option's keys, the tree's matching, the load. */
function settingsWith<T extends TomSelectInstance>(load: Load<T>, score: Score<T>) {
  return {
    valueField: 'id',
    labelField: 'text',
    searchField: [] as string[],
    // Tom Select's own highlighting marks what its own search would match (`mit` inside "Smith"): render
    // marks what the tree matched instead.
    highlight: false,
    // Tom Select reads an option's optgroup and disabled state under these keys: no item's field can
    // have one (a key starts with a letter), so a field keyed `disabled` is only the item's.
    optgroupField: '$optgroup',
    disabledField: '$disabled',
    score,
    // The whole list, page 1, when the drop-down first opens; any query is worth asking, the empty one too.
    preload: 'focus' as const,
    shouldLoad: () => true,
    load,
    render,
    // Tom Select shows 50 options at most; a whole list (a country's 56 states) is as long as it is, and
    // virtual_scroll would stop loading pages at maxOptions.
    maxOptions: null,
  };
}

/** A paged drop-down: what it shows, the page that follows it, and the whole list's page 1 to show again. */
interface Paging {
  /** Counts the times a cascade's level was emptied under a new value above: an answer asked before is late. */
  round: number;
  shown: Shown;
  /** The next page of the query shown; false after its last. */
  next: number | false;
  /** Something was typed since a load last chose its page: the next load is a new search. */
  typed: boolean;
  /** Page 1 of the whole list, from its last answer. */
  home?: { options: LookupOption[]; more: boolean };
}

/**
 * The page a load asks for. Tom Select calls load for what was typed, and
 * virtual_scroll for the next page when the list is scrolled to its end,
 * with the same query: only the latter continues what shows. A term typed
 * again, whatever was loaded for it before, starts at its page 1.
 */
function pageToLoad(paging: Paging, query: string): number {
  return !paging.typed && query === paging.shown.query && paging.next !== false ? paging.next : 1;
}

/** Whether an answer may show: it is for what the box holds, and a next page follows what shows. */
function isCurrent(tom: TomSelectInstance, paging: Paging, query: string, page: number): boolean {
  return query === tom.lastValue && (page === 1 || (query === paging.shown.query && page === paging.next));
}

/**
 * Sets what follows the query shown. virtual_scroll keeps a next page for
 * every query it saw and hands it back when that query is typed again, and
 * refuses to load one whose pages it ran out of: it keeps only the one shown.
 */
function setNext(tom: Paged, paging: Paging, query: string, next: number | false): void {
  paging.next = next;
  tom.clearPagination();
  tom.setNextUrl(query, next);
}

/**
 * Shows the whole list's page 1 again, when the box is emptied (erased, or
 * closed: Tom Select empties the box, and virtual_scroll puts back the
 * options of the first answer it got, which need not be that page, and in a
 * cascade's level were another parent's). Tom Select shows every option it
 * holds for an empty box, whatever `score` says: it keeps that page and the
 * chosen values only. Without an answer yet, the next load of the empty query
 * is let through.
 */
function showHome(tom: Paged, paging: Paging): void {
  const home = paging.home;
  const shown = paging.shown.show(tom, '', true, home?.options ?? [], () => undefined);
  const kept = new Set([...shown.map((o) => o.id), ...[tom.getValue()].flat()]);
  tom.clearOptions((_, value) => kept.has(value));
  tom.addOptions(shown);
  if (home) setNext(tom, paging, '', home.more && 2);
  else tom.clearPagination();
}

/** Paging state for each TomSelect made with one settings object, set up the first time Tom Select asks. */
function pagingOf(pagings: WeakMap<TomSelectInstance, Paging>, tom: Paged): Paging {
  const paging = pagings.get(tom);
  if (paging) return paging;
  const created: Paging = { round: 0, shown: new Shown(), next: false, typed: false };
  pagings.set(tom, created);
  // virtual_scroll restores its own options on these first; then the whole list's page 1 shows.
  tom.on('type', (typed) => {
    if (typed !== '') return;
    showHome(tom, created);
    tom.refreshOptions(false);
  });
  tom.on('dropdown_close', () => showHome(tom, created));
  tom.control_input.addEventListener('input', () => {
    created.typed = true;
  });
  return created;
}

/** One page of a paged drop-down's options for what is typed, with how to mark what it matched. */
type PageLoader = (query: string, page: number) => Promise<{ options: LookupOption[]; more: boolean; mark: Mark }>;

/**
 * Tom Select's `load` over `loadPage`, for the virtual_scroll plugin: page 1
 * for what is typed, the next page when the list is scrolled to its end. An
 * answer for what the box no longer holds, or asked before a cascade's level
 * was emptied, changes nothing.
 */
function pagedLoad(pagings: WeakMap<TomSelectInstance, Paging>, loadPage: PageLoader): Load<Paged> {
  return function (query, callback) {
    const paging = pagingOf(pagings, this);
    const page = pageToLoad(paging, query);
    const round = paging.round;
    paging.typed = false;
    loadPage(query, page).then(
      ({ options: found, more, mark }) => {
        if (round !== paging.round) return callback(paging.shown.held(this));
        if (query === '' && page === 1) paging.home = { options: found, more };
        if (!isCurrent(this, paging, query, page)) return callback(paging.shown.held(this));
        const shown = paging.shown.show(this, query, page === 1, found, mark);
        setNext(this, paging, query, more && page + 1);
        callback(shown);
      },
      () => callback(),
    );
  };
}

/** What the settings of a paged drop-down add to Tom Select's own: the load above, with virtual_scroll. */
function pagedSettings(loadPage: PageLoader, plugins: unknown = []) {
  const pagings = new WeakMap<TomSelectInstance, Paging>();
  const score: Score<Paged> = function (typed) {
    return pagingOf(pagings, this).shown.score(typed);
  };
  return {
    pagings,
    settings: {
      ...settingsWith(pagedLoad(pagings, loadPage), score),
      // A page's own plugins (an array of names) are kept beside it.
      plugins: [...(Array.isArray(plugins) ? plugins : []), 'virtual_scroll'],
      firstUrl: () => 1,
    },
  };
}

/**
 * `new TomSelect(select, tomSelectSettings(client, 'author'))`: page 1 of
 * `list` for what is typed, in the service's order, and the next page when
 * the list is scrolled to its end, one request each (the virtual_scroll
 * plugin, in tom-select.complete or imported from its plugins). Tom Select
 * waits `loadThrottle` (300 ms) after a keystroke before it asks. An answer
 * for what the box no longer holds changes nothing, whenever it arrives.
 */
export function tomSelectSettings(client: Client, list: string, options: TomSelectSourceOptions = {}) {
  return pagedSettings(async (query, page) => ({
    ...(await optionsPage(client, list, query, page, groupOf(options.group))),
    mark: await marker(client, list, options.highlight),
  })).settings;
}

/**
 * Selects saved values (ids; in a list with children `d:12`, `c:105`) in a
 * TomSelect made with `tomSelectSettings`, showing their labels: one request
 * per id bucket, never one per id. Resolves to the options and the values
 * that name no item (left unselected).
 */
export async function preselect(
  tom: TomSelectInstance,
  client: Client,
  list: string,
  values: readonly (string | number)[],
  options: TomSelectSourceOptions = {},
): Promise<{ options: LookupOption[]; unknown: string[] }> {
  return preselectValues(client, list, values, options.group, (found) => {
    tom.addOptions(found);
    tom.setValue(found.map((o) => o.id));
  });
}

/**
 * A cascade down nested lists (`['family', 'genus', 'species']`): one
 * TomSelect a level, made here with `settings` merged in, marking what the
 * term matched unless `options.highlight` is false. A level is disabled until
 * the one above it has a value; choosing or clearing a value clears every
 * level below it and loads the options under the new one. A level that is a
 * paged list under its parent loads its next page when the list is scrolled
 * to its end (virtual_scroll, as `tomSelectSettings`).
 */
export function cascade<T extends TomSelectInstance>(
  TomSelect: new (element: string | Element, settings: object) => T,
  client: Client,
  elements: readonly (string | Element)[],
  lists: readonly string[],
  settings: object = {},
  options: { highlight?: boolean } = {},
): T[] {
  const levels = createCascade(client, lists);
  const made = lists.map((list, level) => {
    const paged = pagedSettings(
      async (query, page) => ({
        ...(await levels.options(level, query, page)),
        mark: await marker(client, list, options.highlight),
      }),
      (settings as { plugins?: unknown }).plugins,
    );
    // The settings hold virtual_scroll among their plugins.
    const tom = new TomSelect(elements[level]!, { ...settings, ...paged.settings }) as T & Paged;
    return { tom, paging: () => pagingOf(paged.pagings, tom) };
  });
  levels.connect(
    made.map(({ tom, paging }) => ({
      value: () => String(tom.getValue() ?? ''),
      onChange: (handler) => tom.on('change', handler),
      // Clearing it is a change of its own, which reaches the level below in turn.
      clear: () => {
        tom.clear();
        tom.clearOptions();
        forget(tom, paging());
        // Tom Select preloads once, marking its wrapper: under the new value the level preloads again.
        tom.wrapper.classList.remove('preloaded');
      },
      disable: () => tom.disable(),
      // A preload, not a load: the first focus after it would otherwise continue the list with page 2.
      enable: () => {
        tom.enable();
        tom.preload();
      },
    })),
  );
  return made.map(({ tom }) => tom);
}

/**
 * Forgets what a cascade's level showed under the value above it: its pages,
 * the whole list's page 1, and every answer still on its way.
 */
function forget(tom: Paged, paging: Paging): void {
  paging.round += 1;
  paging.shown = new Shown();
  paging.next = false;
  paging.typed = false;
  paging.home = undefined;
  tom.clearPagination();
}
