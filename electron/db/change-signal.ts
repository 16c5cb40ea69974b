/**
 * How an open screen learns that what it shows changed elsewhere: a count of the writes made
 * to this database, each noted with who made it (an API key, or null for this server's own
 * background work: an event station applying its hub's feed, a pull from HQ). A window asks
 * for the count leaving out its own key's writes (`versionFor`), so a volunteer's burst of
 * gifts does not make their own screen read everything again, while a gift a station sends to
 * the hub, or a correction the hub's feed brings to a station, does. In memory only: a window
 * also compares the server's `instance`, which is new at every start, so a restart reads again.
 */
import { randomBytes } from 'node:crypto';

export interface ChangeSignal {
  /** New at every start of this server process. */
  readonly instance: string;
  /** A write was committed, by this key (null: by the server itself, not for any window). */
  note(by: string | null): void;
  /** The writes not made by `keyId`: changes when anyone else wrote. */
  versionFor(keyId: string | null): number;
}

export function createChangeSignal(): ChangeSignal {
  let total = 0;
  const byKey = new Map<string, number>();
  return {
    instance: randomBytes(9).toString('base64url'),
    note(by) {
      total += 1;
      if (by !== null) byKey.set(by, (byKey.get(by) ?? 0) + 1);
    },
    versionFor(keyId) {
      return total - (keyId === null ? 0 : (byKey.get(keyId) ?? 0));
    },
  };
}
