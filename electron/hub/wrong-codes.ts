/**
 * Guessing pairing codes is slow: a hub refuses more than a handful of wrong codes a minute.
 * Refused codes (wrong, used or expired) are counted over the last minute; once there were
 * `max` of them, every join is answered 429 before its code is even looked at, until the
 * oldest falls out of the minute. Kept in memory per hub process (a restart forgets it; a
 * guess still has 31^8 codes against it). The clock is injected for tests.
 */
export interface WrongCodeLimit {
  /** Seconds to wait before a join may be tried, or 0 when one may be tried now. */
  retryAfter(): number;
  /** Counts a refused code. */
  refused(): void;
}

export function createWrongCodeLimit(
  opts: { max?: number; windowMs?: number; now?: () => number } = {},
): WrongCodeLimit {
  const max = opts.max ?? 5;
  const windowMs = opts.windowMs ?? 60_000;
  const now = opts.now ?? Date.now;
  let times: number[] = [];
  const recent = (): number[] => {
    const t = now();
    times = times.filter((x) => x > t - windowMs && x <= t);
    return times;
  };
  return {
    retryAfter() {
      const r = recent();
      if (r.length < max) return 0;
      return Math.max(1, Math.ceil((r[r.length - max]! + windowMs - now()) / 1000));
    },
    refused() {
      recent();
      times.push(now());
    },
  };
}
