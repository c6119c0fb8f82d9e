// reflist/tom-select: Tom Select over a static tree. Settings for a paged
// list (its virtual_scroll plugin loads page after page), the options of
// saved values, and a cascade down nested lists. It imports no Tom Select
// (the page's own): the settings are plain objects, and the few instance
// members used are named below.
import {
  childOptions, groupOf, optionsForValues, optionsPage,
  type Client, type GroupOption, type LookupOption,
} from '../client/source.js';

/** The members of a TomSelect instance the wiring calls; a real one has them all. */
export interface TomSelectInstance {
  options: Record<string, unknown>;
  getUrl(query: string): unknown;
  setNextUrl(query: string, next: unknown): void;
  updateOption(value: string, data: object): void;
  addOptions(data: object[]): void;
  getValue(): string | string[];
  setValue(value: string | string[], silent?: boolean): void;
  clear(silent?: boolean): void;
  clearOptions(filter?: (option: unknown, value: string) => boolean): void;
  load(query: string): void;
  on(event: 'change', handler: (value: string) => void): void;
  disable(): void;
  enable(): void;
}

type Load = (this: TomSelectInstance, query: string, callback: (options?: object[]) => void) => void;

export interface TomSelectSourceOptions {
  /** The group (System) whose counts the options carry, where the list has counts; a function is asked at every request. */
  group?: GroupOption;
}

/** Tom Select's `render.option` and `render.item`: the count after the text; parents and their children are classed to be styled. */
export const render = {
  option: (data: LookupOption, escape: (text: string) => string): string =>
    `<div class="reflist-${data.kind ?? 'item'}">${escape(data.text)}${data.count === undefined ? '' : ` <span class="reflist-count">(${data.count})</span>`}</div>`,
  item: (data: LookupOption, escape: (text: string) => string): string => `<div>${escape(data.text)}</div>`,
};

/**
 * Tom Select keeps the options it holds and filters them by its own search of
 * `searchField`, so it would hide what the tree matched by another word or a
 * folded accent, and show a kept option that does not match. Here an option
 * shows only if it was loaded for the query typed, in the order loaded:
 * `score` says which, `$order` says where. An answer for a query typed over
 * since it was asked for changes nothing, whenever it arrives.
 */
function loadedFor() {
  let query: string | undefined;
  let values = new Set<string>();
  let order = 0;
  let asked = 0;
  return {
    score: (typed: string) => (option: { id: unknown }) => (typed === query && values.has(String(option.id)) ? 1 : 0),
    /** A load begins: answers to the loads before it are late from now on. Its ticket, for `late` and `add`. */
    ask: (): number => ++asked,
    late: (ticket: number): boolean => ticket !== asked,
    /**
     * The options of the answer to load `ticket`, for `typed`, for Tom Select's load callback: on page
     * 1 they replace the last query's. A late answer gives back the options held now instead: the
     * callback must be called (Tom Select counts its loads), and virtual_scroll empties the options
     * at each first page.
     */
    add(tom: TomSelectInstance, ticket: number, typed: string, first: boolean, options: readonly LookupOption[]): object[] {
      if (ticket !== asked) return Object.values(tom.options).filter((o) => values.has(String((o as { id: unknown }).id))) as object[];
      if (first || typed !== query) values = new Set();
      query = typed;
      const ordered = options.map((o) => ({ ...o, $order: ++order }));
      for (const option of ordered) {
        values.add(option.id);
        // Tom Select keeps an option it already holds as it was: give it its place in this answer.
        if (option.id in tom.options) tom.updateOption(option.id, option);
      }
      return ordered;
    },
  };
}

/** What every list's settings share: the option's keys, the tree's matching, the load. */
function settingsWith(load: Load, score: (query: string) => (option: { id: unknown }) => number) {
  return {
    valueField: 'id',
    labelField: 'text',
    searchField: [] as string[],
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

/**
 * `new TomSelect(select, tomSelectSettings(client, 'author'))`: page 1 of
 * `list` for what is typed, in the service's order, and the next page when
 * the list is scrolled to its end, one request each (the virtual_scroll
 * plugin, in tom-select.complete or imported from its plugins). Tom Select
 * waits `loadThrottle` (300 ms) after a keystroke before it asks.
 */
export function tomSelectSettings(client: Client, list: string, options: TomSelectSourceOptions = {}) {
  const loaded = loadedFor();
  const load: Load = function (query, callback) {
    const page = this.getUrl(query) as number;
    const ticket = loaded.ask();
    optionsPage(client, list, query, page, groupOf(options.group)).then(({ options: found, more }) => {
      if (!loaded.late(ticket)) this.setNextUrl(query, more ? page + 1 : false);
      callback(loaded.add(this, ticket, query, page === 1, found));
    }, () => callback());
  };
  return {
    ...settingsWith(load, loaded.score),
    plugins: ['virtual_scroll'],
    firstUrl: () => 1,
  };
}

/**
 * Selects saved values (ids; in a list with children `d:12`, `c:105`) in a
 * TomSelect made with `tomSelectSettings`, showing their labels: one request
 * per id bucket, never one per id. Resolves to the options and the values
 * that name no item (left unselected).
 */
export async function preselect(
  tom: TomSelectInstance, client: Client, list: string, values: readonly (string | number)[], options: TomSelectSourceOptions = {},
): Promise<{ options: LookupOption[]; unknown: string[] }> {
  const found = await optionsForValues(client, list, values.map(String), groupOf(options.group));
  tom.addOptions(found.options);
  tom.setValue(found.options.map((o) => o.id));
  return found;
}

/**
 * A cascade down nested lists (`['family', 'genus', 'species']`): one
 * TomSelect a level, made here with `settings` merged in. A level is disabled
 * until the one above it has a value; choosing or clearing a value clears
 * every level below it and loads the options under the new one.
 */
export function cascade<T extends TomSelectInstance>(
  TomSelect: new (element: string | Element, settings: object) => T,
  client: Client,
  elements: readonly (string | Element)[],
  lists: readonly string[],
  settings: object = {},
): T[] {
  const toms: T[] = [];
  const chosen = (tom: T) => String(tom.getValue() ?? '');
  lists.forEach((name, level) => {
    const loaded = loadedFor();
    const load: Load = function (query, callback) {
      const ticket = loaded.ask();
      const ids = toms.slice(0, level).map(chosen);
      if (ids.includes('')) return callback([]);
      childOptions(client, name, ids, query).then((found) => callback(loaded.add(this, ticket, query, true, found)), () => callback());
    };
    toms.push(new TomSelect(elements[level]!, { ...settings, ...settingsWith(load, loaded.score) }));
  });
  for (const [level, below] of toms.entries()) {
    if (level === 0) continue;
    const above = toms[level - 1]!;
    if (chosen(above) === '') below.disable();
    above.on('change', (value) => {
      // Clearing it is a change of its own, which reaches the level below in turn.
      below.clear();
      below.clearOptions();
      if (value === '') return below.disable();
      below.enable();
      below.load('');
    });
  }
  return toms;
}
