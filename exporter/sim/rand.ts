// Integer hashing and a seeded PRNG. Every simulated number is derived from a hash of
// (seed, host, gpu, time bucket, channel), so any instant can be computed without stepping.

/** murmur3 finalizer: a cheap, well-mixed 32-bit hash step */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function step(h: number, v: number): number {
  // fold the value in as two 32-bit halves so minute/second counts above 2^32 still mix
  const lo = v | 0;
  const hi = Math.floor(v / 4294967296) | 0;
  h = Math.imul(h ^ fmix(lo ^ 0x9e3779b9), 0x27d4eb2f);
  h = Math.imul(h ^ fmix(hi ^ 0x7f4a7c15), 0x165667b1);
  return (h ^ (h >>> 15)) >>> 0;
}

/** Hash of up to five integers (fixed arity: no rest-array allocation in hot loops). */
export function hash(a: number, b = 0, c = 0, d = 0, e = 0): number {
  let h = 0x811c9dc5;
  h = step(h, a);
  h = step(h, b);
  h = step(h, c);
  h = step(h, d);
  h = step(h, e);
  return fmix(h);
}

/** Uniform [0, 1) from the hash of up to five integers. */
export function unit(a: number, b = 0, c = 0, d = 0, e = 0): number {
  return hash(a, b, c, d, e) / 4294967296;
}

/** FNV-1a of a string, for turning names into hash inputs. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded PRNG for building the fleet. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pick from a list with a PRNG; throws on an empty list (a programming error). */
export function pick<T>(rnd: () => number, items: readonly T[]): T {
  const item = items[Math.floor(rnd() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

/** Weighted pick: items are [value, weight] pairs. */
export function pickWeighted<T>(rnd: () => number, items: readonly (readonly [T, number])[]): T {
  const total = items.reduce((sum, [, w]) => sum + w, 0);
  let r = rnd() * total;
  for (const [value, w] of items) {
    r -= w;
    if (r < 0) return value;
  }
  const last = items[items.length - 1];
  if (last === undefined) throw new Error("pickWeighted from an empty list");
  return last[0];
}

export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
