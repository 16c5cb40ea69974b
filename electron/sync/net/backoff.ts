/**
 * Exponential backoff with full jitter (AWS architecture blog, "Exponential Backoff And
 * Jitter"): wait a uniformly random time in [0, min(cap, base · 2^attempt)). Spreads retries
 * of many items apart instead of sending them back in lockstep.
 */
export interface BackoffOptions {
  baseMs?: number;
  capMs?: number;
  /** A number in [0, 1), Math.random by default; tests inject a seeded one. */
  random?: () => number;
}

export const DEFAULT_BACKOFF = { baseMs: 1000, capMs: 5 * 60_000 } as const;

/** The delay before retry number `attempt` (0 for the first retry after one failure). */
export function backoffDelay(attempt: number, opts: BackoffOptions = {}): number {
  const base = opts.baseMs ?? DEFAULT_BACKOFF.baseMs;
  const cap = opts.capMs ?? DEFAULT_BACKOFF.capMs;
  const random = opts.random ?? Math.random;
  const n = Number.isFinite(attempt) ? Math.max(0, Math.floor(attempt)) : 0;
  // 2^n overflows to Infinity past ~1023; the cap takes over long before that.
  const ceiling = Math.min(cap, base * 2 ** Math.min(n, 60));
  const r = random();
  const u = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1 - Number.EPSILON) : 0;
  return Math.floor(u * ceiling);
}

/** The ceiling backoffDelay draws under for `attempt` (what a status screen can show as "up to"). */
export function backoffCeiling(attempt: number, opts: Omit<BackoffOptions, 'random'> = {}): number {
  const base = opts.baseMs ?? DEFAULT_BACKOFF.baseMs;
  const cap = opts.capMs ?? DEFAULT_BACKOFF.capMs;
  const n = Number.isFinite(attempt) ? Math.max(0, Math.floor(attempt)) : 0;
  return Math.min(cap, base * 2 ** Math.min(n, 60));
}
