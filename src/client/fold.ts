// docs/contract.md §2: the one normalisation that list order, Term matching and the
// search index all agree on. Shared verbatim by the builder and the client.

const LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

export function fold(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (c) => LETTERS[c]!)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Plain code-unit comparison, so that every machine sorts alike. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** List order (docs/contract.md §2): by fold(text), then text, then id (integers by value, strings by code unit). */
export function compareLabels(
  a: { key: string; text: string; id: number | string },
  b: { key: string; text: string; id: number | string },
): number {
  return compareStrings(a.key, b.key) || compareStrings(a.text, b.text) || compareIds(a.id, b.id);
}

/** Two ids of one list: both integers or both strings. */
export function compareIds(a: number | string, b: number | string): number {
  return typeof a === 'number' ? a - (b as number) : compareStrings(a, b as string);
}
