/**
 * One page of the hub's feed, applied at a station in one transaction, like a pull's page:
 * reference data (the whole lists, when they changed), contacts and deleted contacts
 * (feed-contacts.ts), then gifts, and the cursor moved past the page — all or nothing, so a
 * page half-applied is never left and a page re-read after a crash writes nothing twice.
 * Every record written is logged with push = 0 and linked to the hub's id. The event's
 * stations, when the page names them, are kept by name (`event_stations`, for the board).
 *
 * Gifts: see feed-gifts.ts. One that names a record not here yet is held, never dropped, and
 * the held ones are tried again on every page (after its contacts, before its gifts).
 */
import type { z } from 'zod';
import type { HubChanges } from '#shared/schemas/hub.ts';
import { applyEventReference } from '../../domain/pulled/index.ts';
import type { Db, Store } from '../../db/store.ts';
import { linkRemote, localIdFor } from '../outbox/links.ts';
import { setHubCursor } from '../remote/hub-remote.ts';
import { applyFeedContacts, emptyCounts, type FeedCounts } from './feed-contacts.ts';
import { applyFeedGift, applyHeldGifts, dropHeldOf, holdGift, releaseHeld } from './feed-gifts.ts';

export type FeedPage = z.infer<typeof HubChanges>;

/** Links each reference record of the hub to itself (a station keeps the hub's ids). */
async function linkReferenceIds(
  trx: Db,
  accountId: string,
  ref: NonNullable<FeedPage['reference']>,
  at: string,
) {
  const kinds = [
    ['campaign', ref.campaigns],
    ['committee', ref.committees],
    ['donationAccount', ref.donationAccounts],
  ] as const;
  for (const [entityType, list] of kinds)
    for (const r of list)
      if ((await localIdFor(trx, accountId, entityType, r.id)) === null)
        await linkRemote(trx, { accountId, entityType, localId: r.id, remoteId: r.id, source: 'pulled', at });
}

/** Keeps the stations' names the page gives, writing only a station new here or renamed. */
async function keepStationNames(
  trx: Db,
  accountId: string,
  stations: NonNullable<FeedPage['stations']>,
  at: string,
): Promise<void> {
  if (stations.length === 0) return;
  const known = new Map(
    (
      await trx
        .selectFrom('eventStations')
        .select(['id', 'name'])
        .where('accountId', '=', accountId)
        .execute()
    ).map((r) => [r.id, r.name]),
  );
  for (const s of stations) {
    if (known.get(s.id) === s.name) continue;
    if (known.has(s.id))
      await trx
        .updateTable('eventStations')
        .set({ name: s.name, updatedAt: at })
        .where('accountId', '=', accountId)
        .where('id', '=', s.id)
        .execute();
    else
      await trx
        .insertInto('eventStations')
        .values({ accountId, id: s.id, name: s.name, updatedAt: at })
        .execute();
  }
}

/**
 * Applies a page (see the top). `readAt`: when its request left — a field this station pushed
 * after it is newer than the page's value and is kept.
 */
export async function applyFeedPage(
  store: Store,
  accountId: string,
  page: FeedPage,
  readAt: string,
  at: string,
): Promise<FeedCounts> {
  const counts = emptyCounts();
  await store.write(async (trx) => {
    if (page.reference) {
      counts.reference += await applyEventReference(trx, accountId, page.reference, at);
      await linkReferenceIds(trx, accountId, page.reference, at);
    }
    await applyFeedContacts(trx, accountId, page.contacts, page.deletedContacts, readAt, at, counts);
    await dropHeldOf(trx, accountId, page.deletedContacts);
    counts.gifts += await applyHeldGifts(trx, accountId, at);
    await releaseHeld(
      trx,
      accountId,
      page.donations.map((g) => g.id),
    );
    for (const g of page.donations) {
      const outcome = await applyFeedGift(trx, accountId, g, at);
      if (outcome === 'written') counts.gifts++;
      else if (typeof outcome === 'object') {
        await holdGift(trx, accountId, g, outcome.missing, at);
        counts.held++;
        counts.notes.push(
          `A gift from the hub names ${outcome.missing}, which is not here yet; it is kept until it is`,
        );
      }
    }
    if (page.stations) await keepStationNames(trx, accountId, page.stations, at);
    await setHubCursor(trx, accountId, page.cursor);
  });
  return counts;
}
