/**
 * The per-remote pacer on an injected clock: requests leave at the configured rate, a 429
 * stops everyone until Retry-After and halves the rate, which then grows back step by step,
 * and the remote's own rate-limit headers are never exceeded.
 */
import { describe, expect, it } from 'vitest';
import {
  createPacer,
  policyRate,
  remoteQuota,
  type HeaderGetter,
  type PacerOptions,
} from '../../electron/sync/net/pacer.ts';
import { maxInAnyWindow } from './fault-proxy.ts';
import { manualClock, type ManualClock } from './manual-clock.ts';

function headers(h: Record<string, string>): HeaderGetter {
  return new Headers(h);
}

function setup(opts: PacerOptions = {}) {
  const clock = manualClock();
  const pacer = createPacer({ clock, ...opts });
  const t0 = clock.now();
  const sent: number[] = [];
  /** Queue n requests; each records when it was let through (ms since t0). */
  const queue = (n: number) => {
    const ps: Promise<void>[] = [];
    for (let i = 0; i < n; i++) ps.push(pacer.acquire().then(() => void sent.push(clock.now() - t0)));
    return ps;
  };
  return { clock, pacer, t0, sent, queue };
}

async function runFor(clock: ManualClock, ms: number, step = 50) {
  for (let t = 0; t < ms; t += step) await clock.advance(step);
}

describe('Pacer: token bucket', () => {
  it('lets requests out at the configured rate, 5/s by default, one at a time', async () => {
    const { clock, sent, queue } = setup();
    queue(11);
    await runFor(clock, 2100);
    expect(sent).toEqual([0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000]);
    expect(maxInAnyWindow(sent, 1000)).toBe(5);
  });

  it('after an idle spell at most `burst` go back to back', async () => {
    const { clock, sent, queue } = setup({ ratePerSecond: 10, burst: 2 });
    await clock.advance(5000);
    queue(6);
    await runFor(clock, 1000, 10);
    expect(sent.slice(0, 3).map((t) => t - 5000)).toEqual([0, 0, 100]);
    // never more than rate + burst in any second
    expect(maxInAnyWindow(sent, 1000)).toBeLessThanOrEqual(12);
  });

  it('a configured rate of 2/s is 2/s', async () => {
    const { clock, sent, queue } = setup({ ratePerSecond: 2 });
    queue(5);
    await runFor(clock, 2100);
    expect(sent).toEqual([0, 500, 1000, 1500, 2000]);
  });

  it('a waiter whose signal aborts leaves the queue; the others go on', async () => {
    const { clock, pacer, sent, queue } = setup();
    queue(1);
    const ac = new AbortController();
    const cancelled = pacer.acquire(ac.signal);
    const [later] = queue(1);
    ac.abort(new Error('shutting down'));
    await expect(cancelled).rejects.toThrow('shutting down');
    await runFor(clock, 500);
    await later;
    expect(sent).toEqual([0, 200]);
  });

  it('close() rejects every waiter', async () => {
    const { pacer, queue } = setup();
    queue(1);
    const waiting = pacer.acquire();
    pacer.close(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    await expect(pacer.acquire()).rejects.toThrow('closed');
  });
});

describe('Pacer: 429', () => {
  it('pauses the whole queue until Retry-After, then halves the rate and recovers it additively', async () => {
    const { clock, pacer, sent, queue } = setup({ ratePerSecond: 4 });
    queue(40);
    await clock.advance(10);
    expect(sent).toEqual([0]);
    pacer.observe(429, headers({}), 3000); // the first request's answer
    expect(pacer.pausedUntil).toBe(clock.now() + 3000);
    expect(pacer.isHeld()).toBe(true);
    await runFor(clock, 2990, 10);
    expect(sent).toEqual([0]); // nothing left during the pause
    expect(pacer.currentRate).toBe(2);
    await runFor(clock, 1100, 10);
    expect(pacer.pausedUntil).toBeNull();
    // after the pause: half the rate (2/s → every 500 ms)
    const after = sent.slice(1);
    expect(after[0]).toBe(3010 + 500);
    await runFor(clock, 12_000, 10);
    const gaps = sent
      .slice(1)
      .map((t, i, a) => (i === 0 ? 0 : t - a[i - 1]!))
      .slice(1);
    expect(gaps[0]).toBe(500);
    expect(Math.min(...gaps)).toBe(250); // back to 4/s …
    // … step by step: the gaps never grow while recovering, and pass through rates in between
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]!).toBeLessThanOrEqual(gaps[i - 1]! + 1);
    expect(gaps.some((g) => g > 250 && g < 500)).toBe(true);
    expect(pacer.currentRate).toBe(4);
  });

  it('a request that got its token just before the 429 arrived is held (isHeld) and waits for the pause', async () => {
    const { clock, pacer } = setup();
    await pacer.acquire(); // request A is let through...
    expect(pacer.isHeld()).toBe(false);
    pacer.observe(429, headers({ 'retry-after': '2' }), 2000); // ...and before it leaves another answer is a 429
    expect(pacer.isHeld()).toBe(true);
    pacer.release(); // A does not leave; it asks again
    let through = false;
    void pacer.acquire().then(() => (through = true));
    await clock.advance(1990);
    expect(through).toBe(false);
    await clock.advance(600);
    expect(through).toBe(true);
  });

  it('the other 429s of the same burst extend the pause but halve the rate only once', async () => {
    const { clock, pacer } = setup({ ratePerSecond: 8 });
    pacer.observe(429, headers({}), 1000);
    pacer.observe(429, headers({}), 1000);
    await clock.advance(200);
    pacer.observe(429, headers({}), 2000);
    expect(pacer.currentRate).toBe(4);
    expect(pacer.pausedUntil).toBe(clock.now() + 2000);
    // a 429 after the pause is a new congestion event: halves again
    await clock.advance(2100);
    pacer.observe(429, headers({}), 1000);
    expect(pacer.currentRate).toBe(2);
  });

  it('a 429 with no hint pauses 1 s, then 2 s, 4 s while they keep coming; any other answer resets that', async () => {
    const { clock, pacer } = setup();
    pacer.observe(429, null, null);
    expect(pacer.pausedUntil! - clock.now()).toBe(1000);
    await clock.advance(1000);
    pacer.observe(429, null, null);
    expect(pacer.pausedUntil! - clock.now()).toBe(2000);
    await clock.advance(2000);
    pacer.observe(429, null, null);
    expect(pacer.pausedUntil! - clock.now()).toBe(4000);
    await clock.advance(4000);
    pacer.observe(200, null, null);
    pacer.observe(429, null, null);
    expect(pacer.pausedUntil! - clock.now()).toBe(1000);
  });

  it('the rate never drops below its floor', async () => {
    const { clock, pacer } = setup({ ratePerSecond: 5, minRate: 1 });
    for (let i = 0; i < 10; i++) {
      pacer.observe(429, null, 100);
      await clock.advance(150);
    }
    expect(pacer.currentRate).toBeGreaterThanOrEqual(1);
    expect(pacer.status().rateLimited).toBe(10);
  });

  it('a 503 with Retry-After pauses the queue without lowering the rate', async () => {
    const { clock, pacer } = setup();
    pacer.observe(503, headers({ 'retry-after': '5' }), 5000);
    expect(pacer.pausedUntil).toBe(clock.now() + 5000);
    expect(pacer.currentRate).toBe(5);
  });
});

