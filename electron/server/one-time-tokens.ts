/**
 * One-time tokens for opening the app in a browser (the way notebook servers do it): the
 * server prints a URL carrying a token; the page trades it once for an API session. Only a
 * hash of each token is kept; a token works once and expires; presented tokens are compared
 * with every live one in constant time. Pure apart from the clock and the random source.
 * In this process's memory: a restart ends the printed links.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PREFIX = 'gdt_';
/** An event day: a link printed in the morning still opens the app in the evening. */
export const DEFAULT_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * What the browser-session exchange needs of one-time tokens: kept in this process's memory
 * (createOneTimeTokens: one server) or in PostgreSQL for every server on the database
 * (stored-one-time-tokens.ts).
 */
export interface AppLinkTokens {
  /** A fresh token (shown once; only its hash is kept). */
  issue(): string | Promise<string>;
  /** True exactly once for a live token; false for a used, expired or made-up one. */
  redeem(token: string): boolean | Promise<boolean>;
}

export interface OneTimeTokens extends AppLinkTokens {
  /** A fresh token (shown once; only its hash is kept). */
  issue(): string;
  /** True exactly once for a live token; false for a used, expired or made-up one. */
  redeem(token: string): boolean;
  /** How many tokens are live (for tests and logs; never the tokens themselves). */
  live(): number;
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export function createOneTimeTokens(opts: { ttlMs?: number; now?: () => number } = {}): OneTimeTokens {
  const ttl = opts.ttlMs ?? DEFAULT_TOKEN_TTL_MS;
  const now = opts.now ?? Date.now;
  const live = new Map<string, { hash: Buffer; expiresAt: number }>();
  const sweep = () => {
    const t = now();
    for (const [k, v] of live) if (v.expiresAt <= t) live.delete(k);
  };
  return {
    issue() {
      sweep();
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const hash = digest(token);
      live.set(hash.toString('hex'), { hash, expiresAt: now() + ttl });
      return token;
    },
    redeem(token) {
      sweep();
      const presented = digest(token);
      let found: string | null = null;
      // Every live hash is compared, whatever matches: the time taken says nothing about which.
      for (const [k, v] of live) if (timingSafeEqual(v.hash, presented) && found === null) found = k;
      if (found === null) return false;
      live.delete(found);
      return true;
    },
    live() {
      sweep();
      return live.size;
    },
  };
}
