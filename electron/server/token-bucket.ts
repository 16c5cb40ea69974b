/**
 * Per-key token buckets: `rate` tokens a second, up to `burst`. Pure apart from the clock,
 * which is injected so tests can drive it. Kept in this process's memory: the limit of a
 * server on SQLite (one process per database). Servers on PostgreSQL share theirs in the
 * database instead (shared-buckets.ts, the same rule).
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
      return takeResult(opts, b.tokens, allowed, now());
    },
  };
}

/** The answer to a take that left `tokens` in the bucket at `t` (Unix ms). */
export function takeResult(
  opts: { ratePerSecond: number; burst: number },
  tokens: number,
  allowed: boolean,
  t: number,
): TakeResult {
  const resetAt = Math.ceil((t + ((opts.burst - tokens) / opts.ratePerSecond) * 1000) / 1000);
  const retryAfter = allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / opts.ratePerSecond));
  return { allowed, limit: opts.burst, remaining: Math.floor(tokens), resetAt, retryAfter };
}

/**
 * A set of buckets as the rate-limit gate uses it: in this process's memory (createBuckets:
 * SQLite, one server) or in PostgreSQL, shared by every server on the database
 * (shared-buckets.ts).
 */
export interface Buckets {
  take(key: string): TakeResult | Promise<TakeResult>;
}
