// Seeded randomness: every random quantity of the simulator is drawn from a small PRNG seeded with
// a hash of the seed and a key naming that quantity (game id, book, time bucket...), so any instant
// can be computed directly without replaying the ones before it. No Math.random.

import { at } from './numbers';


/** 32-bit hash of a key (FNV-1a over its text, then the murmur3 finaliser for avalanche). */
export function hashKey(parts: readonly (string | number)[]): number {
  const text = parts.join('|');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32 stream with a few distributions. */
export class Rng {
  private state: number;

  constructor(...key: (string | number)[]) {
    this.state = hashKey(key);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next(); // (0, 1]
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  pick<T>(items: readonly T[]): T {
    return at(items, Math.floor(this.next() * items.length));
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [at(out, j), at(out, i)];
    }
    return out;
  }
}
