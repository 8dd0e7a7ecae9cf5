/**
 * The generator's randomness: a small seeded PRNG (mulberry32) per purpose, seeded from a hash of the run's
 * seed and what it is for (a town, a suburb...). Every part of the layout draws from its own stream, so the
 * same seed gives the same rows whatever else changes around them.
 */

/** FNV-1a over the text, then mixed: a 32-bit seed. */
export function hashSeed(...parts: (string | number)[]): number {
  let hash = 0x811c9dc5;
  const text = parts.join('\u0001');
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static of(...parts: (string | number)[]): Random {
    return new Random(hashSeed(...parts));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight: [[item, weight], ...]. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let at = this.next() * total;
    for (const [item, weight] of items) {
      at -= weight;
      if (at < 0) return item;
    }
    return items[items.length - 1][0];
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffled<T>(items: readonly T[]): T[] {
    const copy = items.slice();
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  }
}

/**
 * Draws names without repeating until all were used, then reshuffles: names repeat across a big town only
 * after the whole list went round once.
 */
export class Deck<T> {
  private order: T[] = [];
  private at = 0;
  private round = 0;

  constructor(
    private readonly items: readonly T[],
    private readonly random: Random,
  ) {}

  /** Moves these to the top of the deck (e.g. the main street names of a town's centre). */
  putOnTop(first: readonly T[]): void {
    this.fill();
    const rest = this.order.slice(this.at).filter((item) => !first.includes(item));
    this.order = [...first, ...rest];
    this.at = 0;
  }

  draw(): T {
    this.fill();
    return this.order[this.at++];
  }

  /** How many times the deck went round. */
  get rounds(): number {
    return this.round;
  }

  private fill(): void {
    if (this.at < this.order.length) return;
    this.order = this.random.shuffled(this.items);
    this.at = 0;
    this.round += 1;
  }
}
