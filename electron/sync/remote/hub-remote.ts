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

/**
 * The connection as after a hub's answer just now: no removal, no error, no pause or rate learnt
 * from refusals (a station that joined or paired again).
 */
function answeredJustNow(at: string) {
  return {
    revokedAt: null,
    lastError: null,
    pausedUntil: null,
    currentRate: null,
    hqAnsweredAt: at,
    hqFailedAt: null,
    hqFailure: null,
    hqRefusedAt: null,
    updatedAt: at,
  };
}

/**
 * Points a station at a replacement hub (station/replace.ts), in the caller's transaction: the
 * new hub's address, the station's new key there, its pinned certificate, the station's id and
 * name there, and the new hub's account id as the remote account (this station keeps its own
 * account id: its records stay where they are). Its feed starts again from the beginning, and
 * what was learnt of the old hub (answers, failures, a revocation) goes with it.
 */
export async function moveHubRemote(
  trx: Db,
  input: HubRemoteInput & { remoteAccountId: string },
  at: string,
): Promise<void> {
  await trx
    .updateTable('syncRemotes')
    .set({
      baseUrl: input.baseUrl,
      keyId: input.keyId,
      secretSealed: input.secretSealed,
      remoteAccountId: input.remoteAccountId,
      pinnedFingerprint: input.fingerprint,
      stationId: input.stationId,
      stationName: input.stationName,
      hubCursor: null,
      ...answeredJustNow(at),
    })
    .where('accountId', '=', input.accountId)
    .where('kind', '=', 'hub')
    .execute();
}

/** Removes a station's hub remote (station/leave.ts), in the caller's transaction. */
export async function deleteHubRemote(trx: Db, accountId: string): Promise<void> {
  await trx.deleteFrom('syncRemotes').where('accountId', '=', accountId).where('kind', '=', 'hub').execute();
}

/** The one station remote of this database (revoked or not), or null. */
export async function currentStation(
  db: Db,
): Promise<{ accountId: string; baseUrl: string; stationName: string | null } | null> {
  const rows = await db
    .selectFrom('syncRemotes')
    .select(['accountId', 'baseUrl', 'stationName'])
    .where('kind', '=', 'hub')
    .orderBy('accountId')
    .execute();
  return rows[0] ?? null;
}

/**
 * A removed station paired again with the same hub (station/rejoin.ts), in the caller's
 * transaction: its new key, the hub's address as given now, its name there; the removal and
 * what was learnt of the refusals forgotten. The feed's cursor, the links to the hub's ids and
 * the push states stay: it is the same hub, which holds what this station sent it before.
 */
export async function reopenHubRemote(
  trx: Db,
  input: { accountId: string; baseUrl: string; keyId: string; secretSealed: string; stationName: string },
  at: string,
): Promise<void> {
  await trx
    .updateTable('syncRemotes')
    .set({
      baseUrl: input.baseUrl,
      keyId: input.keyId,
      secretSealed: input.secretSealed,
      stationName: input.stationName,
      ...answeredJustNow(at),
    })
    .where('accountId', '=', input.accountId)
    .where('kind', '=', 'hub')
    .execute();
}
