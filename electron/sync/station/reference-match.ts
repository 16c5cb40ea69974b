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
 * applyEventReference to write by. In the caller's transaction.
 */
import type { EventReference } from '../../domain/pulled/index.ts';
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

/** The page's reference lists with each hub id replaced by the local record it is. */
export async function localizeReference<R extends EventReference>(
  trx: Db,
  accountId: string,
  ref: R,
  at: string,
): Promise<EventReference> {
  const ids = new Map<string, string>();
  const local = async (kind: Kind, r: { id: string; name: string }) => {
    const id = await matchOne(trx, accountId, kind, r, at);
    ids.set(`${kind}:${r.id}`, id);
    return id;
  };
  const donationAccounts = [];
  for (const d of ref.donationAccounts)
    donationAccounts.push({ ...d, id: await local('donationAccount', d) });
  const committees = [];
  for (const c of ref.committees) committees.push({ ...c, id: await local('committee', c) });
  const campaigns = [];
  for (const c of ref.campaigns)
    campaigns.push({
      ...c,
      id: await local('campaign', c),
      donationAccounts: c.donationAccounts.map((d) => ({ id: ids.get(`donationAccount:${d.id}`) ?? d.id })),
    });
  return { campaigns, committees, donationAccounts, customFields: ref.customFields };
}
