import { describe, expect, it } from 'vitest';
import { createOneTimeTokens, TOKEN_PREFIX } from '../../electron/server/one-time-tokens.ts';

describe('one-time tokens for the browser link', () => {
  it('a token works once', () => {
    const tokens = createOneTimeTokens();
    const t = tokens.issue();
    expect(t.startsWith(TOKEN_PREFIX)).toBe(true);
    expect(tokens.redeem(t)).toBe(true);
    expect(tokens.redeem(t)).toBe(false);
  });

  it('tokens are unguessable and independent: using one leaves the others working', () => {
    const tokens = createOneTimeTokens();
    const a = tokens.issue();
    const b = tokens.issue();
    expect(a).not.toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(TOKEN_PREFIX.length + 43); // 256 random bits
    expect(tokens.redeem(b)).toBe(true);
    expect(tokens.redeem(a)).toBe(true);
  });

  it('refuses made-up, altered and empty tokens', () => {
    const tokens = createOneTimeTokens();
    const t = tokens.issue();
    expect(tokens.redeem('')).toBe(false);
    expect(tokens.redeem(`${t}x`)).toBe(false);
    expect(tokens.redeem(t.slice(0, -1))).toBe(false);
    expect(tokens.redeem(`${TOKEN_PREFIX}${'A'.repeat(43)}`)).toBe(false);
    expect(tokens.redeem(t)).toBe(true); // the failed tries did not spend it
  });

  it('a token expires after its time to live', () => {
    let now = 1_000_000;
    const tokens = createOneTimeTokens({ ttlMs: 60_000, now: () => now });
    const t = tokens.issue();
    const u = tokens.issue();
    now += 59_999;
    expect(tokens.redeem(u)).toBe(true);
    now += 1;
    expect(tokens.redeem(t)).toBe(false);
    expect(tokens.live()).toBe(0);
  });
});
