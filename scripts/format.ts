// How the benches write their figures, one definition each.
export const int = (n: number) => n.toLocaleString('en-US');
export const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
export const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
/** The value at `q` (0 to 1) of the sorted values, 0 of none. */
export const quantile = (xs: readonly number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
