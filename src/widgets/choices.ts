// reflist/choices: Choices.js over a static tree. Choices.js searches only the
// choices it holds and has no remote search or paging of its own, so the
// wiring does both: what is typed is asked of the tree (searchChoices off),
// and scrolling to the end of the list loads the next page; what it matched
// of each choice is marked. Also the choices of saved values and a cascade
// down nested lists. It imports no Choices.js (the page's own).
import { createCascade } from '../client/cascade.js';
import {
  groupOf,
  optionsPage,
  preselectValues,
  type Client,
  type GroupOption,
  type LookupOption,
} from '../client/source.js';
import { marker, markedHtml, type Mark } from './marks.js';

/** The members of a Choices instance the wiring uses; a real one has them all. */
export interface ChoicesInstance {
  passedElement: { element: HTMLSelectElement };
  input: { element: HTMLInputElement };
  choiceList: { element: HTMLElement };
  setChoices(choices: object[], value: string, label: string, replaceChoices: boolean): unknown;
  setChoiceByValue(value: string | string[]): unknown;
  clearChoices(): unknown;
  removeActiveItems(): unknown;
  getValue(valueOnly: true): string | string[] | undefined;
  disable(): unknown;
  enable(): unknown;
}

type ChoicesClass<T> = new (element: string | Element, config: object) => T;

export interface ChoicesSourceOptions {
  /** The group (System) whose counts the choices carry, where the list has counts; a function is asked at every request. */
  group?: GroupOption;
  /** Milliseconds to wait after a keystroke before asking (default 250); Choices.js asks at every one. */
  delay?: number;
  /** Choices.js's own config, merged under what the wiring needs. */
  config?: object;
  /** Whether the choices show what the search text matched in <mark> (default true). */
  highlight?: boolean;
}

/**
 * What the wiring needs of Choices.js: the tree has matched and ordered the
 * choices, Choices.js must not do it again; a page appended below the others
 * must leave the list where the reader scrolled it (Choices.js would scroll it
 * back to the top at every change); a chosen value, kept by Choices.js through
 * every new page, is not offered a second time when a page holds it too.
 */
const REQUIRED = {
  searchChoices: false,
  shouldSort: false,
  searchFloor: 1,
  renderChoiceLimit: -1,
  resetScrollPosition: false,
  duplicateItemsAllowed: false,
};

/** A choice as Choices.js takes it: the count as its description, parent and child classed to be styled, the rest kept. */
export function toChoice(option: LookupOption) {
  return {
    value: option.id,
    label: option.text,
    ...(option.count !== undefined && { labelDescription: String(option.count) }),
    ...(option.kind && { labelClass: `reflist-${option.kind}` }),
    customProperties: option,
  };
}

/** A choice as Choices.js hands it to its choice template. */
interface ChoiceData {
  label: unknown;
  customProperties?: LookupOption;
}
type ChoiceTemplate = (this: unknown, config: object, choice: ChoiceData, ...rest: unknown[]) => HTMLElement;

/**
 * Choices.js's `callbackOnCreateTemplates`: its own choice template (the
 * class's `defaults.templates`), what the search text matched of the label in
 * <mark>, by the list's rule (`mark()`, once a load has read it). A label
 * `{trusted}` is HTML that Choices.js takes as it is: each piece of it is
 * escaped as Choices.js escapes a label (escapeForTemplate without allowHTML).
 * `this` is the instance, whose input holds the search text.
 */
function marking(Choices: unknown, mark: () => Mark | undefined) {
  return (_strToEl: unknown, escapeForTemplate: (allowHTML: boolean, text: string) => string) => {
    const { choice } = (Choices as { defaults: { templates: { choice: ChoiceTemplate } } }).defaults.templates;
    return {
      choice(this: ChoicesInstance, config: object, data: ChoiceData, ...rest: unknown[]) {
        const text = data.customProperties?.text ?? '';
        const ranges = mark()?.(text, this.input.element.value);
        const html = ranges && markedHtml(text, ranges, (piece) => escapeForTemplate(false, piece));
        return choice.call(this, config, html ? { ...data, label: { trusted: html } } : data, ...rest);
      },
    };
  };
}

/** Whether the list is scrolled to (near) its end. */
const atEnd = (list: HTMLElement) => list.scrollTop + list.clientHeight >= list.scrollHeight - 24;

/**
 * Wires a Choices instance to `load(term, page)`: what is typed, once
 * `delay` has passed without another keystroke; page 1 when the drop-down
 * first opens; the next page when the list is scrolled to its end. An answer
 * to anything but the latest request is dropped.
 */
