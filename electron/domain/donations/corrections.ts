/**
 * Corrections before the first send: a gift not yet sent to HQ may be corrected (every rule of
 * a create applies again) or voided; from its first send attempt it is read-only here.
 */
import type { DonationCreateBody, DonationDetail } from '#shared/schemas/donations.ts';
import type { DonationRow } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import type { Actor, DomainContext } from '../context.ts';
import { getDonation } from './read.ts';
import { checkDonation, checkReferences, donationRow } from './rules.ts';
import { resolveElection } from '../limits/elections.ts';
import { DomainError, notFound } from '../errors.ts';
import { checkLimits } from '../limits/checks.ts';
import { addHistory, recomputeContactTotals } from '../limits/history.ts';
import { donationFromRow } from '../row-mappers.ts';

/** Where an account's gifts go on to: HQ, or (at a station of an event hub) the hub. */
export type Upstream = 'hq' | 'hub';

/**
 * HQ has no donation update: once a gift may have reached HQ it is read-only here. That is
 * from its first send attempt: when HQ has it (the id map links it) or a request for it may
 * be out (its push state is in flight or unknown). The sync engine records both in the same
 * tables this reads, and the account's remote says what it sends to (`upstream`): at a station
 * the remote is its event hub, which is GiftDesk and takes a correction (the server asks it).
 * A gift HQ refused (needs attention) never reached HQ and can be fixed.
 */
export async function donationSendState(
  db: Db,
  id: string,
): Promise<{ sent: boolean; sending: boolean; firstAttemptAt: string | null; upstream: Upstream }> {
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
  const remote = await db
    .selectFrom('donations as d')
    .innerJoin('syncRemotes as r', 'r.accountId', 'd.accountId')
    .select('r.kind')
    .where('d.id', '=', id)
    .executeTakeFirst();
  return {
    sent: link !== undefined,
    sending: item?.state === 'in_flight' || item?.state === 'unknown',
    firstAttemptAt: item?.firstAttemptAt ?? null,
    upstream: remote?.kind === 'hub' ? 'hub' : 'hq',
  };
}

/** The words every end uses for a gift HQ has (or may have): change it there. */
export const SENT_TO_HQ = 'sent to HQ: change it there';

/** Why a gift that left (or is leaving) this GiftDesk cannot be changed here. */
function sentRefusal(
  id: string,
  st: Awaited<ReturnType<typeof donationSendState>>,
  doing: string,
): DomainError {
  const when = st.firstAttemptAt ? ` on ${st.firstAttemptAt.slice(0, 16).replace('T', ' ')} UTC` : '';
  if (st.upstream === 'hub') {
    // A station: the gift is (or is being) handed to its event hub, which is not HQ.
    const why = st.sent
      ? `Gift ${id} is at the event hub: a change to it is made there (this station asks the hub). Try again.`
      : `Gift ${id} is being handed to the event hub right now: try again in a moment.`;
    return new DomainError('conflict', st.sent ? 'donation_at_hub' : 'donation_sending', why, [
      { field: 'id', issue: st.sent ? 'is at the event hub' : 'is being handed to the event hub' },
    ]);
  }
  const why = st.sent
    ? `Gift ${id} was ${SENT_TO_HQ}. HQ's API cannot change or remove a gift (it went${when}), so ${doing} it in HQ's web application.`
    : `Gift ${id} is on its way to HQ (its last attempt${when} is still being checked): take it as ${SENT_TO_HQ}, or try again here after the next sync if it did not arrive.`;
  return new DomainError('conflict', st.sent ? 'donation_sent' : 'donation_sending', why, [
    { field: 'id', issue: st.sent ? 'was already sent to HQ' : 'is being sent to HQ' },
  ]);
}

/** Who asks for a change: an event station's key may change only the gifts typed at that station. */
export interface ChangeAsker {
  /** The station whose key asks (null or absent: not a station). */
  stationId?: string | null;
  /** The change is made at an event hub (its person, or a station's request): its history says so. */
  atHub?: boolean;
}

