/**
 * What a change to a saved gift leaves behind: an entry in the gift's history (flagged,
 * reviewed, refunded, redesignated, corrected, voided), read back in order for the gift's page, and
 * its donor's lifetime total and last gift recomputed when the gift's money moved.
 */
import { newId } from '#shared/ids.ts';
import type { Selectable } from 'kysely';
import type { DonationHistoryTable } from '../../db/schema.ts';
import { dropDonorDeltas } from '../../db/donor-total-deltas.ts';
import type { Db } from '../../db/store.ts';
import type { DomainContext } from '../context.ts';

/** A history entry for a gift, not yet written (a flag's is written beside the flag). */
export function historyRow(
  donationId: string,
  action: string,
  note: string | null,
  detail: Record<string, unknown> | null,
  at: string,
): Selectable<DonationHistoryTable> {
  return {
    id: newId('history'),
    donationId,
    action,
    note,
    detail: detail ? JSON.stringify(detail) : null,
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
): Promise<void> {
  await trx
    .insertInto('donationHistory')
    .values(historyRow(donationId, action, note, detail, at))
    .execute();
}

/** A gift's history, oldest first. */
export async function donationHistory(ctx: DomainContext, donationId: string) {
  const rows = await ctx.store.db
    .selectFrom('donationHistory')
    .selectAll()
    .where('donationId', '=', donationId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    note: r.note,
    detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
    at: r.createdAt,
  }));
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
