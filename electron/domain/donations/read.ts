/**
 * A donation's full record as the app shows it (donor, campaign, open limit flag, where it
 * stands with HQ), one by id or a gift-entry batch's in the order they were typed.
 */
import type { DonationDetail } from '#shared/schemas/donations.ts';
import type { Db } from '../../db/store.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { donationFromRow } from '../row-mappers.ts';

/** The full records of donations, as the app shows them. */
function detailQuery(db: Db, accountId: string) {
  return (
    db
      .selectFrom('donations as d')
      .innerJoin('contacts as c', 'c.id', 'd.contactId')
      .leftJoin('campaigns as m', 'm.id', 'd.campaignId')
      .selectAll('d')
      .select(['c.firstName', 'c.lastName', 'm.name as campaignName'])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('limitFlags as f')
              .select('f.id')
              .whereRef('f.donationId', '=', 'd.id')
              .where('f.state', '=', 'open'),
          )
          .as('flagged'),
      )
      // Its sync to HQ (the sync engine's tables): the HQ id once sent, the push state.
      .leftJoin('syncLinks as sl', (j) =>
        j.onRef('sl.localId', '=', 'd.id').on('sl.entityType', '=', 'donation'),
      )
      .leftJoin('syncItems as si', (j) =>
        j.onRef('si.entityId', '=', 'd.id').on('si.entityType', '=', 'donation'),
      )
      .select([
        'sl.remoteId as syncRemoteId',
        'si.state as syncState',
        'si.attentionReason as syncReason',
        'si.firstAttemptAt as syncFirstAttemptAt',
        'si.lastError as syncLastError',
      ])
      .where('d.accountId', '=', accountId)
  );
}

/** Where a gift stands with HQ, and why it can or cannot be changed here. */
function syncOf(r: {
  status: string;
  syncRemoteId: string | null;
  syncState: string | null;
  syncReason: string | null;
  syncFirstAttemptAt: string | null;
  syncLastError: string | null;
}): DonationDetail['sync'] {
  if (r.syncRemoteId !== null) {
    return {
      state: 'sent',
      readOnly: true,
      reason: "Sent to HQ; HQ's API cannot change a gift, so it is read-only here.",
      remoteId: r.syncRemoteId,
      firstAttemptAt: r.syncFirstAttemptAt,
    };
  }
  if (r.syncState === 'in_flight' || r.syncState === 'unknown') {
    return {
      state: 'sending',
      readOnly: true,
      reason: 'Being sent to HQ (or its last attempt is being checked): read-only until that is settled.',
      remoteId: null,
      firstAttemptAt: r.syncFirstAttemptAt,
    };
  }
  if (r.status === 'voided')
    return {
      state: 'not_sent',
      readOnly: true,
      reason: 'Voided: it will never be sent to HQ.',
      remoteId: null,
      firstAttemptAt: r.syncFirstAttemptAt,
    };
  if (r.syncState === 'attention')
    return {
      state: 'needs_attention',
      readOnly: false,
      reason: r.syncReason,
      remoteId: null,
      firstAttemptAt: r.syncFirstAttemptAt,
    };
  return {
    state: 'not_sent',
    readOnly: false,
    reason: r.syncLastError,
    remoteId: null,
    firstAttemptAt: r.syncFirstAttemptAt,
  };
}

type DetailRow = Awaited<ReturnType<ReturnType<typeof detailQuery>['executeTakeFirstOrThrow']>>;

function toDetail(r: DetailRow): DonationDetail {
  return {
    ...donationFromRow(r),
    contactName: `${r.firstName} ${r.lastName}`.trim(),
    campaignName: r.campaignName,
    flagged: Boolean(r.flagged),
    sync: syncOf(r),
  };
}

export async function getDonation(
  ctx: DomainContext,
  accountId: string,
  id: string,
): Promise<DonationDetail> {
  const r = await detailQuery(ctx.store.db, accountId).where('d.id', '=', id).executeTakeFirst();
  if (!r) throw notFound('donation', 'id', id);
  return toDetail(r);
}

/** A batch's gifts in full, in the order they were typed (the batch must exist: the caller checks). */
export async function listBatchDonations(
  ctx: DomainContext,
  accountId: string,
  batchId: string,
  page: { limit: number; offset: number },
): Promise<{ data: DonationDetail[]; total: number }> {
  const rows = await detailQuery(ctx.store.db, accountId)
    .where('d.batchId', '=', batchId)
    .orderBy('d.createdAt')
    .orderBy('d.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const n = await ctx.store.db
    .selectFrom('donations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('batchId', '=', batchId)
    .where('accountId', '=', accountId)
    .executeTakeFirstOrThrow();
  return { data: rows.map(toDetail), total: Number(n.n) };
}
