// reflist/react-select: react-select over a static tree. `loadOptions` for
// AsyncSelect, `loadPage` for react-select-async-paginate's AsyncPaginate, the
// options of saved values, and a cascade down nested lists. It imports
// neither React nor react-select (they are the page's own): it only makes
// the plain objects and functions their props take, over the widget-neutral
// source of reflist/client.
import { chooseAt, createCascade, isReady } from '../client/cascade.js';
import {
  groupOf,
  optionsForValues,
  optionsPage,
  without,
  type CascadeOption,
  type Client,
  type GroupOption,
  type LookupOption,
} from '../client/source.js';

/** An option as react-select reads it by default (`value`, `label`), with what the tree says of it. */
export type ReactSelectOption<T extends LookupOption = LookupOption> = T & { value: string; label: string };

/** A group of options: in a list with children, a parent heads one, and is its first option too, so it stays selectable. */
export interface ReactSelectGroup {
  label: string;
  options: ReactSelectOption[];
}

export interface ReactSelectSourceOptions {
  /** The group (System) whose counts the options carry, where the list has counts; a function is asked at every request. */
  group?: GroupOption;
}

/**
 * The keys react-select reads of an option beside `value` and `label`: an
 * item's field keyed `options` would make the option a group, one keyed
 * `isDisabled` would disable it. They are left out (docs/react-select.md).
 */
export const REACT_SELECT_KEYS: readonly string[] = ['options', 'isDisabled'];

const toOption = <T extends LookupOption>(option: T): ReactSelectOption<T> => ({
  ...without(option, REACT_SELECT_KEYS),
  value: option.id,
  label: option.text,
});

/**
 * A page's options as react-select shows them. A list with children gives a
 * group per parent, headed by the parent's label, whose options are the parent
 * itself and then its children: react-select cannot select a group's heading,
 * and people want to choose a division as well as one of its categories.
 */
export function toReactSelect(options: readonly LookupOption[]): (ReactSelectOption | ReactSelectGroup)[] {
  if (!options.some((o) => o.kind)) return options.map(toOption);
  const groups: ReactSelectGroup[] = [];
  for (const option of options) {
    if (option.kind === 'parent') groups.push({ label: option.text, options: [toOption(option)] });
    else groups.at(-1)!.options.push(toOption(option));
  }
  return groups;
}

/**
 * AsyncSelect's `loadOptions`: page 1 of `list` for what was typed, in the
 * service's order. AsyncSelect shows one page; for scrolling on, use
 * AsyncPaginate with `loadPage`. `defaultOptions` (true) asks it for `''`.
 */
export function loadOptions(client: Client, list: string, options: ReactSelectSourceOptions = {}) {
  return async (input: string): Promise<(ReactSelectOption | ReactSelectGroup)[]> =>
    toReactSelect((await optionsPage(client, list, input, 1, groupOf(options.group))).options);
}

/** What AsyncPaginate's `loadOptions` answers. */
export interface PaginatedOptions {
  options: (ReactSelectOption | ReactSelectGroup)[];
  hasMore: boolean;
  additional: { page: number };
}

/**
 * AsyncPaginate's `loadOptions(search, loaded, {page})`: page after page of
 * `list` for `search`, one request each, `hasMore` while the list has more.
 * Give AsyncPaginate `additional={{page: 1}}` (without it, page 1 is assumed).
 */
export function loadPage(client: Client, list: string, options: ReactSelectSourceOptions = {}) {
  return async (search: string, _loaded?: unknown, additional?: { page?: number }): Promise<PaginatedOptions> => {
    const page = additional?.page ?? 1;
    const { options: found, more } = await optionsPage(client, list, search, page, groupOf(options.group));
    return { options: toReactSelect(found), hasMore: more, additional: { page: page + 1 } };
  };
}

/**
 * The options of saved values (ids; in a list with children `d:12`, `c:105`),
 * in the order given, for `value` or `defaultValue`: one request per id
 * bucket, never one per id. `unknown` holds the values that name no item.
 */
export async function optionsForIds(
  client: Client,
  list: string,
  values: readonly (string | number)[],
  options: ReactSelectSourceOptions = {},
): Promise<{ options: ReactSelectOption[]; unknown: string[] }> {
  const found = await optionsForValues(client, list, values.map(String), groupOf(options.group));
  return { options: found.options.map(toOption), unknown: found.unknown };
}

/** What a level of a cascade takes: the props to spread on an AsyncSelect, and its `key`. */
export interface CascadeLevelProps {
  isDisabled: boolean;
  defaultOptions: true;
  cacheOptions: true;
  loadOptions(input: string): Promise<ReactSelectOption<CascadeOption>[]>;
  value: ReactSelectOption<CascadeOption> | null;
  onChange(option: ReactSelectOption<CascadeOption> | null): void;
}

/**
 * A cascade down nested lists (`['family', 'genus', 'species']`), one
 * AsyncSelect a level, over the values chosen so far (the page's own state):
 *
 *     const [values, setValues] = useState([]);
 *     lists.map((list, level) =>
 *       <AsyncSelect key={taxonomy.key(values, level)} {...taxonomy.props(values, setValues, level)} />)
 *
 * A level is disabled until every level above it has a value; choosing or
 * clearing one clears every level below it. `key` changes with the values
 * above, so that a level's options are loaded again under a new parent.
 */
export function cascade(client: Client, lists: readonly string[]) {
  type Values = readonly (ReactSelectOption<CascadeOption> | null | undefined)[];
  const levels = createCascade(client, lists);
  // One entry a level above, chosen or not: the page's state starts as [], shorter than the levels.
  const above = (values: Values, level: number) => Array.from({ length: level }, (_, i) => values[i]?.value);
  return {
    key: (values: Values, level: number): string => `${lists[level]}:${JSON.stringify(above(values, level))}`,
    props(values: Values, setValues: (values: Values) => void, level: number): CascadeLevelProps {
      const ids = above(values, level);
      return {
        isDisabled: !isReady(ids),
        defaultOptions: true,
        cacheOptions: true,
        loadOptions: async (input) => (await levels.optionsUnder(level, ids, input)).map(toOption),
        value: values[level] ?? null,
        onChange: (option) => setValues(chooseAt(values, level, option)),
      };
    },
  };
}
