/**
 * Per-key token buckets: `rate` tokens a second, up to `burst`. Pure apart from the clock,
 * which is injected so tests can drive it.
 */
export interface BucketOptions {
  ratePerSecond: number;
  burst: number;
  now?: () => number;
  /** Buckets idle (and full) are forgotten past this many keys. */
  maxKeys?: number;
}

export interface TakeResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the bucket is full again. */
  resetAt: number;
  /** Whole seconds to wait before the next request can pass (0 when allowed). */
  retryAfter: number;
}

export function createBuckets(opts: BucketOptions) {
  const now = opts.now ?? Date.now;
  const maxKeys = opts.maxKeys ?? 10_000;
  const buckets = new Map<string, { tokens: number; at: number }>();

  function refill(key: string): { tokens: number; at: number } {
    const t = now();
    const b = buckets.get(key) ?? { tokens: opts.burst, at: t };
    // A wall clock set back must not drain the buckets (elapsed time is never negative).
    b.tokens = Math.min(opts.burst, b.tokens + (Math.max(0, t - b.at) / 1000) * opts.ratePerSecond);
    b.at = t;
    if (!buckets.has(key)) {
      if (buckets.size >= maxKeys) {
        const isFull = (v: { tokens: number; at: number }) =>
          v.tokens + (Math.max(0, t - v.at) / 1000) * opts.ratePerSecond >= opts.burst;
        for (const [k, v] of buckets) if (isFull(v)) buckets.delete(k);
        if (buckets.size >= maxKeys) buckets.delete(buckets.keys().next().value as string);
      }
      buckets.set(key, b);
    }
    return b;
  }

  return {
    take(key: string): TakeResult {
      const b = refill(key);
      const allowed = b.tokens >= 1;
      if (allowed) b.tokens -= 1;
      const t = now();
      const resetAt = Math.ceil((t + ((opts.burst - b.tokens) / opts.ratePerSecond) * 1000) / 1000);
      const retryAfter = allowed ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / opts.ratePerSecond));
      return { allowed, limit: opts.burst, remaining: Math.floor(b.tokens), resetAt, retryAfter };
    },
  };
}

export type Buckets = ReturnType<typeof createBuckets>;
