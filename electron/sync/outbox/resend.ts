/**
 * Everything this GiftDesk typed, sent again from the start: for a station whose event hub was
 * lost for good (a dead laptop) after it handed over gifts the hub never passed on, pointed at
 * a replacement hub or at HQ. It knows nothing of what the new upstream holds, so:
 *
 * - no contact or gift is linked to anything upstream any more (its links are dropped: the old
 *   upstream's ids mean nothing to the new one);
 * - every push item is dropped (no attempt in flight, nothing parked for the old upstream);
 * - every change this GiftDesk made itself (push = 1) is unsent again; what the old hub's feed
 *   brought (push = 0) stays here and is never sent;
 * - gifts the old hub's feed brought that waited for a record here (feed-gifts.ts) go: they name
 *   the old hub's ids; the new upstream's feed brings what it has.
 *
 * Nothing doubles upstream: every create carries this GiftDesk's own `gd:` reference, and every
 * hop creates once per reference, answering a record it already holds with that record.
 * In the caller's transaction; returns how many changes go again.
 */
import type { Db } from '../../db/store.ts';

export async function markAllUnsent(trx: Db, accountId: string): Promise<number> {
  await trx
    .deleteFrom('syncLinks')
    .where('accountId', '=', accountId)
    .where('entityType', 'in', ['contact', 'donation'])
    .execute();
  await trx.deleteFrom('syncItems').where('accountId', '=', accountId).execute();
  await trx.deleteFrom('hubHeldGifts').where('accountId', '=', accountId).execute();
  await trx.deleteFrom('hubSentGifts').where('accountId', '=', accountId).execute();
  const r = await trx
    .updateTable('changeLog')
    .set({ syncedAt: null, attemptId: null })
    .where('accountId', '=', accountId)
    .where('push', '=', 1)
    .where('entityType', 'in', ['contact', 'donation'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