export async function lockUnsentDonation(
  trx: Db,
  accountId: string,
  id: string,
  doing: string,
  asker: ChangeAsker,
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
  if (asker.stationId && row.stationId !== asker.stationId)
    throw new DomainError(
      'forbidden',
      'not_this_stations_gift',
      `Gift ${id} was not typed at this station: only the station that typed a gift (or the hub) may ${doing} it`,
      [{ field: 'id', issue: 'was typed at another station or at the hub' }],
    );
  const st = await donationSendState(trx, id);
  if (st.sent || st.sending) throw sentRefusal(id, st, doing);
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
  asker: ChangeAsker = {},
): Promise<DonationDetail> {
  const fields = Object.keys(patch).filter((k) => patch[k as keyof DonationCorrection] !== undefined);
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const row = await lockUnsentDonation(trx, accountId, id, 'correct', asker);
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
      // Nor does who entered it.
      enteredByUserId: row.enteredByUserId,
      enteredByKeyId: row.enteredByKeyId,
      enteredByName: row.enteredByName,
      updatedAt: at,
    };
    await trx.updateTable('donations').set(updated).where('id', '=', id).execute();
    for (const c of new Set([row.contactId, next.contactId])) await recomputeContactTotals(trx, c);
    // Limits are checked afresh for the corrected gift (its open flags no longer describe it).
    await trx.deleteFrom('limitFlags').where('donationId', '=', id).where('state', '=', 'open').execute();
    await checkLimits(trx, updated, at);
    await addHistory(
      trx,
      id,
      'corrected',
      null,
      correctionDetail(row, updated, fields, asker),
      at,
      ctx.actor,
    );
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
  asker: ChangeAsker = {},
): Promise<DonationDetail> {
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const row = await lockUnsentDonation(trx, accountId, id, 'void', asker);
    await applyVoid(trx, row, reason, asker, at, ctx.actor);
  });
  return getDonation(ctx, accountId, id);
}

/**
 * A void inside an open write transaction, of a gift already checked to be changeable: its
 * status, the donor's totals, the account's count, its open flags closed, the history entry
 * (the reason typed) and the outbox entry. Also a station's gift voided there before it reached
 * the hub, as the hub records it (create.ts, `voided`).
 */
export async function applyVoid(
  trx: Db,
  row: DonationRow,
  reason: string | null,
  asker: ChangeAsker,
  at: string,
  actor: Actor | null | undefined,
): Promise<void> {
  await trx
    .updateTable('donations')
    .set({ status: 'voided', updatedAt: at })
    .where('id', '=', row.id)
    .execute();
  await recomputeContactTotals(trx, row.contactId);
  await bumpCounters(trx, row.accountId, { donations: -1 });
  await trx
    .updateTable('limitFlags')
    .set({ state: 'reviewed', resolvedAt: at, resolutionNote: 'gift voided' })
    .where('donationId', '=', row.id)
    .where('state', '=', 'open')
    .execute();
  await addHistory(
    trx,
    row.id,
    'voided',
    reason,
    { from: row.status, to: 'voided', ...askerDetail(asker) },
    at,
    actor,
  );
  await logChange(trx, {
    accountId: row.accountId,
    entityType: 'donation',
    entityId: row.id,
    op: 'update',
    fields: ['status'],
    at,
  });
}

/** Who asked, in a history entry: made at a hub, and the station whose key asked (absent: not a station). */
function askerDetail(asker: ChangeAsker): Record<string, unknown> {
  return {
    ...(asker.atHub || asker.stationId ? { hub: true } : {}),
    ...(asker.stationId ? { station: asker.stationId } : {}),
  };
}

/**
 * A correction's history entry: the fields sent, and each one that changed with its value
 * before and after (in the API's shape: `donationAmount` in dollars), so a screen can say
 * "amount $500.00 → $50.00".
 */
function correctionDetail(
  row: DonationRow,
  updated: Partial<DonationRow>,
  fields: string[],
  asker: ChangeAsker,
): Record<string, unknown> {
  const before: Record<string, unknown> = donationFromRow(row);
  const after: Record<string, unknown> = donationFromRow({ ...row, ...updated });
  const changes = fields
    .filter((f) => f in before && JSON.stringify(before[f]) !== JSON.stringify(after[f]))
    .map((f) => ({ field: f, before: before[f] ?? null, after: after[f] ?? null }));
  return { fields, changes, ...askerDetail(asker) };
}
