// Equal values made one: a build of millions of rows holds the same small
// strings and arrays (a rank, a country code, a word's first letters) once
// each rather than once a row.

/** Cap on the keys a sharer remembers: past it, later values are their own, so a list of distinct values costs no Map of them all. */
const MOST = 1 << 16;

/** A function that returns, for a key, the first value given with it, and the value given when the key is new. */
export function sharer<T>(): (key: string, value: T) => T {
  const first = new Map<string, T>();
  return (key, value) => {
    const was = first.get(key);
    if (was !== undefined) return was;
    if (first.size < MOST) first.set(key, value);
    return value;
  };
}
