/**
 * Seeded randomness for the sync suites. Every randomized test takes its seeds from
 * `testSeeds()`: a fixed list (GIFTDESK_SEEDS of them, 200 by default in CI, 12 locally),
 * or exactly one with GIFTDESK_SEED=n to replay a failure. A failing seed is printed by
 * `withSeed` together with the command that replays it.
 */

/** sfc32: a small, fast, well-distributed 32-bit generator; state from splitmix32 of the seed. */
export interface Rng {
  /** [0, 1) */
  next(): number;
  /** integer in [lo, hi] */
  int(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A weighted pick: `{a: 3, b: 1}` gives "a" three times as often. */
  weighted<K extends string>(weights: Record<K, number>): K;
  shuffle<T>(items: T[]): T[];
  readonly seed: number;
}

export function createRng(seed: number): Rng {
  let s = seed >>> 0;
  const splitmix = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const rng: Rng = {
    seed,
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    weighted(weights) {
      const entries = Object.entries(weights) as [keyof typeof weights, number][];
      const total = entries.reduce((n, [, w]) => n + w, 0);
      let r = next() * total;
      for (const [k, w] of entries) {
        r -= w;
        if (r < 0) return k;
      }
      return entries[entries.length - 1]![0];
    },
    shuffle(items) {
      for (let i = items.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [items[i], items[j]] = [items[j]!, items[i]!];
      }
      return items;
    },
  };
  return rng;
}

/** The fixed seed list: 1…N, so a seed named in a failure is the same seed everywhere. */
export const FIXED_SEEDS: readonly number[] = Array.from({ length: 1000 }, (_, i) => i + 1);

export function seedCount(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.GIFTDESK_SEEDS);
  if (Number.isInteger(n) && n > 0) return Math.min(n, FIXED_SEEDS.length);
  return env.CI ? 200 : 12;
}

/** The seeds a randomized test runs: GIFTDESK_SEED=n alone, else the first seedCount() fixed ones. */
export function testSeeds(env: NodeJS.ProcessEnv = process.env): number[] {
  const one = env.GIFTDESK_SEED;
  if (one !== undefined && one !== '') {
    const n = Number(one);
    if (!Number.isInteger(n) || n < 0) throw new Error(`GIFTDESK_SEED must be a whole number (got ${one})`);
    return [n];
  }
  return FIXED_SEEDS.slice(0, seedCount(env));
}

/** Runs `fn(rng)`; on failure the error says which seed and how to replay it alone. */
export async function withSeed<T>(seed: number, testFile: string, fn: (rng: Rng) => Promise<T>): Promise<T> {
  try {
    return await fn(createRng(seed));
  } catch (err) {
    const replay = `GIFTDESK_SEED=${seed} npx vitest run ${testFile}`;
    console.error(`\n*** seed ${seed} FAILED — replay: ${replay}\n`);
    if (err instanceof Error) {
      err.message = `[seed ${seed}; replay: ${replay}] ${err.message}`;
      throw err;
    }
    throw new Error(`[seed ${seed}; replay: ${replay}] ${String(err)}`);
  }
}
