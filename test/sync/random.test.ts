/** The seeded generator and the seed list every randomized sync test runs over. */
import { describe, expect, it, vi } from 'vitest';
import { createRng, testSeeds, withSeed } from './random.ts';

describe('createRng', () => {
  it('is deterministic per seed and differs between seeds', () => {
    const a = createRng(123);
    const b = createRng(123);
    const c = createRng(124);
    const xs = Array.from({ length: 50 }, () => a.next());
    expect(Array.from({ length: 50 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 50 }, () => c.next())).not.toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });

  it('int, pick and weighted stay in range and hit every value', () => {
    const r = createRng(9);
    const ints = new Set(Array.from({ length: 500 }, () => r.int(3, 7)));
    expect([...ints].sort()).toEqual([3, 4, 5, 6, 7]);
    const w = Array.from({ length: 4000 }, () => r.weighted({ a: 3, b: 1, never: 0 }));
    expect(w.includes('never')).toBe(false);
    const share = w.filter((k) => k === 'a').length / w.length;
    expect(share).toBeGreaterThan(0.7);
    expect(share).toBeLessThan(0.8);
    expect(() => r.pick([])).toThrow();
  });
});

describe('testSeeds', () => {
  it('the fixed list: 200 in CI, 12 locally, GIFTDESK_SEEDS to choose', () => {
    expect(testSeeds({ CI: '1' })).toHaveLength(200);
    expect(testSeeds({})).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(testSeeds({ GIFTDESK_SEEDS: '300' })).toHaveLength(300);
    expect(testSeeds({ CI: '1' }).slice(0, 3)).toEqual([1, 2, 3]);
  });

  it('GIFTDESK_SEED=n replays exactly that seed', () => {
    expect(testSeeds({ GIFTDESK_SEED: '137', CI: '1' })).toEqual([137]);
    expect(() => testSeeds({ GIFTDESK_SEED: 'x' })).toThrow(/whole number/);
  });

  it('a failure names its seed and the command that replays it', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(
      withSeed(42, 'test/sync/x.test.ts', async () => {
        throw new Error('duplicate gift');
      }),
    ).rejects.toThrow(
      '[seed 42; replay: GIFTDESK_SEED=42 npx vitest run test/sync/x.test.ts] duplicate gift',
    );
    expect(printed.mock.calls.flat().join(' ')).toContain('seed 42 FAILED');
    printed.mockRestore();
  });
});