describe('Pacer: the remote’s rate-limit headers', () => {
  it('X-RateLimit-Remaining: 0 holds every request until X-RateLimit-Reset (Unix seconds)', async () => {
    const { clock, pacer, sent, queue, t0 } = setup({ ratePerSecond: 50 });
    const resetAt = Math.ceil((clock.now() + 2500) / 1000);
    queue(3);
    await clock.advance(1);
    pacer.observe(
      200,
      headers({
        'x-ratelimit-limit': '10',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(resetAt),
      }),
      null,
    );
    await runFor(clock, 4000, 10);
    expect(sent[0]).toBe(0);
    expect(sent).toHaveLength(3);
    expect(sent[1]).toBeGreaterThanOrEqual(resetAt * 1000 - t0); // not before the reset
    expect(sent[1]).toBeLessThan(resetAt * 1000 - t0 + 50);
  });

  it('remaining 0 with a reset within the second (a bucket refilling, rounded up) eases the pace a little, never waits out the reset; tokens again → full pace', async () => {
    const { clock, pacer, sent, queue, t0 } = setup({ ratePerSecond: 5 });
    await clock.advance(10);
    const resetAt = Math.ceil((clock.now() + 1200) / 1000); // up to 2 s ahead: whole seconds, rounded up
    queue(4);
    await clock.advance(1);
    pacer.observe(
      200,
      headers({
        'x-ratelimit-limit': '2',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(resetAt),
      }),
      null,
    );
    await runFor(clock, 450, 1);
    expect(sent).toHaveLength(3);
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(210); // 95% of 5/s: one every 210.5 ms
    expect(sent[1]! - sent[0]!).toBeLessThan(215);
    expect(sent[1]).toBeLessThan(resetAt * 1000 - t0); // not waiting out the rounded-up reset
    pacer.observe(
      200,
      headers({
        'x-ratelimit-limit': '2',
        'x-ratelimit-remaining': '1',
        'x-ratelimit-reset': String(resetAt),
      }),
      null,
    );
    await runFor(clock, 400, 1);
    expect(sent).toHaveLength(4);
    expect(sent[3]! - sent[2]!).toBeLessThanOrEqual(205); // full pace again
    expect(pacer.currentRate).toBe(5);
  });

  it('remaining above zero does not hold anything', async () => {
    const { clock, pacer, sent, queue } = setup();
    queue(3);
    await clock.advance(1);
    pacer.observe(
      200,
      headers({
        'x-ratelimit-limit': '40',
        'x-ratelimit-remaining': '12',
        'x-ratelimit-reset': String(Math.ceil(clock.now() / 1000) + 3),
      }),
      null,
    );
    await runFor(clock, 500, 10);
    expect(sent).toEqual([0, 200, 400]);
  });

  it('RateLimit-Policy lowers the rate to what the remote allows, never above the configured one', async () => {
    const { clock, pacer, sent, queue } = setup({ ratePerSecond: 5 });
    pacer.observe(200, headers({ 'ratelimit-policy': '"default";q=2;w=1' }), null);
    expect(pacer.currentRate).toBe(2);
    queue(3);
    await runFor(clock, 1100, 10);
    expect(sent.map((t) => t - sent[0]!)).toEqual([0, 500, 1000]);
    pacer.observe(200, headers({ 'ratelimit-policy': '100;w=1' }), null);
    expect(pacer.currentRate).toBe(5);
  });

  it('an IETF RateLimit header with r=0 holds until t seconds have passed', async () => {
    const { clock, pacer } = setup();
    pacer.observe(200, headers({ ratelimit: '"default";r=0;t=3' }), null);
    expect(pacer.pausedUntil).toBe(clock.now() + 3000);
    await clock.advance(3000);
    expect(pacer.isHeld()).toBe(false);
  });

  it.each<[string, Record<string, string>, { remaining: number; resetInMs: number | null } | null]>([
    [
      'X-RateLimit with Unix reset',
      { 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '1795536005' },
      { remaining: 3, resetInMs: 5000 },
    ],
    [
      'X-RateLimit with delta reset',
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '7' },
      { remaining: 0, resetInMs: 7000 },
    ],
    [
      'draft 00–06 separate headers',
      { 'ratelimit-remaining': '4', 'ratelimit-reset': '2' },
      { remaining: 4, resetInMs: 2000 },
    ],
    [
      'draft 07 one header',
      { ratelimit: 'limit=10, remaining=1, reset=4' },
      { remaining: 1, resetInMs: 4000 },
    ],
    [
      'draft 08 two policies: the tighter wins',
      { ratelimit: '"burst";r=5;t=1, "daily";r=0;t=60' },
      { remaining: 0, resetInMs: 60_000 },
    ],
    ['remaining without a reset', { 'x-ratelimit-remaining': '0' }, { remaining: 0, resetInMs: null }],
    ['nothing', {}, null],
    ['junk', { 'x-ratelimit-remaining': 'lots' }, null],
  ])('remoteQuota: %s', (_name, h, want) => {
    const now = 1795536000_000;
    const q = remoteQuota(headers(h), now);
    if (want === null) expect(q).toBeNull();
    else
      expect(q).toEqual({
        remaining: want.remaining,
        resetAt: want.resetInMs === null ? null : now + want.resetInMs,
      });
  });

  it.each<[string, number | null]>([
    ['10;w=1', 10],
    ['100;w=60', 100 / 60],
    ['10;w=1, 1000;w=3600', 1000 / 3600],
    ['"default";q=5;w=1', 5],
    ['"a";q=50;w=10, "b";q=2;w=1', 2],
    ['10', null],
    ['', null],
  ])('policyRate(%s)', (v, want) => {
    expect(policyRate(v)).toBe(want);
  });
});
