/**
 * One page of the hub's feed, applied at a station in one transaction, like a pull's page:
 * reference data (the whole lists, when they changed), contacts and deleted contacts
 * (feed-contacts.ts), then gifts, and the cursor moved past the page — all or nothing, so a
 * page half-applied is never left and a page re-read after a crash writes nothing twice.
 * Every record written is logged with push = 0 and linked to the hub's id; the reference lists
 * are matched to the station's own records first (reference-match.ts).
 *
 * Gifts: see feed-gifts.ts. One that names a record not here yet is held, never dropped, and
 * the held ones are tried again on every page (after its contacts, before its gifts).
 */
import type { z } from 'zod';
import type { HubChanges } from '#shared/schemas/hub.ts';
import { applyEventReference } from '../../domain/pulled/index.ts';
import type { Store } from '../../db/store.ts';
import { setHubCursor } from '../remote/hub-remote.ts';
import { localizeReference } from './reference-match.ts';
import { applyFeedContacts, emptyCounts, type FeedCounts } from './feed-contacts.ts';
import { applyFeedGift, applyHeldGifts, dropHeldOf, holdGift, releaseHeld } from './feed-gifts.ts';

export type FeedPage = z.infer<typeof HubChanges>;

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
  /** The station's key at the hub the page was read from: a page of a hub left since is not applied. */
  fromKey?: string,
): Promise<FeedCounts> {
  const counts = emptyCounts();
  await store.write(async (trx) => {
    if (fromKey !== undefined) {
      const now = await trx
        .selectFrom('syncRemotes')
        .select('keyId')
        .where('accountId', '=', accountId)
        .where('kind', '=', 'hub')
        .executeTakeFirst();
      if (now?.keyId !== fromKey) return; // the station moved to another hub meanwhile (replace.ts)
    }
    if (page.reference) {
      const local = await localizeReference(trx, accountId, page.reference, at);
      counts.reference += await applyEventReference(trx, accountId, local, at);
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
    await setHubCursor(trx, accountId, page.cursor);
  });
  return counts;
}
