/**
 * One page of the hub's feed, applied at a station in one transaction, like a pull's page:
 * reference data (the whole lists, when they changed), contacts and deleted contacts
 * (feed-contacts.ts), then gifts, and the cursor moved past the page — all or nothing, so a
 * page half-applied is never left and a page re-read after a crash writes nothing twice.
 * Every record written is logged with push = 0 and linked to the hub's id.
 *
 * Gifts: this station's own coming back are skipped (linked to the hub's id already, or
 * carrying its own `gd:` reference); another station's, or the hub's, are written as this
 * station's pulled gifts (domain/pulled/event-gifts.ts) with their station of origin, so the
 * donor's totals and the limit checks here count the whole event.
 */
import type { z } from 'zod';
import type { HubChanges } from '#shared/schemas/hub.ts';
import { donationReferenceOf } from '#shared/sync-reference.ts';
import { applyEventReference, hasGift, insertEventGift } from '../../domain/pulled/index.ts';
import type { Db, Store } from '../../db/store.ts';
import { linkRemote, localIdFor } from '../outbox/links.ts';
import { setHubCursor } from '../remote/hub-remote.ts';
import { applyFeedContacts, emptyCounts, type FeedCounts } from './feed-contacts.ts';

export type FeedPage = z.infer<typeof HubChanges>;
type FeedGift = FeedPage['donations'][number];

/** The local id of a hub record this station holds under a link (or under the hub's id). */
async function localOf(
  trx: Db,
  accountId: string,
  kind: 'contact' | 'campaign' | 'committee' | 'donationAccount',
  hubId: string | null | undefined,
) {
  if (!hubId) return null;
  return (await localIdFor(trx, accountId, kind, hubId)) ?? hubId;
}

/** Whether a gift of the feed is this station's own (or here already). */
async function knownGift(trx: Db, accountId: string, g: FeedGift): Promise<boolean> {
  if ((await localIdFor(trx, accountId, 'donation', g.id)) !== null) return true;
  const ref = g.reference ?? donationReferenceOf(g.notes);
  return ref !== null && ref.startsWith('gd:') && (await hasGift(trx, accountId, ref.slice(3)));
}

async function applyGift(
  trx: Db,
  accountId: string,
  g: FeedGift,
  at: string,
  counts: FeedCounts,
): Promise<void> {
  if (g.status !== 'completed') return;
  if (await knownGift(trx, accountId, g)) return;
  const contactId = (await localIdFor(trx, accountId, 'contact', g.contactId)) ?? g.contactId;
  const r = await insertEventGift(
    trx,
    {
      accountId,
      contactId,
      campaignId: await localOf(trx, accountId, 'campaign', g.campaignId),
      committeeId: await localOf(trx, accountId, 'committee', g.committeeId),
      donationAccountId: await localOf(trx, accountId, 'donationAccount', g.donationAccountId),
      donationAmount: g.donationAmount,
      donationDate: g.donationDate,
      paymentMethod: g.paymentMethod,
      electionType: g.electionType,
      electionYear: g.electionYear,
      notes: g.notes,
      stationId: g.stationId,
    },
    at,
  );
  if ('missing' in r) {
    counts.skipped++;
    counts.notes.push(`A gift from the hub names ${r.missing}, which is not here; it was skipped`);
    return;
  }
  if ('written' in r) {
    await linkRemote(trx, {
      accountId,
      entityType: 'donation',
      localId: r.written,
      remoteId: g.id,
      source: 'pulled',
      at,
    });
    counts.gifts++;
  }
}

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
    for (const g of page.donations) await applyGift(trx, accountId, g, at, counts);
    await setHubCursor(trx, accountId, page.cursor);
  });
  return counts;
}
