/** Exponential backoff with full jitter, capped: retries spread out and never wait past the cap. */
import { describe, expect, it } from 'vitest';
import { backoffCeiling, backoffDelay } from '../../electron/sync/net/backoff.ts';
import { createRng } from './random.ts';

describe('backoffDelay', () => {
  it('draws in [0, min(cap, base·2^attempt)) from the injected random', () => {
    expect(backoffDelay(0, { random: () => 0 })).toBe(0);
    expect(backoffDelay(0, { random: () => 0.5 })).toBe(500);
    expect(backoffDelay(1, { random: () => 0.5 })).toBe(1000);
    expect(backoffDelay(3, { random: () => 0.5 })).toBe(4000);
    expect(backoffDelay(3, { random: () => 0.999999 })).toBeLessThan(8000);
    expect(backoffDelay(2, { baseMs: 100, random: () => 0.5 })).toBe(200);
  });

  it('is capped at 5 minutes by default, whatever the attempt', () => {
    for (const attempt of [9, 10, 20, 100, 5000]) {
      expect(backoffCeiling(attempt)).toBe(300_000);
      expect(backoffDelay(attempt, { random: () => 0.999999 })).toBeLessThan(300_000);
      expect(backoffDelay(attempt, { random: () => 0.5 })).toBe(150_000);
    }
    expect(backoffDelay(10, { capMs: 2000, random: () => 0.5 })).toBe(1000);
  });

  it('grows: the mean delay roughly doubles per attempt until the cap', () => {
    const rng = createRng(42);
    const mean = (attempt: number) => {
      let sum = 0;
      for (let i = 0; i < 4000; i++) sum += backoffDelay(attempt, { random: rng.next });
      return sum / 4000;
    };
    const m0 = mean(0);
    const m4 = mean(4);
    expect(m0).toBeGreaterThan(400);
    expect(m0).toBeLessThan(600);
    expect(m4 / m0).toBeGreaterThan(12);
    expect(m4 / m0).toBeLessThan(20);
  });

  it('survives a bad random source and a bad attempt number', () => {
    expect(backoffDelay(2, { random: () => Number.NaN })).toBe(0);
    expect(backoffDelay(2, { random: () => 1 })).toBeLessThan(4000);
    expect(backoffDelay(-3, { random: () => 0.5 })).toBe(500);
    expect(backoffDelay(Number.NaN, { random: () => 0.5 })).toBe(500);
  });
});
