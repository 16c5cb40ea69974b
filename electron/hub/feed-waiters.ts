/**
 * The feed's long poll: a station asks for changes after its cursor and may wait up to
 * `wait` seconds for some. A waiting request holds no database connection and blocks
 * nothing: it is a promise in a list. One timer, running only while someone waits, asks the
 * change log (one indexed read per account waited on) whether the account moved past the
 * lowest cursor waited on, and wakes the waiters it moved past; the others are woken when a
 * snapshot kind of the ledger (elections, letters, reference lists, stations: not in the change
 * log) has another fingerprint than their cursor carries. A write through this server
 * asks at once (`kick`), and so does one through another server on the same PostgreSQL
 * database (the store's change signal hears it: db/postgres/change-channel.ts); a write by a
 * process that tells nobody (the CLI, a direct write) is seen at the next tick. A waiter whose key was revoked (its station removed, or paired
 * again with a new key) is woken the same way — at once when the revocation went through this
 * server, at the next tick when another process made it — and the route then answers it as a
 * new request with that key would be answered. Closing wakes everyone, so a server stops
 * without waiting for its long polls.
 */
import type { Store } from '../db/store.ts';
import { newestChangeAfter, parseCursor, snapshotPrints } from './feed.ts';

export interface FeedWaiters {
  /**
   * Resolves when the account has a change after `cursor` (a feed's cursor), after `ms`, on
   * abort, on close, or when `keyId` (the key that asks) was revoked.
   */
  wait(
    accountId: string,
    cursor: string,
    ms: number,
    signal?: AbortSignal,
    keyId?: string | null,
  ): Promise<void>;
  /** Looks now (a write just committed). */
  kick(): void;
  /** Wakes every waiter; later waits return at once. */
  close(): void;
  /** How many wait now (tests, the log). */
  readonly waiting: number;
}

interface Waiter {
  accountId: string;
  keyId: string | null;
  afterSeq: number;
  /** The snapshot kinds' fingerprints the cursor carries, joined. */
  prints: string;
  wake: () => void;
}

export function createFeedWaiters(
  store: Store,
  opts: { intervalMs?: number; onError?: (err: unknown) => void } = {},
): FeedWaiters {
  const intervalMs = opts.intervalMs ?? 500;
  const waiters = new Set<Waiter>();
  let timer: NodeJS.Timeout | null = null;
  let looking = false;
  let again = false;
  let closed = false;
  // Every write noted or heard of on this store (another server's, on PostgreSQL) looks now.
  const unsubscribe = store.changes.subscribe(() => lookSoon());

  function schedule(ms: number): void {
    if (closed || waiters.size === 0 || looking) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void look(), ms);
    timer.unref();
  }

  async function look(): Promise<void> {
    timer = null;
    looking = true;
    try {
      const keys = [...new Set([...waiters].map((w) => w.keyId).filter((k) => k !== null))];
      if (keys.length > 0) {
        const revoked = new Set(
          (
            await store.db
              .selectFrom('apiKeys')
              .select('id')
              .where('id', 'in', keys)
              .where('revokedAt', 'is not', null)
              .execute()
          ).map((r) => r.id),
        );
        for (const w of [...waiters]) if (w.keyId !== null && revoked.has(w.keyId)) w.wake();
      }
      const lowest = new Map<string, number>();
      for (const w of waiters)
        lowest.set(w.accountId, Math.min(lowest.get(w.accountId) ?? Infinity, w.afterSeq));
      for (const [accountId, afterSeq] of lowest) {
        const newest = await newestChangeAfter(store.db, accountId, afterSeq);
        if (newest !== null)
          for (const w of [...waiters]) if (w.accountId === accountId && w.afterSeq < newest) w.wake();
        if (![...waiters].some((w) => w.accountId === accountId)) continue;
        const prints = (await snapshotPrints(store.db, accountId)).join('.');
        for (const w of [...waiters]) if (w.accountId === accountId && w.prints !== prints) w.wake();
      }
    } catch (err) {
      // A read that failed (the database busy, closing): wake everyone; their own read says what is wrong.
      opts.onError?.(err);
      for (const w of [...waiters]) w.wake();
    } finally {
      looking = false;
      const soon = again;
      again = false;
      schedule(soon ? 0 : intervalMs);
    }
  }

  function lookSoon(): void {
    if (looking) again = true;
    else schedule(0);
  }

  return {
    wait(accountId, cursor, ms, signal, keyId = null) {
      if (closed || ms <= 0 || signal?.aborted) return Promise.resolve();
      const parsed = parseCursor(cursor);
      return new Promise<void>((resolve) => {
        const w: Waiter = {
          accountId,
          keyId,
          afterSeq: parsed?.seq ?? 0,
          prints: parsed?.prints.join('.') ?? '',
          wake: () => {
            if (!waiters.delete(w)) return;
            clearTimeout(deadline);
            signal?.removeEventListener('abort', w.wake);
            resolve();
          },
        };
        const deadline = setTimeout(w.wake, ms);
        deadline.unref();
        signal?.addEventListener('abort', w.wake, { once: true });
        waiters.add(w);
        lookSoon(); // a change may have come between the station's read and this wait
      });
    },
    kick: lookSoon,
    close() {
      closed = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      for (const w of [...waiters]) w.wake();
    },
    get waiting() {
      return waiters.size;
    },
  };
}
