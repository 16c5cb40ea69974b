/**
 * Gifts other stations of an event entered, written at this station as they came from the hub:
 * the same insert as a gift typed here (the donor's totals, the account's count, the limit
 * check and its flag, the gift's sync reference held), logged with push = 0 (the hub has it),
 * and the station it was entered at kept. So the over-limit warning while typing, the flags and
 * the dashboard of every station see the whole event. The caller (electron/sync/station/)
 * resolves the hub's ids to local ones first and runs this in the page's transaction; a gift
 * whose records are not here is not written (the caller counts it) — never half of one.
 */
import type { ElectionType, PaymentMethod } from '#shared/enums.ts';
import { donationReferenceOf } from '#shared/sync-reference.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import { insertDonation } from '../donations/create.ts';

export interface EventGift {
  accountId: string;
  /** Local ids (the caller mapped the hub's). */
  contactId: string;
  campaignId: string | null;
  committeeId: string | null;
  donationAccountId: string | null;
  donationAmount: number;
  donationDate: string;
  paymentMethod: PaymentMethod;
  electionType: ElectionType | null;
  electionYear: number | null;
  notes: string | null;
  stationId: string | null;
}

async function exists(
  trx: Db,
  table: 'campaigns' | 'committees' | 'donationAccounts' | 'contacts',
  accountId: string,
  id: string,
) {
  const r = await trx
    .selectFrom(table)
    .select('id')
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return r !== undefined;
}

/** Why the gift cannot be written here, or null when it can. */
async function missingRecord(trx: Db, g: EventGift): Promise<string | null> {
  if (!(await exists(trx, 'contacts', g.accountId, g.contactId))) return 'its donor';
  if (g.campaignId && !(await exists(trx, 'campaigns', g.accountId, g.campaignId))) return 'its campaign';
  if (g.committeeId && !(await exists(trx, 'committees', g.accountId, g.committeeId))) return 'its committee';
  if (g.donationAccountId && !(await exists(trx, 'donationAccounts', g.accountId, g.donationAccountId)))
    return 'its donation account';
  if (!g.campaignId && !g.committeeId && !g.donationAccountId)
    return 'a campaign, committee or donation account';
  return null;
}

export type EventGiftResult = { written: string } | { held: true } | { missing: string };

/**
 * Writes another station's gift: `written` with its local id; `held` when a gift with its sync
 * reference is here already (nothing written); `missing` naming what is not here.
 */
export async function insertEventGift(trx: Db, g: EventGift, at: string): Promise<EventGiftResult> {
  const reference = donationReferenceOf(g.notes);
  if (reference !== null) {
    const held = await trx
      .selectFrom('donationSyncReferences')
      .select('donationId')
      .where('accountId', '=', g.accountId)
      .where('reference', '=', reference)
      .executeTakeFirst();
    if (held) return { held: true };
  }
  const missing = await missingRecord(trx, g);
  if (missing) return { missing };
  const row = await insertDonation(
    trx,
    {
      accountId: g.accountId,
      contactId: g.contactId,
      donationAmount: g.donationAmount,
      donationDate: g.donationDate,
      paymentMethod: g.paymentMethod,
      campaignId: g.campaignId,
      committeeId: g.committeeId,
      donationAccountId: g.donationAccountId,
      electionType: g.electionType,
      electionYear: g.electionYear,
      notes: g.notes,
    },
    at,
    { push: false },
  );
  if (g.stationId !== null)
    await trx.updateTable('donations').set({ stationId: g.stationId }).where('id', '=', row.id).execute();
  return { written: row.id };
}

/** Whether the account holds a gift with this local id (a station's own gift coming back). */
export async function hasGift(trx: Db, accountId: string, id: string): Promise<boolean> {
  const r = await trx
    .selectFrom('donations')
    .select('id')
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return r !== undefined;
}

/**
 * Deletes a contact the hub deleted, with its gifts (push = 0: the hub did it). The caller
 * checks first that nothing of it waits to be pushed from here.
 */
export async function deleteEventContact(
  trx: Db,
  accountId: string,
  id: string,
  at: string,
): Promise<boolean> {
  const gifts = await trx
    .selectFrom('donations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('contactId', '=', id)
    .executeTakeFirstOrThrow();
  const r = await trx
    .deleteFrom('contacts')
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) return false;
  await bumpCounters(trx, accountId, { contacts: -1, donations: -Number(gifts.n) });
  await logChange(trx, {
    accountId,
    entityType: 'contact',
    entityId: id,
    op: 'delete',
    fields: null,
    push: false,
    at,
  });
  return true;
}
