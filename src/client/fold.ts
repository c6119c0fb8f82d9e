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

// The ends' spaces go by a replace, not trim(): trim() returns a slice of the
// string it trims, which keeps all of it alive for as long as a build holds
// the key (a quarter of a million species' labels end in a `)`).
export function fold(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (c) => LETTERS[c]!)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/^ | $/g, '');
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

/** A key of a declared order: a field (its index in an item's fields) and whether it sorts descending. */
export type OrderBy = readonly [field: number, descending: boolean];

/**
 * A list's order (docs/lists.md, Order): its declared keys, numbers by value
 * and strings by code unit, then the default order. The builder sorts a
 * list by it, and the client merges the records of several files by it.
 */
export function compareInOrder<
  T extends { key: string; text: string; id: number | string; fields?: readonly unknown[] },
>(order: readonly OrderBy[] | undefined): (a: T, b: T) => number {
  if (!order || order.length === 0) return compareLabels;
  return (a, b) => {
    for (const [field, descending] of order) {
      const [x, y] = [a.fields![field] as number | string | null, b.fields![field] as number | string | null];
      // An optional field's empty cell (null) comes last whichever way the field sorts.
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
        continue;
      }
      const c = typeof x === 'number' ? x - (y as number) : compareStrings(x, y as string);
      if (c !== 0) return descending ? -c : c;
    }
    return compareLabels(a, b);
  };
}
