// reflist/react-select: react-select over a static tree. `loadOptions` for
// AsyncSelect, `loadPage` for react-select-async-paginate's AsyncPaginate, the
// options of saved values, a cascade down nested lists, and a
// `formatOptionLabel` that marks what the term matched. It imports neither
// React nor react-select (they are the page's own): it only makes the plain
// objects and functions their props take, over the widget-neutral source of
// reflist/client; the page hands React's createElement to what renders.
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
import { marker, pieces, withMarks, type Mark, type Marked } from './marks.js';

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
  /** Whether the options carry what the term matched, for `highlighted` to put in <mark> (default true). */
  highlight?: boolean;
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
export function toReactSelect(
  options: readonly LookupOption[],
  term = '',
  mark: Mark = () => undefined,
): (ReactSelectOption | ReactSelectGroup)[] {
  const made = (option: LookupOption) => withMarks(toOption(option), term, mark);
  if (!options.some((o) => o.kind)) return options.map(made);
  const groups: ReactSelectGroup[] = [];
  for (const option of options) {
    if (option.kind === 'parent') groups.push({ label: option.text, options: [made(option)] });
    else groups.at(-1)!.options.push(made(option));
  }
  return groups;
}

/** A page of `list` for `term` as react-select shows it, with what the term matched unless `highlight` is off. */
async function pageOf(client: Client, list: string, term: string, page: number, options: ReactSelectSourceOptions) {
  const found = await optionsPage(client, list, term, page, groupOf(options.group));
  return { ...found, options: toReactSelect(found.options, term, await marker(client, list, options.highlight)) };
}

/**
 * React's `createElement`, as far as `highlighted` calls it (the page's own
 * React: `import { createElement } from 'react'`).
 */
export type CreateElement<E> = (type: 'mark', props: { key: number }, text: string) => E;

/**
 * react-select's `formatOptionLabel`, given React's `createElement`: in the
 * menu, the label with what the term matched (`$marks`) in <mark> elements,
 * the rest plain text, which React escapes; the count after it, where the
 * option has one. In the box (a chosen value), the label and count as text.
 */
export function highlighted<E>(createElement: CreateElement<E>) {
  return (
    option: { label: string; count?: number } & Marked,
    meta?: { context: 'menu' | 'value' },
  ): string | (string | E)[] => {
    const count = option.count === undefined ? '' : ` (${option.count})`;
    if (meta?.context !== 'menu' || !option.$marks) return option.label + count;
    return [
      ...pieces(option.label, option.$marks).map((piece, i) =>
        i % 2 ? createElement('mark', { key: i }, piece) : piece,
      ),
      count,
    ];
  };
}

/**
 * AsyncSelect's `loadOptions`: page 1 of `list` for what was typed, in the
 * service's order. AsyncSelect shows one page; for scrolling on, use
 * AsyncPaginate with `loadPage`. `defaultOptions` (true) asks it for `''`.
 */
export function loadOptions(client: Client, list: string, options: ReactSelectSourceOptions = {}) {
  return async (input: string): Promise<(ReactSelectOption | ReactSelectGroup)[]> =>
    (await pageOf(client, list, input, 1, options)).options;
}

/** What AsyncPaginate's `loadOptions` answers. */
export interface PaginatedOptions<T = ReactSelectOption | ReactSelectGroup> {
  options: T[];
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
    const { options: found, more } = await pageOf(client, list, search, page, options);
    return { options: found, hasMore: more, additional: { page: page + 1 } };
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

/** What a level of a cascade takes: the props to spread on an AsyncPaginate, and its `key`. */
export interface CascadeLevelProps {
  isDisabled: boolean;
  additional: { page: number };
  loadOptions(
    search: string,
    loaded?: unknown,
    additional?: { page?: number },
  ): Promise<PaginatedOptions<ReactSelectOption<CascadeOption>>>;
  value: ReactSelectOption<CascadeOption> | null;
  onChange(option: ReactSelectOption<CascadeOption> | null): void;
}

/**
 * A cascade down nested lists (`['family', 'genus', 'species']`), one
 * AsyncPaginate a level, over the values chosen so far (the page's own state):
 *
 *     const [values, setValues] = useState([]);
 *     lists.map((list, level) =>
 *       <AsyncPaginate key={taxonomy.key(values, level)} {...taxonomy.props(values, setValues, level)} />)
 *
 * A level is disabled until every level above it has a value; choosing or
 * clearing one clears every level below it. `key` changes with the values
 * above, so that a level's options are loaded again under a new parent. A
 * level that is a paged list under its parent loads page after page as its
 * menu is scrolled; a whole list or a grid is one page. With `highlight` (the
 * default), the options carry what the term matched.
 */
export function cascade(client: Client, lists: readonly string[], options: { highlight?: boolean } = {}) {
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
        additional: { page: 1 },
        loadOptions: async (search, _loaded, additional) => {
          const page = additional?.page ?? 1;
          const found = await levels.optionsUnder(level, ids, search, page);
          const mark = await marker(client, lists[level]!, options.highlight);
          return {
            options: found.options.map((option) => withMarks(toOption(option), search, mark)),
            hasMore: found.more,
            additional: { page: page + 1 },
          };
        },
        value: values[level] ?? null,
        onChange: (option) => setValues(chooseAt(values, level, option)),
      };
    },
  };
}
