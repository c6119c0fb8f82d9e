// What to tell a person when a source fails one way throughout: one line that
// names the fix (an id type, an encoding; a delimiter's is config/columns.ts's,
// which the sources' checks share), printed once after the
// located errors (errors.ts, errorLines). Pure.
import { DEFAULT_ID_CHARS, type ListSpec } from '../config/declaration.js';
import type { ReflistError } from '../errors.js';
import { isId } from '../client/request.js';

const quote = (s: string) => JSON.stringify(s);

/** Codes a string id could be (`WKK`, `DE-BY`), which an integer id column cannot hold. */
const isCode = (cell: string) => !/^\d+$/.test(cell) && isId({ id: 'string', chars: DEFAULT_ID_CHARS }, cell);

/**
 * The cells of a file's integer id columns (a list's own, or a reference to
 * another list's) that failed as codes would (`WKK`): when they are most of
 * their column, that list's id is a string, and the column's first error
 * carries the hint to declare it so.
 */
export class CodesInIntegerIds {
  private readonly found = new Map<
    number,
    { name: string; list: ListSpec; first: number; samples: string[]; n: number }
  >();

  constructor(
    private readonly file: string,
    private readonly errors: ReflistError[],
  ) {}

  /** Column `column`, `name`, of ids of `list`, failed on `cell`; its error is the next one pushed. */
  failed(column: number, name: string, list: ListSpec, cell: string): void {
    if (list.id.type !== 'integer' || !isCode(cell.trim())) return;
    const seen = this.found.get(column) ?? { name, list, first: this.errors.length, samples: [], n: 0 };
    if (seen.samples.length < 3) seen.samples.push(cell.trim());
    seen.n++;
    this.found.set(column, seen);
  }

  /** Once the file's `rows` are typed. */
  hint(rows: number): void {
    for (const { name, list, first, samples, n } of this.found.values()) {
      if (n * 2 <= rows) continue;
      const hint =
        `lists.${list.name} has integer ids, but most of ${this.file}'s ${quote(name)} cells are codes (${samples.map(quote).join(', ')}, …): ` +
        `declare "id": {"column": ${quote(list.id.column)}, "type": "string"} in lists.${list.name}`;
      this.errors[first] = this.errors[first]!.withHint(hint);
    }
  }
}

/** Characters a text in Windows-1252 (or Latin-1) holds past ASCII: letters, marks, punctuation, symbols, spaces. */
const LATIN = /^[\p{L}\p{M}\p{P}\p{S}\p{Zs}]$/u;
/** Shown of a line read as Windows-1252, at most. */
const SAMPLE = 60;

/**
 * A file that is not UTF-8: what it most likely is, judged from the bytes of
 * one of its invalid lines (`line`, without its LF), and how to fix it.
 */
export function encodingHint(file: string, line: number, bytes: Uint8Array): string {
  if (line === 1 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return `${file} looks like UTF-16 (it starts with UTF-16's byte order mark): save it as UTF-8`;
  }
  // A line that holds UTF-8 past ASCII too is UTF-8 with a stray byte, not another encoding.
  const utf8 = [...new TextDecoder().decode(bytes)].some((c) => c.charCodeAt(0) > 0x7f && c !== '\uFFFD');
  // The line without its CR, in a file of CRLF line ends.
  const text = new TextDecoder('windows-1252').decode(bytes).replace(/\r$/, '');
  const beyond = [...text].filter((c) => c.charCodeAt(0) > 0x7f);
  if (!utf8 && beyond.length > 0 && beyond.every((c) => LATIN.test(c))) {
    const shown = text.length > SAMPLE ? `${text.slice(0, SAMPLE)}…` : text;
    return `${file} looks like Windows-1252 or Latin-1 (line ${line} would read ${quote(shown)}): save it as UTF-8`;
  }
  return `save ${file} as UTF-8`;
}
