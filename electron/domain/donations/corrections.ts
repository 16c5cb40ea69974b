/**
 * Corrections before the first send: a gift not yet sent to HQ may be corrected (every rule of
 * a create applies again) or voided; from its first send attempt it is read-only here.
 */
import type { DonationCreateBody, DonationDetail } from '#shared/schemas/donations.ts';
import type { DonationRow } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import type { DomainContext } from '../context.ts';
import { getDonation } from './read.ts';
import { checkDonation, checkReferences, donationRow } from './rules.ts';
import { resolveElection } from '../limits/elections.ts';
import { DomainError, notFound } from '../errors.ts';
import { checkLimits } from '../limits/checks.ts';
import { addHistory, recomputeContactTotals } from '../limits/history.ts';
import { donationFromRow } from '../row-mappers.ts';

/**
 * HQ has no donation update: once a gift may have reached HQ it is read-only here. That is
 * from its first send attempt: when HQ has it (the id map links it) or a request for it may
 * be out (its push state is in flight or unknown). The sync engine records both in the same
 * tables this reads. A gift HQ refused (needs attention) never reached HQ and can be fixed.
 */
export async function donationSendState(
  db: Db,
  id: string,
): Promise<{ sent: boolean; sending: boolean; firstAttemptAt: string | null }> {
  const link = await db
    .selectFrom('syncLinks')
    .select('remoteId')
    .where('entityType', '=', 'donation')
    .where('localId', '=', id)
    .executeTakeFirst();
  const item = await db
    .selectFrom('syncItems')
    .select(['state', 'firstAttemptAt'])
    .where('entityType', '=', 'donation')
    .where('entityId', '=', id)
    .executeTakeFirst();
  return {
    sent: link !== undefined,
    sending: item?.state === 'in_flight' || item?.state === 'unknown',
    firstAttemptAt: item?.firstAttemptAt ?? null,
  };
}

async function lockUnsentDonation(
  trx: Db,
  accountId: string,
  id: string,
  doing: string,
): Promise<DonationRow> {
  // The no-op UPDATE is the row lock on PostgreSQL: the engine's "in flight" mark takes it too.
  const locked = await trx
    .updateTable('donations')
    .set((eb) => ({ updatedAt: eb.ref('updatedAt') }))
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (Number(locked.numUpdatedRows) === 0) throw notFound('donation', 'id', id);
  const row = await trx.selectFrom('donations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const st = await donationSendState(trx, id);
  if (st.sent || st.sending) {
    const when = st.firstAttemptAt ? ` on ${st.firstAttemptAt.slice(0, 16).replace('T', ' ')} UTC` : '';
    const why = st.sent
      ? `Gift ${id} was sent to HQ${when}, and HQ's API cannot change or remove a gift: ${doing} it in HQ's web application instead.`
      : `Gift ${id} is being sent to HQ right now (or its last attempt's outcome is still being checked${when}): it cannot be changed until that is settled. Try again after the next sync.`;
    throw new DomainError('conflict', st.sent ? 'donation_sent' : 'donation_sending', why, [
      { field: 'id', issue: st.sent ? 'was already sent to HQ' : 'is being sent to HQ' },
    ]);
  }
  if (row.status === 'voided')
    throw new DomainError('conflict', 'donation_voided', `Gift ${id} is voided: it cannot be changed`, [
      { field: 'id', issue: 'is voided' },
    ]);
  return row;
}

/** The fields a correction may change (any of a create's, except the account). */
export type DonationCorrection = Partial<Omit<DonationCreateBody, 'accountId'>>;

/** Corrects a gift that has not been sent to HQ yet: every rule of a create applies again. */
export async function correctDonation(
  ctx: DomainContext,
  accountId: string,
  id: string,
  patch: DonationCorrection,
): Promise<DonationDetail> {
  const fields = Object.keys(patch).filter((k) => patch[k as keyof DonationCorrection] !== undefined);
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const row = await lockUnsentDonation(trx, accountId, id, 'correct');
    if (fields.length === 0) return;
    const d = donationFromRow(row);
    const current: DonationCreateBody = {
      accountId,
      contactId: d.contactId,
      donationAmount: d.donationAmount,
      donationDate: d.donationDate,
      paymentMethod: d.paymentMethod,
      campaignId: d.campaignId,
      committeeId: d.committeeId,
      donationAccountId: d.donationAccountId,
      onBehalfOfContactId: d.onBehalfOfContactId,
      facilitatedByContactId: d.facilitatedByContactId,
      isAnonymous: d.isAnonymous,
      isRecurring: d.isRecurring,
      thankYouSent: d.thankYouSent,
      thankYouSentDate: d.thankYouSentDate,
      notes: d.notes,
    };
    const next: DonationCreateBody = { ...current, ...patch, accountId };
    const checked = checkDonation(next);
    if (next.contactId !== row.contactId) {
      const donor = await trx
        .selectFrom('contacts')
        .select('id')
        .where('id', '=', next.contactId)
        .where('accountId', '=', accountId)
        .executeTakeFirst();
      if (!donor) throw notFound('contact', 'contactId', next.contactId, 'contact_not_found');
    }
    await checkReferences(trx, next);
    const electionSent = patch.electionType !== undefined || patch.electionYear !== undefined;
    const election = electionSent
      ? await resolveElection(trx, accountId, checked.donationDate, {
          electionType: next.electionType ?? null,
          electionYear: next.electionYear ?? null,
        })
      : checked.donationDate !== row.donationDate
        ? await resolveElection(trx, accountId, checked.donationDate, {})
        : { electionType: row.electionType, electionYear: row.electionYear };
    const updated = {
      ...donationRow(next, checked, election, id, row.createdAt, row.externalId),
      batchId: row.batchId,
      // Where it was typed does not change with a correction: a station's gift stays its own
      // (the board and the close-out count it there).
      stationId: row.stationId,
      updatedAt: at,
    };
    await trx.updateTable('donations').set(updated).where('id', '=', id).execute();
    for (const c of new Set([row.contactId, next.contactId])) await recomputeContactTotals(trx, c);
    // Limits are checked afresh for the corrected gift (its open flags no longer describe it).
    await trx.deleteFrom('limitFlags').where('donationId', '=', id).where('state', '=', 'open').execute();
    await checkLimits(trx, updated, at);
    await addHistory(trx, id, 'corrected', null, { fields }, at);
    await logChange(trx, { accountId, entityType: 'donation', entityId: id, op: 'update', fields, at });
  });
  return getDonation(ctx, accountId, id);
}

/** Voids a gift that has not been sent to HQ yet: it stays on record as voided and is never sent. */
export async function voidDonation(
  ctx: DomainContext,
  accountId: string,
  id: string,
  reason: string | null = null,
): Promise<DonationDetail> {
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const row = await lockUnsentDonation(trx, accountId, id, 'void');
    await trx
      .updateTable('donations')
      .set({ status: 'voided', updatedAt: at })
      .where('id', '=', id)
      .execute();
    await recomputeContactTotals(trx, row.contactId);
    await bumpCounters(trx, accountId, { donations: -1 });
    await trx
      .updateTable('limitFlags')
      .set({ state: 'reviewed', resolvedAt: at, resolutionNote: 'gift voided' })
      .where('donationId', '=', id)
      .where('state', '=', 'open')
      .execute();
    await addHistory(trx, id, 'voided', reason, { from: row.status, to: 'voided' }, at);
    await logChange(trx, {
      accountId,
      entityType: 'donation',
      entityId: id,
      op: 'update',
      fields: ['status'],
      at,
    });
  });
  return getDonation(ctx, accountId, id);
}
