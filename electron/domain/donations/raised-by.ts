/**
 * Soft credit and bundling, read side: what each host raised (the completed gifts naming them
 * as facilitatedByContactId) in a scope, and a contact's credits (gifts naming them as
 * onBehalfOfContactId, another contact being the legal donor) with what they raised. Neither
 * moves anyone's totals or limits: those stay the legal donor's (D6). Sums in integer cents;
 * dollars only at the edge.
 */
import { toIsoInstant, toRangeEnd } from '#shared/dates.ts';
import { centsToDollars } from '#shared/money.ts';
import type { ContactCredits, RaisedByQuery, RaisedByReport } from '#shared/schemas/raised-by.ts';
import type { DomainContext } from '../context.ts';
import { invalidField, notFound } from '../errors.ts';

/** The most credits a contact page lists (newest first); the count and total cover all. */
const MAX_CREDITS = 100;

async function requireInAccount(
  ctx: DomainContext,
  table: 'campaigns' | 'batches' | 'contacts',
  accountId: string,
  id: string,
  noun: string,
  field: string,
): Promise<void> {
  const row = await ctx.store.db
    .selectFrom(table)
    .select('id')
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!row) throw notFound(noun, field, id);
}

/** Per host: completed gifts raised, their total and their distinct donors, largest total first. */
export async function raisedByReport(ctx: DomainContext, q: RaisedByQuery): Promise<RaisedByReport> {
  const from = q.startDate !== undefined ? toIsoInstant(q.startDate) : null;
  const to = q.endDate !== undefined ? toRangeEnd(q.endDate) : null;
  if (from && to && from > to) throw invalidField('endDate', 'must not be before startDate');
  const campaignId = q.campaignId ?? null;
  const batchId = q.batchId ?? null;
  if (campaignId) await requireInAccount(ctx, 'campaigns', q.accountId, campaignId, 'campaign', 'campaignId');
  if (batchId) await requireInAccount(ctx, 'batches', q.accountId, batchId, 'batch', 'batchId');

  let scope = ctx.store.db
    .selectFrom('donations as d')
    .innerJoin('contacts as h', 'h.id', 'd.facilitatedByContactId')
    .where('d.accountId', '=', q.accountId)
    .where('d.status', '=', 'completed');
  if (from) scope = scope.where('d.donationDate', '>=', from);
  if (to) scope = scope.where('d.donationDate', '<=', to);
  if (campaignId) scope = scope.where('d.campaignId', '=', campaignId);
  if (batchId) scope = scope.where('d.batchId', '=', batchId);
  const rows = await scope
    .select((eb) => [
      'h.id as contactId',
      'h.firstName',
      'h.lastName',
      'h.organization',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('d.amountCents').as('cents'),
      eb.fn.count<number>('d.contactId').distinct().as('donors'),
    ])
    .groupBy(['h.id', 'h.firstName', 'h.lastName', 'h.organization'])
    .execute();

  const hosts = rows
    .map((r) => ({
      contactId: r.contactId,
      firstName: r.firstName,
      lastName: r.lastName,
      organization: r.organization,
      count: Number(r.n),
      cents: Number(r.cents ?? 0),
      donors: Number(r.donors),
    }))
    .sort(
      (a, b) =>
        b.cents - a.cents ||
        b.count - a.count ||
        `${a.lastName} ${a.firstName}`.localeCompare(`${b.lastName} ${b.firstName}`) ||
        (a.contactId < b.contactId ? -1 : 1),
    )
    .map(({ cents, ...h }) => ({ ...h, total: centsToDollars(cents) }));
  return { startDate: from, endDate: to, campaignId, batchId, hosts };
}

/** A contact's credits (gifts credited to them, another the legal donor) and what they raised. */
export async function contactCredits(
  ctx: DomainContext,
  accountId: string,
  contactId: string,
): Promise<ContactCredits> {
  await requireInAccount(ctx, 'contacts', accountId, contactId, 'contact', 'contactId');
  const db = ctx.store.db;
  const credited = db
    .selectFrom('donations as d')
    .where('d.accountId', '=', accountId)
    .where('d.onBehalfOfContactId', '=', contactId);
  const rows = await credited
    .innerJoin('contacts as c', 'c.id', 'd.contactId')
    .select([
      'd.id',
      'd.amountCents',
      'd.donationDate',
      'd.status',
      'd.contactId',
      'd.isRecurring',
      'c.firstName',
      'c.lastName',
      'c.organization',
    ])
    .orderBy('d.donationDate', 'desc')
    .orderBy('d.id', 'desc')
    .limit(MAX_CREDITS)
    .execute();
  const all = await credited
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn
        .sum<number>(eb.case().when('d.status', '=', 'completed').then(eb.ref('d.amountCents')).else(0).end())
        .as('cents'),
    ])
    .executeTakeFirstOrThrow();
  const raised = await db
    .selectFrom('donations as d')
    .where('d.accountId', '=', accountId)
    .where('d.facilitatedByContactId', '=', contactId)
    .where('d.status', '=', 'completed')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('d.amountCents').as('cents'),
      eb.fn.count<number>('d.contactId').distinct().as('donors'),
    ])
    .executeTakeFirstOrThrow();
  return {
    credits: rows.map((r) => ({
      donationId: r.id,
      donationAmount: centsToDollars(r.amountCents),
      donationDate: r.donationDate,
      status: r.status,
      contactId: r.contactId,
      donorName: `${r.firstName} ${r.lastName}`.trim() || (r.organization ?? ''),
      isRecurring: r.isRecurring === 1,
    })),
    creditCount: Number(all.n),
    creditTotal: centsToDollars(Number(all.cents ?? 0)),
    raised: {
      count: Number(raised.n),
      total: centsToDollars(Number(raised.cents ?? 0)),
      donors: Number(raised.donors),
    },
  };
}
