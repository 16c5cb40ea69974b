/**
 * The hub's campaigns, committees and donation accounts, matched to a station's own before a
 * page of the feed writes them. A station keeps its first hub's ids as its own; after it moves
 * to a replacement hub (replace.ts forgot the old links) the new hub's records are matched:
 *
 * - linked already (a page read before): that local record;
 * - a local record with the hub's id (a hub restored from the old one's backup keeps its ids):
 *   that record;
 * - else a local record of the same kind and name (case aside) no hub record is linked to yet
 *   (a fresh hub set up with the event's campaign again): that record, so the gifts typed here
 *   under the old hub's id go to the new hub's;
 * - else a new local record under the hub's id.
 *
 * Each is linked (local id → the hub's id) and the lists are returned with local ids, for
 * the station's apply of each kind to write by (ledger-apply.ts). In the caller's transaction.
 */
import { getReference, referenceByName } from '../../domain/pulled/index.ts';
import type { Db } from '../../db/store.ts';
import { linkRemote, localIdFor, remoteIdFor } from '../outbox/links.ts';

type Kind = 'campaign' | 'committee' | 'donationAccount';

/** The local record a hub record is, linked (see the top). */
async function matchOne(
  trx: Db,
  accountId: string,
  kind: Kind,
  rec: { id: string; name: string },
  at: string,
): Promise<string> {
  const linked = await localIdFor(trx, accountId, kind, rec.id);
  if (linked !== null) return linked;
  let localId = rec.id;
  if (!(await getReference(trx, kind, accountId, rec.id))) {
    for (const candidate of await referenceByName(trx, kind, accountId, rec.name))
      if ((await remoteIdFor(trx, kind, candidate.id)) === null) {
        localId = candidate.id;
        break;
      }
  }
  await linkRemote(trx, { accountId, entityType: kind, localId, remoteId: rec.id, source: 'pulled', at });
  return localId;
}

/** A list of one kind with each hub id replaced by the local record it is (each linked). */
export async function localizeList<R extends { id: string; name: string }>(
  trx: Db,
  accountId: string,
  kind: Kind,
  list: readonly R[],
  at: string,
): Promise<R[]> {
  const out: R[] = [];
  for (const r of list) out.push({ ...r, id: await matchOne(trx, accountId, kind, r, at) });
  return out;
}

/**
 * Campaigns with their own ids and those of the donation accounts they offer replaced by the
 * local records they are (the donation accounts are matched first: they come before campaigns
 * in the ledger's order).
 */
export async function localizeCampaigns<
  C extends { id: string; name: string; donationAccounts: ReadonlyArray<{ id: string }> },
>(trx: Db, accountId: string, list: readonly C[], at: string): Promise<C[]> {
  const out: C[] = [];
  for (const c of await localizeList(trx, accountId, 'campaign', list, at)) {
    const offered = [];
    for (const d of c.donationAccounts)
      offered.push({ ...d, id: (await localIdFor(trx, accountId, 'donationAccount', d.id)) ?? d.id });
    out.push({ ...c, donationAccounts: offered });
  }
  return out;
}
