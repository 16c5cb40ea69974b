/**
 * One engine per database: a lease row (`sync_lease`, name 'push'). A process pushes only
 * while it holds an unexpired lease; it renews it in the very transaction that marks an item
 * in flight, so a request only ever leaves under a live lease. The lease outlives a request's
 * timeout by a wide margin (LEASE_MS ≫ request timeout): when a holder dies, the next one
 * takes over only after any request the dead one sent has finished or timed out, and it treats
 * every in-flight item as unknown (reconciles before sending again).
 */
import type { Db, Store } from '../db/store.ts';

export const LEASE_NAME = 'push';
export const LEASE_MS = 30_000;

const iso = (ms: number) => new Date(ms).toISOString();

export interface LeaseGrant {
  /** True when the lease was taken from nobody or from an expired holder (not a renewal). */
  fresh: boolean;
}

/** Takes or renews the lease; null when another live holder has it. */
export async function acquireLease(store: Store, holder: string, nowMs: number, ttlMs = LEASE_MS): Promise<LeaseGrant | null> {
  return store.write(async (trx) => {
    const row = await trx.selectFrom('syncLease').selectAll().where('name', '=', LEASE_NAME).executeTakeFirst();
    const at = iso(nowMs);
    const expires = iso(nowMs + ttlMs);
    if (!row) {
      await trx.insertInto('syncLease').values({ name: LEASE_NAME, holder, acquiredAt: at, renewedAt: at, expiresAt: expires }).execute();
      return { fresh: true };
    }
    if (row.holder === holder) {
      await trx.updateTable('syncLease').set({ renewedAt: at, expiresAt: expires }).where('name', '=', LEASE_NAME).where('holder', '=', holder).execute();
      return { fresh: false };
    }
    if (Date.parse(row.expiresAt) > nowMs) return null;
    // Taken over only if still expired and still the same holder (another taker may have won).
    const r = await trx
      .updateTable('syncLease')
      .set({ holder, acquiredAt: at, renewedAt: at, expiresAt: expires })
      .where('name', '=', LEASE_NAME)
      .where('holder', '=', row.holder)
      .where('expiresAt', '=', row.expiresAt)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1 ? { fresh: true } : null;
  });
}

/**
 * Inside a write transaction: renews the lease if this holder still has it unexpired.
 * False means another process took over: the caller must not send anything.
 */
export async function renewLeaseIn(trx: Db, holder: string, nowMs: number, ttlMs = LEASE_MS): Promise<boolean> {
  const r = await trx
    .updateTable('syncLease')
    .set({ renewedAt: iso(nowMs), expiresAt: iso(nowMs + ttlMs) })
    .where('name', '=', LEASE_NAME)
    .where('holder', '=', holder)
    .where('expiresAt', '>', iso(nowMs))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives the lease up (clean shutdown), so another process need not wait for it to expire. */
export async function releaseLease(store: Store, holder: string): Promise<void> {
  await store.write((trx) => trx.deleteFrom('syncLease').where('name', '=', LEASE_NAME).where('holder', '=', holder).execute());
}

export async function leaseHolder(db: Db): Promise<{ holder: string; expiresAt: string } | null> {
  const row = await db.selectFrom('syncLease').select(['holder', 'expiresAt']).where('name', '=', LEASE_NAME).executeTakeFirst();
  return row ?? null;
}
