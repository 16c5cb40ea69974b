/**
 * What a change to a saved gift leaves behind: an entry in the gift's history (flagged,
 * reviewed, refunded, redesignated, corrected, voided), read back in order for the gift's page, and
 * its donor's lifetime total and last gift recomputed when the gift's money moved.
 */
import { newId } from '#shared/ids.ts';
import type { Selectable } from 'kysely';
import type { DonationHistory } from '#shared/schemas/history.ts';
import type { DonationHistoryTable } from '../../db/schema.ts';
import { notFound } from '../errors.ts';
import { dropDonorDeltas } from '../../db/donor-total-deltas.ts';
import type { Db } from '../../db/store.ts';
import type { Actor, DomainContext } from '../context.ts';
import { entryOf, stationNames, who, withBy } from '../who.ts';

/** A history entry for a gift, not yet written (a flag's is written beside the flag). */
export function historyRow(
  donationId: string,
  action: string,
  note: string | null,
  detail: Record<string, unknown> | null,
  at: string,
  actor?: Actor | null,
): Selectable<DonationHistoryTable> {
  const full = withBy(detail, actor);
  return {
    id: newId('history'),
    donationId,
    action,
    note,
    detail: full ? JSON.stringify(full) : null,
    createdAt: at,
  };
}

/** Writes a history entry for a gift, in the transaction that changed it. */
export async function addHistory(
  trx: Db,
  donationId: string,
  action: string,
  note: string | null,
  detail: Record<string, unknown> | null,
  at: string,
  actor?: Actor | null,
): Promise<void> {
  await trx
    .insertInto('donationHistory')
    .values(historyRow(donationId, action, note, detail, at, actor))
    .execute();
}

/**
 * A gift's history: who entered it (the gift's own columns and station) and when, then each
 * later change with who made it, oldest first. 404 for a gift the account does not have.
 */
export async function donationHistory(
  ctx: DomainContext,
  accountId: string,
  donationId: string,
): Promise<DonationHistory> {
  const db = ctx.store.db;
  const gift = await db
    .selectFrom('donations')
    .select(['createdAt', 'stationId', 'enteredByUserId', 'enteredByKeyId', 'enteredByName'])
    .where('id', '=', donationId)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!gift) throw notFound('donation', 'id', donationId);
  const names = await stationNames(db, accountId);
  const rows = await db
    .selectFrom('donationHistory')
    .selectAll()
    .where('donationId', '=', donationId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  // Who entered it where it was typed, when its sender carried that on to this HQ (trail.ts).
  const there = rows.find((r) => r.action === 'entered');
  const data = rows.filter((r) => r !== there).map((r) => entryOf(r, names));
  if (there) return { entered: { at: there.createdAt, by: entryOf(there, names).by }, data };
  return {
    entered: {
      at: gift.createdAt,
      by: who(
        {
          userId: gift.enteredByUserId,
          keyId: gift.enteredByKeyId,
          name: gift.enteredByName,
          stationId: gift.stationId,
        },
        names,
      ),
    },
    data,
  };
}

/**
 * Recomputes a contact's lifetime total and last gift from its completed donations (an import's
 * gifts still pending in donor_total_deltas included: their deltas are dropped).
 */
export async function recomputeContactTotals(trx: Db, contactId: string): Promise<void> {
  await dropDonorDeltas(trx, contactId); // an import's pending gifts are counted below
  const r = await trx
    .selectFrom('donations')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('amountCents'), eb.lit(0)).as('cents'),
      eb.fn.max('donationDate').as('last'),
    ])
    .where('contactId', '=', contactId)
    .where('status', '=', 'completed')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('contacts')
    .set({ totalCents: Number(r.cents), lastDonationDate: (r.last as string | null) ?? null })
    .where('id', '=', contactId)
    .execute();
}
