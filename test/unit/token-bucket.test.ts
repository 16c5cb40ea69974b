/**
 * The per-key token bucket behind X-RateLimit-* and 429, driven by an injected clock.
 */
import { describe, expect, it } from 'vitest';
import { createBuckets } from '../../electron/server/token-bucket.ts';

function clock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms), set: (ms: number) => (t = ms) };
}

describe('token bucket', () => {
  it('lets a burst through, then refuses with a whole-second Retry-After', () => {
    const c = clock();
    const b = createBuckets({ ratePerSecond: 5, burst: 10, now: c.now });
    const results = Array.from({ length: 10 }, () => b.take('k'));
    expect(results.every((r) => r.allowed)).toBe(true);
    expect(results.map((r) => r.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(results.every((r) => r.limit === 10 && r.retryAfter === 0)).toBe(true);
    const refused = b.take('k');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1 });
  });

  it('refills at the configured rate, never above the burst', () => {
    const c = clock();
    const b = createBuckets({ ratePerSecond: 5, burst: 10, now: c.now });
    for (let i = 0; i < 10; i++) b.take('k');
    expect(b.take('k').allowed).toBe(false);
    c.advance(199); // 0.995 of a token
    expect(b.take('k').allowed).toBe(false);
    c.advance(1); // one token after 200 ms at 5/s
    expect(b.take('k')).toMatchObject({ allowed: true, remaining: 0 });
    c.advance(3_600_000);
    expect(b.take('k').remaining).toBe(9); // full (10) minus this request, not 18 000
  });

  it('says when the bucket is full again (Unix seconds) and how long to wait', () => {
    const c = clock(1_700_000_000_000);
    const b = createBuckets({ ratePerSecond: 2, burst: 4, now: c.now });
    for (let i = 0; i < 4; i++) b.take('k');
    const refused = b.take('k');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBe(1); // 1 token at 2/s = 0.5 s, rounded up to whole seconds
    expect(refused.resetAt).toBe(1_700_000_000 + 2); // 4 tokens at 2/s
    const slow = createBuckets({ ratePerSecond: 0.25, burst: 1, now: c.now });
    slow.take('k');
    expect(slow.take('k').retryAfter).toBe(4);
  });

  it('keeps one bucket per key', () => {
    const c = clock();
    const b = createBuckets({ ratePerSecond: 1, burst: 2, now: c.now });
    b.take('a');
    b.take('a');
    expect(b.take('a').allowed).toBe(false);
    expect(b.take('b')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('does not lock a key out when the wall clock is set back', () => {
    const c = clock();
    const b = createBuckets({ ratePerSecond: 20, burst: 40, now: c.now });
    b.take('k');
    c.advance(-3_600_000); // the user corrects the system clock by an hour
    const r = b.take('k');
    expect(r.allowed).toBe(true);
    expect(r.retryAfter).toBe(0);
    expect(r.remaining).toBe(38);
    c.advance(1000);
    expect(b.take('k').remaining).toBe(39); // refills normally afterwards
  });

  it('forgets idle, full buckets first when it holds too many keys, not a busy one', () => {
    const c = clock();
    const b = createBuckets({ ratePerSecond: 1, burst: 2, now: c.now, maxKeys: 2 });
    b.take('busy');
    b.take('busy'); // busy: empty, and the oldest key
    b.take('idle'); // idle: 1 token left
    c.advance(1500); // busy has 1.5 tokens again, idle is full
    b.take('third'); // a third key: idle (full) makes room, busy keeps its state
    expect(b.take('busy').remaining).toBe(0); // 1.5 - 1, not a fresh bucket's 1
  });
});
