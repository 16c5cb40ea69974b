/**
 * A station its hub removed, pairing again with the same hub (`giftdesk hub join URL --code C
 * --fingerprint F`, Settings → Event → "Pair again"): it goes on as the same station.
 *
 * The join (join.ts) carries the station's id at the hub and the key it had there (id and
 * secret, unsealed from this folder): the hub checks that key against the removed station's
 * and takes the station back — the same row, so its gifts, the board and the close-out count it
 * once — clearing the removal and giving it a new key. Here the remote gets the new key and the
 * address as typed, and keeps its feed cursor, links and push states (the hub holds everything
 * it confirmed before). What was typed while removed is waiting in the outbox and goes on the
 * next pass, once: each gift under its own reference.
 *
 * Only the hub that removed the station: another certificate is refused before anything is
 * sent (a lost hub is replaced with `replace` instead, replace.ts).
 */
import type { HubRejoin } from '#shared/schemas/hub.ts';
import type { Db } from '../../db/store.ts';
import { DomainError } from '../../domain/errors.ts';
import type { KeySource } from '../remote/secret-box.ts';
import { loadRemoteConfig } from '../remote/settings.ts';

/** This folder's station remote when the hub removed it: what pairing again needs. */
export interface RemovedStation {
  accountId: string;
  baseUrl: string;
  fingerprint: string | null;
  stationId: string;
  remoteAccountId: string;
  revokedAt: string;
  proof: HubRejoin;
}

/** The station remote of this data folder if its hub removed it, else null. */
export async function removedStation(db: Db, keys: KeySource): Promise<RemovedStation | null> {
  const row = await db
    .selectFrom('syncRemotes')
    .select('accountId')
    .where('kind', '=', 'hub')
    .where('revokedAt', 'is not', null)
    .orderBy('accountId')
    .executeTakeFirst();
  if (!row) return null;
  const cfg = await loadRemoteConfig(db, keys, row.accountId);
  if (!cfg || cfg.revokedAt === null || cfg.stationId === null) return null;
  return {
    accountId: cfg.accountId,
    baseUrl: cfg.baseUrl,
    fingerprint: cfg.pinnedFingerprint,
    stationId: cfg.stationId,
    remoteAccountId: cfg.remoteAccountId,
    revokedAt: cfg.revokedAt,
    proof: { stationId: cfg.stationId, keyId: cfg.keyId, secret: cfg.secret },
  };
}

/** Pairing again goes to the hub that removed this station only. */
export function refuseAnotherHub(removed: RemovedStation, fingerprint: string): void {
  if (removed.fingerprint === null || removed.fingerprint === fingerprint) return;
  throw new DomainError(
    'conflict',
    'removed_by_another_hub',
    `This station was removed from the event hub at ${removed.baseUrl}, and the hub named here has another certificate: it is another hub. Pair again with the hub that removed this station; if that hub laptop is lost, move this station to the replacement hub instead (“The hub laptop is lost?”, or giftdesk hub join … --replace).`,
    [{ field: 'fingerprint', issue: 'is not the certificate of the hub that removed this station' }],
  );
}
