/**
 * A station's remote: its event hub. Saved once at join (kind 'hub', the hub's address, the
 * station's own key with its secret sealed like an HQ's, the hub's account id, the pinned
 * certificate fingerprint, the station's id and name at the hub), then moved along by the
 * feed (the cursor) and stopped by the hub (revoked). A station has this one remote only.
 */
import type { Db } from '../../db/store.ts';

/** Every request of this station to its hub runs at most this many per second. */
export const HUB_RATE = 20;
/** A hub remote's scheduled pass (the scheduler starts one at once after a write anyway). */
export const HUB_SCHEDULE_SECONDS = 5;

export interface HubRemoteInput {
  accountId: string;
  baseUrl: string;
  keyId: string;
  /** The station key's secret, sealed (secret-box.ts). */
  secretSealed: string;
  fingerprint: string;
  stationId: string;
  stationName: string;
}

/** Writes the station's remote in the caller's transaction (join). */
export async function insertHubRemote(trx: Db, input: HubRemoteInput, at: string): Promise<void> {
  await trx
    .insertInto('syncRemotes')
    .values({
      accountId: input.accountId,
      baseUrl: input.baseUrl,
      keyId: input.keyId,
      secretSealed: input.secretSealed,
      remoteAccountId: input.accountId,
      ratePerSecond: HUB_RATE,
      scheduleSeconds: HUB_SCHEDULE_SECONDS,
      // The hub answers a contact already there (same name and email) itself: no email match.
      emailMatch: 0,
      lastSuccessAt: null,
      lastAttemptAt: null,
      lastError: null,
      pausedUntil: null,
      currentRate: null,
      hqAnsweredAt: at,
      hqFailedAt: null,
      hqFailure: null,
      hqRefusedAt: null,
      kind: 'hub',
      pinnedFingerprint: input.fingerprint,
      stationId: input.stationId,
      stationName: input.stationName,
      hubCursor: null,
      revokedAt: null,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
}

/** How far the station has read the hub's feed (in the transaction that applied the page). */
export async function setHubCursor(trx: Db, accountId: string, cursor: string): Promise<void> {
  await trx
    .updateTable('syncRemotes')
    .set({ hubCursor: cursor })
    .where('accountId', '=', accountId)
    .execute();
}

/** The hub removed this station: it pushes and reads no more (kept from the first time said). */
export async function markStationRevoked(trx: Db, accountId: string, at: string): Promise<void> {
  await trx
    .updateTable('syncRemotes')
    .set({ revokedAt: at })
    .where('accountId', '=', accountId)
    .where('kind', '=', 'hub')
    .where('revokedAt', 'is', null)
    .execute();
}

/** The accounts of this database that are stations of a hub still (not revoked). */
export async function stationAccounts(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('syncRemotes')
    .select('accountId')
    .where('kind', '=', 'hub')
    .where('revokedAt', 'is', null)
    .orderBy('accountId')
    .execute();
  return rows.map((r) => r.accountId);
}
