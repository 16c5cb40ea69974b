/**
 * How an open screen learns that what it shows changed elsewhere: a count of the writes made
 * to this database, each noted with who made it (an API key, or null for this server's own
 * background work: an event station applying its hub's feed, a pull from HQ). A window asks
 * for the count leaving out its own key's writes (`versionFor`), so a volunteer's burst of
 * gifts does not make their own screen read everything again, while a gift a station sends to
 * the hub, or a correction the hub's feed brings to a station, does. In memory only: a window
 * also compares the server's `instance`, which is new at every start, so a restart reads again.
 *
 * Several servers on one PostgreSQL database: each write noted here is also published
 * (`publish`, a NOTIFY: postgres/change-channel.ts), and a write another server published is
 * `heard` here, counted as its key's. Whoever subscribed (the hub feed's long-poll waiters)
 * is called at every write, noted or heard, so a long poll on one server is woken by a write
 * through another one.
 */
import { randomBytes } from 'node:crypto';

export interface ChangeSignal {
  /** New at every start of this server process. */
  readonly instance: string;
  /** A write was committed, by this key (null: by the server itself, not for any window). */
  note(by: string | null): void;
  /**
   * Another server on the same database committed a write, by this key (null: unknown, e.g.
   * the notifications were missed while the connection was down: every window reads again).
   */
  heard(by: string | null): void;
  /** The writes not made by `keyId`: changes when anyone else wrote. */
  versionFor(keyId: string | null): number;
  /** Calls `listener` after every write noted or heard; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export function createChangeSignal(
  opts: {
    /** Tells the other servers on the database (PostgreSQL); never throws. */
    publish?: (note: { from: string; by: string | null }) => void;
  } = {},
): ChangeSignal {
  let total = 0;
  const byKey = new Map<string, number>();
  const listeners = new Set<() => void>();
  const instance = randomBytes(9).toString('base64url');
  function count(by: string | null): void {
    total += 1;
    if (by !== null) byKey.set(by, (byKey.get(by) ?? 0) + 1);
    for (const l of [...listeners]) l();
  }
  return {
    instance,
    note(by) {
      count(by);
      opts.publish?.({ from: instance, by });
    },
    heard: count,
    versionFor(keyId) {
      return total - (keyId === null ? 0 : (byKey.get(keyId) ?? 0));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
