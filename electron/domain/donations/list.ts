/**
 * The donation list (newest first, an optional date range, paged by offset): its statements
 * compiled once, the total from the account's counter when unfiltered.
 */
import { toIsoInstant, toRangeEnd } from '#shared/dates.ts';
import type { DonationList, DonationListQuery } from '#shared/schemas/donations.ts';
import type { InferResult } from 'kysely';
import { reusable } from '../../db/bulk.ts';
import type { Db } from '../../db/store.ts';
import { readCounters } from '../counters.ts';
import type { DomainContext } from '../context.ts';
import { invalidField } from '../errors.ts';
import { donationAmountOf } from '../row-mappers.ts';

/** The list query's date range as stored instants (null: open at that end). */
function listRange(q: DonationListQuery): { from: string | null; to: string | null } {
  const from = q.startDate !== undefined ? toIsoInstant(q.startDate) : null;
  const to = q.endDate !== undefined ? toRangeEnd(q.endDate) : null;
  if (from && to && from > to) throw invalidField('endDate', 'must not be before startDate');
  return { from, to };
}

/**
 * The gifts a list query covers: the account's, not voided, in the date range (a bound that is
 * null is left out). The values may be `reusable`'s placeholders.
 */
function listedDonations(db: Db, accountId: string, from: string | null, to: string | null) {
  // A voided gift (cancelled before it reached HQ) is not a gift: not listed, not counted.
  let filtered = db
    .selectFrom('donations')
    .where('accountId', '=', accountId)
    .where('status', '!=', 'voided');
  if (from !== null) filtered = filtered.where('donationDate', '>=', from);
  if (to !== null) filtered = filtered.where('donationDate', '<=', to);
  return filtered;
}

/** One page of the list's ids, newest first (ties by id, descending). */
function pageOf(
  db: Db,
  accountId: string,
  from: string | null,
  to: string | null,
  limit: number,
  offset: number,
) {
  return listedDonations(db, accountId, from, to)
    .select(['id', 'donationDate'])
    .orderBy('donationDate', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset);
}

/**
 * One page of the list's ids, newest first (ties by id, descending), read off the
 * (account_id, donation_date, id, status) index alone: the skipped gifts cost an index entry
 * each, never a table row (migration donations-list-index). Exported for the plan's test.
 */
export function donationPageQuery(ctx: DomainContext, q: DonationListQuery) {
  const { from, to } = listRange(q);
  return pageOf(ctx.store.db, q.accountId, from, to, q.limit ?? 20, q.offset ?? 0);
}

/** The page's ids first, then only the page's rows joined to their donor and campaign. */
function pageRowsOf(db: Db, page: ReturnType<typeof pageOf>) {
  return db
    .selectFrom(page.as('p'))
    .innerJoin('donations as d', 'd.id', 'p.id')
    .innerJoin('contacts as c', 'c.id', 'd.contactId')
    .leftJoin('campaigns as m', 'm.id', 'd.campaignId')
    .select([
      'd.id',
      'd.contactId',
      'c.firstName',
      'c.lastName',
      'd.amountCents',
      'd.donationDate',
      'd.paymentMethod',
      'd.campaignId',
      'm.name as campaignName',
      'd.notes',
      'd.createdAt',
    ])
    .orderBy('d.donationDate', 'desc')
    .orderBy('d.id', 'desc');
}
type ListedRow = InferResult<ReturnType<typeof pageRowsOf>>[number];

/**
 * The list's two statements, compiled once per dialect for each shape of date range (none,
 * from, to, both: index 2·from + to), run with [accountId, from, to, limit, offset]: a page
 * costs no Kysely building or compiling per request (bench/RESULTS.md, donations list).
 */
const RANGES = [
  [false, false],
  [false, true],
  [true, false],
  [true, true],
] as const;
const listPage = RANGES.map(([f, t]) =>
  reusable((db, p) =>
    pageRowsOf(db, pageOf(db, p(0), f ? p(1) : null, t ? p(2) : null, p<number>(3), p<number>(4))),
  ),
);
const listCount = RANGES.map(([f, t]) =>
  reusable((db, p) =>
    listedDonations(db, p(0), f ? p(1) : null, t ? p(2) : null).select((eb) =>
      eb.fn.countAll<number>().as('n'),
    ),
  ),
);

export async function listDonations(ctx: DomainContext, q: DonationListQuery): Promise<DonationList> {
  const db = ctx.store.db;
  const limit = q.limit ?? 20;
  const offset = q.offset ?? 0;
  const { from, to } = listRange(q);
  const shape = (from !== null ? 2 : 0) + (to !== null ? 1 : 0);
  const values = [q.accountId, from, to, limit, offset];
  const rows = (await listPage[shape]!(db, values)).rows as ListedRow[];

  let total: number;
  if (shape !== 0) {
    const r = (await listCount[shape]!(db, values)).rows[0] as { n: number | string | bigint };
    total = Number(r.n);
  } else {
    // Unfiltered: the account's counter (kept with every write), not a count of a million rows.
    total = (await readCounters(db, q.accountId)).donations;
  }
  const donations = new Array<DonationList['donations'][number]>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    donations[i] = {
      id: r.id,
      contactId: r.contactId,
      contactName: `${r.firstName} ${r.lastName}`.trim(),
      donationAmount: donationAmountOf(r.amountCents),
      donationDate: r.donationDate,
      paymentMethod: r.paymentMethod,
      campaignId: r.campaignId,
      campaignName: r.campaignName,
      notes: r.notes,
      createdAt: r.createdAt,
    };
  }
  return { donations, total, limit, offset };
}
