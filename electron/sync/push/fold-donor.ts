/**
 * One donor twice at a station, the other way round from links.ts's twin copy: this station
 * typed a new donor, and the event hub answered its create with a donor this station already
 * holds as another local record — one it typed before ("Łukasz Żółć", then "lukasz zolc" with
 * the same email), or the feed's copy with an edit of this station's still on its way. The hub
 * wrote nothing: it holds one donor. The station follows in the answer's transaction: the new
 * record is folded into the one it holds (its gifts, credits and totals move there, the record
 * goes, push = 0), its changes are done with (the hub has the donor), and its gifts wait in the
 * other's lane, sent under the hub's donor. Nothing is parked for a person.
 *
 * What the new record carried beyond the donor the hub has (a phone or an address typed with
 * it) is not sent on: the record here is the hub's donor, as at every other end.
 */
import type { Db } from '../../db/store.ts';
import { mergePulledContact } from '../../domain/pulled/index.ts';
import { settleAttempt, settleSeqs } from '../outbox/outbox.ts';

export async function foldNewDonor(
  trx: Db,
  p: { accountId: string; newId: string; heldId: string; attemptId: string; at: string },
): Promise<number | null> {
  if (!(await mergePulledContact(trx, p.accountId, p.newId, p.heldId, p.at))) return null;
  let done = await settleAttempt(trx, p.accountId, p.attemptId, p.at);
  // Edits of the new record made while its create was on its way: the donor they were for is
  // the one held here now, whose own values are the hub's.
  const rest = await trx
    .selectFrom('changeLog')
    .select('seq')
    .where('accountId', '=', p.accountId)
    .where('entityType', '=', 'contact')
    .where('entityId', '=', p.newId)
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .execute();
  done += await settleSeqs(
    trx,
    p.accountId,
    rest.map((r) => Number(r.seq)),
    p.at,
  );
  await trx
    .updateTable('syncItems')
    .set({ laneId: p.heldId })
    .where('entityType', '=', 'donation')
    .where('laneId', '=', p.newId)
    .execute();
  await trx
    .deleteFrom('syncItems')
    .where('entityType', '=', 'contact')
    .where('entityId', '=', p.newId)
    .execute();
  await trx
    .deleteFrom('contactSyncReferences')
    .where('accountId', '=', p.accountId)
    .where('contactId', '=', p.newId)
    .execute();
  return done;
}
