/**
 * Guessing pairing codes is slow, and one guesser cannot stop the others pairing. Refused codes
 * (wrong, used or expired) are counted over the last minute by the address the join came from:
 * once an address sent `perAddress` of them (5), its joins are answered 429 before their code
 * is even looked at, until its oldest falls out of the minute; another address's right code
 * still pairs. A bound for the whole hub (`whole`, 50 a minute from any addresses) stops a
 * guesser who spreads over many addresses. Kept in the database (`hub_wrong_codes`), so a
 * restart of the hub forgets nothing; rows older than the minute are deleted as new ones come.
 * The clock is injected for tests.
 */
import type { Store } from '../db/store.ts';

/** Why joins wait: too many wrong codes from this address, or at the whole hub. */
export interface CodeWait {
  seconds: number;
  from: 'address' | 'hub';
}

export interface WrongCodeLimit {
  /** How long a join from `address` must wait, or null when one may be tried now. */
  retryAfter(address: string): Promise<CodeWait | null>;
  /** Counts a refused code from `address`. */
  refused(address: string): Promise<void>;
}

export const WRONG_CODES_PER_ADDRESS = 5;
export const WRONG_CODES_AT_THE_HUB = 50;

export function createWrongCodeLimit(
  store: Store,
  opts: { perAddress?: number; whole?: number; windowMs?: number; now?: () => number } = {},
): WrongCodeLimit {
  const perAddress = opts.perAddress ?? WRONG_CODES_PER_ADDRESS;
  const whole = opts.whole ?? WRONG_CODES_AT_THE_HUB;
  const windowMs = opts.windowMs ?? 60_000;
  const now = opts.now ?? Date.now;
  const iso = (ms: number) => new Date(ms).toISOString();

  /** Seconds until the `max`-th newest of `times` (newest first) leaves the window; 0 when fewer. */
  const waitFor = (times: string[], max: number, t: number): number =>
    times.length < max ? 0 : Math.max(1, Math.ceil((Date.parse(times[max - 1]!) + windowMs - t) / 1000));

  return {
    async retryAfter(address) {
      const t = now();
      const since = iso(t - windowMs);
      const recent = (forAddress: boolean, max: number) =>
        store.db
          .selectFrom('hubWrongCodes')
          .select('at')
          .$if(forAddress, (q) => q.where('address', '=', address))
          .where('at', '>', since)
          .where('at', '<=', iso(t))
          .orderBy('at', 'desc')
          .limit(max)
          .execute()
          .then((rows) => rows.map((r) => r.at));
      const mine = waitFor(await recent(true, perAddress), perAddress, t);
      if (mine > 0) return { seconds: mine, from: 'address' };
      const all = waitFor(await recent(false, whole), whole, t);
      return all > 0 ? { seconds: all, from: 'hub' } : null;
    },
    async refused(address) {
      const t = now();
      await store.write(async (trx) => {
        await trx
          .deleteFrom('hubWrongCodes')
          .where('at', '<=', iso(t - windowMs))
          .execute();
        await trx
          .insertInto('hubWrongCodes')
          .values({ address, at: iso(t) })
          .execute();
      });
    },
  };
}
