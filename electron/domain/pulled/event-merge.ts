/**
 * One donor twice at a station: a copy the hub's feed brought (another station made the donor)
 * and this station's own, typed before the copy was seen. The hub makes them one (a station's
 * create of a donor it has answers with that donor), and the station follows in the same
 * transaction as that answer: the copy's gifts move to the station's own contact, with their
 * totals, and the copy goes (push = 0: the hub never had it as another donor). Notices about the
 * copy move with it; its sub-records and custom values are the hub's and come again with it.
 */
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import { addContactHistory } from '../contacts/history.ts';

export async function mergePulledContact(
  trx: Db,
  accountId: string,
  copyId: string,
  intoId: string,
  at: string,
): Promise<boolean> {
  const copy = await trx
    .selectFrom('contacts')
    .select(['totalCents', 'lastDonationDate'])
    .where('id', '=', copyId)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  const into = await trx
    .selectFrom('contacts')
    .select(['id'])
    .where('id', '=', intoId)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!copy || !into) return false;
  await trx.updateTable('donations').set({ contactId: intoId }).where('contactId', '=', copyId).execute();
  await trx
    .updateTable('donations')
    .set({ onBehalfOfContactId: intoId })
    .where('onBehalfOfContactId', '=', copyId)
    .execute();
  await trx
    .updateTable('donations')
    .set({ facilitatedByContactId: intoId })
    .where('facilitatedByContactId', '=', copyId)
    .execute();
  // A gift one record gave on behalf of the other is now a gift on behalf of its own donor, which
  // no end accepts (400 at the hub: the gift would wait for a person for ever). The credit goes:
  // the gift is the donor's own, here and at the hub (whose copy of it comes back on the feed).
  await trx
    .updateTable('donations')
    .set({ onBehalfOfContactId: null })
    .where('accountId', '=', accountId)
    .where('contactId', '=', intoId)
    .where('onBehalfOfContactId', '=', intoId)
    .execute();
  await trx.updateTable('hubNotices').set({ contactId: intoId }).where('contactId', '=', copyId).execute();
  await trx
    .updateTable('contacts')
    .set((eb) => ({
      totalCents: eb('totalCents', '+', Number(copy.totalCents)),
      lastDonationDate:
        copy.lastDonationDate === null
          ? eb.ref('lastDonationDate')
          : eb
              .case()
              .when(
                eb.or([
                  eb('lastDonationDate', 'is', null),
                  eb('lastDonationDate', '<', copy.lastDonationDate),
                ]),
              )
              .then(copy.lastDonationDate)
              .else(eb.ref('lastDonationDate'))
              .end(),
    }))
    .where('id', '=', intoId)
    .execute();
  // The copy's history goes with its gifts, and the merge is an entry of its own.
  await trx
    .updateTable('contactHistory')
    .set({ contactId: intoId })
    .where('contactId', '=', copyId)
    .execute();
  await addContactHistory(trx, {
    accountId,
    contactId: intoId,
    action: 'merged',
    detail: { from: copyId, why: 'the event hub holds them as one donor' },
    at,
  });
  await trx.deleteFrom('contacts').where('id', '=', copyId).execute();
  await bumpCounters(trx, accountId, { contacts: -1 });
  await logChange(trx, {
    accountId,
    entityType: 'contact',
    entityId: copyId,
    op: 'delete',
    fields: null,
    push: false,
    at,
  });
  return true;
}
