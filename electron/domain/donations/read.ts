/**
 * A donation's full record as the app shows it (donor, campaign, who it is credited to and
 * raised by, open limit flag, where it stands with HQ), one by id or a gift-entry batch's in
 * the order they were typed.
 */
import type { DonationChange, DonationDetail } from '#shared/schemas/donations.ts';
import type { ExpressionBuilder } from 'kysely';
import { reusable } from '../../db/bulk.ts';
import type { Database, DonationsTable } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { laterChangesOf } from './later-changes.ts';
import { donationFromRow } from '../row-mappers.ts';

/** One name part of the person a gift credits or was raised by, by key (null: none named). */
function personColumn(
  eb: ExpressionBuilder<Database & { d: DonationsTable }, 'd'>,
  ref: 'd.onBehalfOfContactId' | 'd.facilitatedByContactId',
  column: 'p.firstName' | 'p.lastName',
) {
  return eb.selectFrom('contacts as p').select(column).whereRef('p.id', '=', ref);
}

/**
 * The full records of donations, as the app shows them. Only the donor and the gift's sync
 * rows are joined; the campaign's name, the credited and raising people's names and the
 * remote's kind are scalar subqueries by key. With all of them joined, PostgreSQL searched the
 * join orders of eight tables for every gift read: 4.4–5.5 ms of planning against 0.1 ms of
 * running, on every save in gift entry (bench/RESULTS.md, gift entry on PostgreSQL).
 */
