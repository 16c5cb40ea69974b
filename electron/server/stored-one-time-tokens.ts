/**
 * The app's one-time links (one-time-tokens.ts) kept in PostgreSQL, for HQ servers sharing one
 * database behind a load balancer: a link printed by one server opens the app on whichever
 * server the browser reaches, and only once across all of them. Only the SHA-256 of a token is
 * stored (table app_links); redeeming is one DELETE of the live row by its hash, so of two
 * servers given the same link at once exactly one deletes it. A token is 32 random bytes: its
 * hash cannot be guessed, and looking it up by an index tells a timing observer nothing useful.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db, Store } from '../db/store.ts';
import {
  type AppLinkTokens,
  DEFAULT_TOKEN_TTL_MS,
  TOKEN_PREFIX,
  createOneTimeTokens,
} from './one-time-tokens.ts';

const digest = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

export function createStoredOneTimeTokens(
  db: Db,
  opts: { ttlMs?: number; now?: () => number } = {},
): AppLinkTokens {
  const ttl = opts.ttlMs ?? DEFAULT_TOKEN_TTL_MS;
  const now = opts.now ?? Date.now;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    async issue() {
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const t = now();
      await db.deleteFrom('appLinks').where('expiresAt', '<=', iso(t)).execute();
      await db
        .insertInto('appLinks')
        .values({ tokenHash: digest(token), expiresAt: iso(t + ttl) })
        .execute();
      return token;
    },
    async redeem(token) {
      const r = await db
        .deleteFrom('appLinks')
        .where('tokenHash', '=', digest(token))
        .where('expiresAt', '>', iso(now()))
        .executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
  };
}

/**
 * The app links of a server over `store`: in the database on PostgreSQL (any server of it opens
 * them), in this process's memory on SQLite (one server; a restart ends them, as it always did).
 */
export function appLinkTokens(store: Store): AppLinkTokens {
  return store.engine === 'postgres' ? createStoredOneTimeTokens(store.db) : createOneTimeTokens();
}
