// A tiny seeded PRNG (mulberry32) and the samplers the generators need.
// Every list gets its own stream, derived from the seed and the list's name,
// so changing the size of one list never changes the contents of another.

export type Rng = () => number; // uniform in [0, 1)

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, 32 bits, over the UTF-8 bytes of `s`. */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(s)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function stream(seed: number, label: string): Rng {
  return mulberry32((seed ^ fnv1a32(label)) >>> 0);
}

export function int(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/**
 * Zipf-like sampler over `items` in the given order (first = most common):
 * P(rank r) ∝ 1 / (r + 1)^s. Sampling is a binary search over the cumulative
 * weights.
 */
export class Zipf<T> {
  private readonly cum: Float64Array;

  constructor(
    readonly items: readonly T[],
    s = 1,
    weights?: readonly number[],
  ) {
    if (items.length === 0) throw new Error('Zipf over an empty list');
    this.cum = new Float64Array(items.length);
    let total = 0;
    items.forEach((_, i) => {
      total += weights ? (weights[i] ?? 0) : 1 / (i + 1) ** s;
      this.cum[i] = total;
    });
  }

  sample(rng: Rng): T {
    const x = rng() * (this.cum[this.cum.length - 1] ?? 0);
    let lo = 0;
    let hi = this.cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cum[mid] ?? 0) > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo] as T;
  }
}

/** Heavy-tailed positive count (Pareto, shape `alpha`), at least 1, at most `cap`. */
export function heavyTail(rng: Rng, alpha: number, scale = 1, cap = 5_000_000): number {
  const u = rng();
  const x = scale / (1 - u) ** (1 / alpha);
  return Math.max(1, Math.min(cap, Math.floor(x)));
}

/** Deterministic Fisher–Yates shuffle (in place). */
export function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = items[i] as T;
    items[i] = items[j] as T;
    items[j] = t;
  }
  return items;
}