function detailQuery(db: Db, accountId: string) {
  return (
    db
      .selectFrom('donations as d')
      .innerJoin('contacts as c', 'c.id', 'd.contactId')
      .selectAll('d')
      .select(['c.firstName', 'c.lastName'])
      .select((eb) => [
        eb
          .selectFrom('campaigns as m')
          .select('m.name')
          .whereRef('m.id', '=', 'd.campaignId')
          .as('campaignName'),
        personColumn(eb, 'd.onBehalfOfContactId', 'p.firstName').as('onBehalfOfFirstName'),
        personColumn(eb, 'd.onBehalfOfContactId', 'p.lastName').as('onBehalfOfLastName'),
        personColumn(eb, 'd.facilitatedByContactId', 'p.firstName').as('facilitatedByFirstName'),
        personColumn(eb, 'd.facilitatedByContactId', 'p.lastName').as('facilitatedByLastName'),
        eb
          .exists(
            eb
              .selectFrom('limitFlags as f')
              .select('f.id')
              .whereRef('f.donationId', '=', 'd.id')
              .where('f.state', '=', 'open'),
          )
          .as('flagged'),
        eb
          .selectFrom('syncRemotes as sr')
          .select('sr.kind')
          .whereRef('sr.accountId', '=', 'd.accountId')
          .as('syncUpstream'),
      ])
      // Its sync to HQ (the sync engine's tables): the HQ id once sent, the push state.
      .leftJoin('syncLinks as sl', (j) =>
        j.onRef('sl.localId', '=', 'd.id').on('sl.entityType', '=', 'donation'),
      )
      .leftJoin('syncItems as si', (j) =>
        j.onRef('si.entityId', '=', 'd.id').on('si.entityType', '=', 'donation'),
      )
      .select([
        'sl.remoteId as syncRemoteId',
        'sl.source as syncLinkSource',
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
  syncUpstream: 'hq' | 'hub' | null;
  syncLinkSource: string | null;
  syncRemoteId: string | null;
  syncState: string | null;
  syncReason: string | null;
  syncFirstAttemptAt: string | null;
  syncLastError: string | null;
}): DonationDetail['sync'] {
  const upstream = r.syncUpstream === 'hub' ? 'hub' : 'hq';
  if (upstream === 'hub') return hubSyncOf(r);
  if (r.syncRemoteId !== null) {
    return {
      upstream,
      state: 'sent',
      readOnly: true,
      reason: "Sent to HQ; HQ's API cannot change a gift, so it is read-only here.",
      remoteId: r.syncRemoteId,
      firstAttemptAt: r.syncFirstAttemptAt,
    };
  }
  if (r.syncState === 'in_flight' || r.syncState === 'unknown') {
    return {
      upstream,
      state: 'sending',
      readOnly: true,
      reason: 'Being sent to HQ (or its last attempt is being checked): read-only until that is settled.',
      remoteId: null,
      firstAttemptAt: r.syncFirstAttemptAt,
    };
  }
  if (r.status === 'voided')
    return {
      upstream,
      state: 'not_sent',
      readOnly: true,
      reason: 'Voided: it will never be sent to HQ.',
      remoteId: null,
      firstAttemptAt: r.syncFirstAttemptAt,
    };
  if (r.syncState === 'attention')
    return {
      upstream,
      state: 'needs_attention',
      readOnly: false,
      reason: r.syncReason,
      remoteId: null,
      firstAttemptAt: r.syncFirstAttemptAt,
    };
  return {
    upstream,
    state: 'not_sent',
    readOnly: false,
    reason: r.syncLastError,
    remoteId: null,
    firstAttemptAt: r.syncFirstAttemptAt,
  };
}

/**
 * At a station of an event hub: a gift the hub has can still be corrected or voided (the
 * server asks the hub, which refuses once it sent the gift to HQ); one being handed to it
 * waits for that answer; a voided one stays voided.
 */
function hubSyncOf(r: Parameters<typeof syncOf>[0]): DonationDetail['sync'] {
  const base = { upstream: 'hub' as const, remoteId: r.syncRemoteId, firstAttemptAt: r.syncFirstAttemptAt };
  if (r.status === 'voided')
    return { ...base, state: r.syncRemoteId ? 'sent' : 'not_sent', readOnly: true, reason: 'Voided.' };
  if (r.syncLinkSource === 'pulled')
    return {
      ...base,
      state: 'sent',
      readOnly: true,
      reason: 'Typed at another station or at the hub: it is changed at the hub.',
    };
  if (r.syncRemoteId !== null)
    return {
      ...base,
      state: 'sent',
      readOnly: false,
      reason: 'At the event hub: a correction or void is asked of the hub.',
    };
  if (r.syncState === 'in_flight' || r.syncState === 'unknown')
    return {
      ...base,
      state: 'sending',
      readOnly: true,
      reason: 'Being handed to the event hub: it can be changed once the hub has answered.',
    };
  if (r.syncState === 'attention')
    return { ...base, state: 'needs_attention', readOnly: false, reason: r.syncReason };
  return { ...base, state: 'not_sent', readOnly: false, reason: r.syncLastError };
}

type DetailRow = Awaited<ReturnType<ReturnType<typeof detailQuery>['executeTakeFirstOrThrow']>>;

/** A joined person's name, or null when the gift names no one there. */
const nameOf = (first: string | null, last: string | null) =>
  first === null && last === null ? null : `${first ?? ''} ${last ?? ''}`.trim();

function toDetail(r: DetailRow, changes: Map<string, DonationChange[]>): DonationDetail {
  return {
    ...donationFromRow(r),
    contactName: `${r.firstName} ${r.lastName}`.trim(),
    campaignName: r.campaignName,
    onBehalfOfName: nameOf(r.onBehalfOfFirstName, r.onBehalfOfLastName),
    facilitatedByName: nameOf(r.facilitatedByFirstName, r.facilitatedByLastName),
    flagged: Boolean(r.flagged),
    sync: syncOf(r),
    changes: changes.get(r.id) ?? [],
  };
}

/**
 * One gift's full record by id: read after every save in gift entry, so on PostgreSQL it is a
 * named statement, planned once per connection.
 */
const detailById = reusable((db, p) => detailQuery(db, p<string>(0)).where('d.id', '=', p<string>(1)), {
  named: true,
});

export async function getDonation(
  ctx: DomainContext,
  accountId: string,
  id: string,
): Promise<DonationDetail> {
  const r = (await detailById(ctx.store.db, [accountId, id])).rows[0] as DetailRow | undefined;
  if (!r) throw notFound('donation', 'id', id);
  return toDetail(r, await laterChangesOf(ctx.store.db, [id]));
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
  const changes = await laterChangesOf(
    ctx.store.db,
    rows.map((r) => r.id),
  );
  return { data: rows.map((r) => toDetail(r, changes)), total: Number(n.n) };
}