function wire(
  choices: ChoicesInstance,
  load: (term: string, page: number) => Promise<{ options: LookupOption[]; more: boolean }>,
  delay = 250,
): { reset(): void } {
  let latest = 0;
  /** The term of the latest request. */
  let asked: string | undefined;
  let state: { term: string; page: number; more: boolean } | undefined;
  let loading = false;
  const show = async (term: string, page: number) => {
    const request = ++latest;
    asked = term;
    loading = true;
    try {
      const { options, more } = await load(term, page);
      if (request !== latest) return;
      choices.setChoices(options.map(toChoice), 'value', 'label', page === 1);
      // A single select with nothing chosen: the browser selects its first option whenever options are
      // added, and a form would send that item. Nothing chosen sends nothing.
      const select = choices.passedElement.element;
      if (!select.multiple && choices.getValue(true) === undefined) select.selectedIndex = -1;
      // A new term's page 1 starts at the top; a next page leaves the list where it was.
      if (page === 1) choices.choiceList.element.scrollTop = 0;
      state = { term, page, more };
    } finally {
      if (request === latest) loading = false;
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  choices.input.element.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void show(choices.input.element.value, 1).catch(() => {}), delay);
  });
  // Choosing, Escape and closing empty what was typed with no input event (and with Choices.js's own
  // filter off, no search event): the list is the whole list's again, not the last term's.
  const emptied = () =>
    setTimeout(() => {
      if (asked !== undefined && asked !== '' && choices.input.element.value === '') void show('', 1).catch(() => {});
    });
  choices.passedElement.element.addEventListener('addItem', emptied);
  choices.passedElement.element.addEventListener('hideDropdown', emptied);
  choices.passedElement.element.addEventListener('showDropdown', () => {
    if (!state && !loading) void show('', 1).catch(() => {});
  });
  choices.choiceList.element.addEventListener('scroll', () => {
    if (state?.more && !loading && atEnd(choices.choiceList.element))
      void show(state.term, state.page + 1).catch(() => {});
  });
  return {
    /** Forgets what was loaded, so that the next opening asks again (a cascade's parent changed). */
    reset() {
      state = undefined;
      asked = undefined;
      latest += 1;
      loading = false;
    },
  };
}

/**
 * `createChoices(Choices, '#author', client, 'author')`: a Choices.js
 * instance over a paged list of the tree, searched and paged by the tree,
 * what the search text matched marked unless `options.highlight` is false (a
 * `callbackOnCreateTemplates` of `options.config` replaces the marking one).
 */
export function createChoices<T extends ChoicesInstance>(
  Choices: ChoicesClass<T>,
  element: string | Element,
  client: Client,
  list: string,
  options: ChoicesSourceOptions = {},
): T {
  let mark: Mark | undefined;
  const callbackOnCreateTemplates = marking(Choices, () => mark);
  const choices = new Choices(element, { callbackOnCreateTemplates, ...options.config, ...REQUIRED });
  wire(
    choices,
    async (term, page) => {
      const answer = await optionsPage(client, list, term, page, groupOf(options.group));
      mark = await marker(client, list, options.highlight);
      return answer;
    },
    options.delay,
  );
  return choices;
}

/**
 * Selects saved values (ids; in a list with children `d:12`, `c:105`) in an
 * instance made by `createChoices`, showing their labels: one request per id
 * bucket, never one per id. Resolves to the options and the values that name
 * no item (left unselected).
 */
export async function preselect(
  choices: ChoicesInstance,
  client: Client,
  list: string,
  values: readonly (string | number)[],
  options: { group?: GroupOption } = {},
): Promise<{ options: LookupOption[]; unknown: string[] }> {
  return preselectValues(client, list, values, options.group, (found) => {
    // Added as choices, then selected in the order given: a value a page already
    // holds is not added twice (duplicateItemsAllowed is off), so it must be selected by value.
    choices.setChoices(found.map(toChoice), 'value', 'label', false);
    choices.setChoiceByValue(found.map((o) => o.id));
  });
}

/**
 * A cascade down nested lists (`['family', 'genus', 'species']`): one Choices
 * instance a level, made here with `options.config` merged in. A level is
 * disabled until the one above it has a value; choosing or clearing a value
 * clears every level below it and loads the choices under the new one. A
 * level that is a paged list under its parent loads its next page when its
 * list is scrolled to the end, as `createChoices` does.
 */
export function cascade<T extends ChoicesInstance>(
  Choices: ChoicesClass<T>,
  client: Client,
  elements: readonly (string | Element)[],
  lists: readonly string[],
  options: Omit<ChoicesSourceOptions, 'group'> = {},
): T[] {
  const levels = createCascade(client, lists);
  const marks: (Mark | undefined)[] = [];
  const choices = lists.map(
    (_, level) =>
      new Choices(elements[level]!, {
        callbackOnCreateTemplates: marking(Choices, () => marks[level]),
        ...options.config,
        ...REQUIRED,
      }),
  );
  levels.connect(
    choices.map((level, i) => {
      const wiring = wire(
        level,
        async (term, page) => {
          const found = await levels.options(i, term, page);
          marks[i] = await marker(client, lists[i]!, options.highlight);
          return found;
        },
        options.delay,
      );
      const select = level.passedElement.element;
      return {
        value: () => String(level.getValue(true) ?? ''),
        onChange: (handler) => select.addEventListener('change', handler),
        clear: () => {
          level.removeActiveItems();
          level.clearChoices();
          wiring.reset();
          // Its own change reaches the level below in turn.
          select.dispatchEvent(new Event('change'));
        },
        disable: () => void level.disable(),
        enable: () => void level.enable(),
      };
    }),
  );
  return choices;
}
