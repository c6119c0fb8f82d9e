// What the drop-down adapters mark of a label: the ranges a Term matched
// (docs/lists.md, Highlighting), by the list's own rule, cut into pieces for
// a widget's template to put the matched ones in <mark>. Every adapter
// escapes the label's text itself, marked or not: a label is never markup.
import { highlight, type Range } from '../client/highlight.js';
import type { Client } from '../client/source.js';

export type { Range };

/** The ranges of a label that a term matched; undefined when none (or highlighting is off). */
export type Mark = (label: string, term: string) => Range[] | undefined;

/** What an option found by a term carries for a template: the ranges of its text that the term matched. */
export interface Marked {
  $marks?: Range[];
}

/**
 * How list `name` marks what a term matched: by its search rule, with typos
 * forgiven only where the words rule has them (a phrase-rule list has none).
 * Asked after the answer, whose request has read lookup.json already: the
 * client shares no pending reads, and a read at the same time would be a
 * second request.
 */
export async function marker(client: Client, name: string, on = true): Promise<Mark> {
  if (!on) return () => undefined;
  const list = (await client.manifest()).api.lists.find((l) => l.name === name);
  const typos = list?.words === true && list.typos !== false;
  return (label, term) => {
    const ranges = highlight(label, term, { typos });
    return ranges.length > 0 ? ranges : undefined;
  };
}

/**
 * `option` with `$marks`, on its prototype: its own keys stay the item's and
 * reflist's (a page that compares or serializes options sees the same), and
 * select2, which copies each result with jQuery's extend, copies inherited
 * keys too.
 */
export const withMarks = <T extends { text: string }>(option: T, term: string, mark: Mark): T => {
  const $marks = mark(option.text, term);
  return $marks ? Object.assign(Object.create({ $marks }) as T, option) : option;
};

/** `label` cut at `ranges`: its pieces in order, the odd ones matched. */
export function pieces(label: string, ranges: readonly Range[] = []): string[] {
  const out: string[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    out.push(label.slice(at, start), label.slice(start, end));
    at = end;
  }
  out.push(label.slice(at));
  return out;
}

/** `label` as HTML: every piece escaped by `escapeHtml` (the widget's own), the matched ones in <mark>. */
export const markedHtml = (label: string, ranges: readonly Range[] | undefined, escapeHtml: (text: string) => string) =>
  pieces(label, ranges)
    .map((piece, i) => (i % 2 ? `<mark>${escapeHtml(piece)}</mark>` : escapeHtml(piece)))
    .join('');
