// A cascade down nested lists (`['country', 'state', 'county']`), whatever the
// widget: the options of a level under the values chosen above it, a page at
// a time where the level is a paged list under its parent, and the
// rule every adapter shares, written once: a level is disabled until the one
// above it has a value, and a new value there (or none) clears it, which in
// turn clears the levels below it. Each adapter (src/widgets/) plugs its
// widget in as a CascadeLevel; react-select, driven by the page's state,
// uses the same rule on its values.
import { childOptions, type Client, type LevelPage } from './source.js';

/** A level's widget, as the cascade drives it. */
export interface CascadeLevel {
  /** The chosen id; '' when none. */
  value(): string;
  /** Calls `handler` after each change of the value, a person's or `clear`'s. */
  onChange(handler: () => void): void;
  /** Empties the level, its value and its options; its own change reaches the level below through `onChange`. */
  clear(): void;
  disable(): void;
  /** Enabled under a new value above: the adapter may load its options now. */
  enable(): void;
}

/** Values of the levels above a level, one each, undefined or '' when not chosen. */
export type Above = readonly (string | null | undefined)[];

/** Whether every level above has a value: only then does a level offer anything. */
export const isReady = (above: Above): above is readonly string[] =>
  above.every((value) => typeof value === 'string' && value !== '');

/** The values after `value` is chosen (or cleared) at `level`: the levels above kept, those below it cleared. */
export const chooseAt = <T>(values: readonly T[], level: number, value: T): T[] => [...values.slice(0, level), value];

export interface Cascade {
  readonly lists: readonly string[];
  /**
   * Page `page` of the options of `level` under `above`, the values chosen at each level above it, filtered
   * by `term`; nothing while one is missing. Only a paged list under its parent has a page after the first.
   */
  optionsUnder(level: number, above: Above, term?: string, page?: number): Promise<LevelPage>;
  /** Page `page` of the options of `level` under the values its connected levels above hold now. */
  options(level: number, term?: string, page?: number): Promise<LevelPage>;
  /** Wires the levels, one widget a list in order: disabled while the level above is empty, cleared when its value changes. */
  connect(levels: readonly CascadeLevel[]): void;
}

const NOTHING: LevelPage = { options: [], more: false };

export function createCascade(client: Client, lists: readonly string[]): Cascade {
  let connected: readonly CascadeLevel[] = [];
  const optionsUnder = async (level: number, above: Above, term = '', page = 1) =>
    isReady(above) ? childOptions(client, lists[level]!, above, term, page) : NOTHING;
  return {
    lists,
    optionsUnder,
    options: (level, term, page) =>
      optionsUnder(
        level,
        Array.from({ length: level }, (_, i) => connected[i]?.value()),
        term,
        page,
      ),
    connect(levels) {
      connected = levels;
      for (let i = 1; i < levels.length; i++) follow(levels[i - 1]!, levels[i]!);
    },
  };
}

/** Keeps `below` disabled until `above` has a value, and clears it whenever that value changes. */
function follow(above: CascadeLevel, below: CascadeLevel): void {
  let current = above.value();
  if (current === '') below.disable();
  above.onChange(() => {
    const next = above.value();
    if (next === current) return; // picking the same value again keeps what is below
    current = next;
    below.clear();
    if (next === '') below.disable();
    else below.enable();
  });
}
