/**
 * Reading contacts the way the app's contact screen does (GiftDesk extensions): a list of
 * summaries with giving totals, sortable by name, last gift, total given and creation, and
 * paged by offset over an index so the 100,000th contact costs what the first does; a
 * contact's giving history with its totals; and what deleting a contact would take with it.
 */
import { centsToDollars } from '#shared/money.ts';
import type {
  ContactDeletePreview,
  ContactDonation,
  ContactDonationList,
  ContactDonationsQuery,
  ContactSummary,
  ContactSummaryList,
  ContactSummaryQuery,
  ContactSummarySortField,
  GivingTotals,
} from '#shared/schemas/contact-views.ts';
import { readCounters } from '../counters.ts';
import {
  type ContactOrderColumn,
  type OrderTerm,
  countedSearchPage,
  creationOrderPage,
  searchPageIds,
} from './search.ts';
import { relevancePage } from './relevance.ts';
import { contactNotFound, getContactRow } from './read.ts';
import type { DomainContext } from '../context.ts';
import { donationAmountOf, donationFlagsOf } from '../row-mappers.ts';

type Direction = 'asc' | 'desc';

/** Natural direction of each order: names A→Z, the rest newest or largest first. */
const DEFAULT_ORDER: Record<ContactSummarySortField, Direction> = {
  name: 'asc',
  lastDonationDate: 'desc',
  totalDonations: 'desc',
  createdAt: 'desc',
  relevance: 'desc',
};

/**
 * The ids of one page of summaries, in order, read off the order's index alone (migration
 * contact-browse-indexes): skipping 99,900 contacts touches no table row and sorts nothing.
 */
export function contactSummaryPageQuery(
  ctx: DomainContext,
  q: ContactSummaryQuery & { sortBy?: Exclude<ContactSummarySortField, 'relevance'> },
  drive: 'match' | 'order' = 'match',
) {
  const sortBy = q.sortBy ?? 'name';
  const dir = q.sortOrder ?? DEFAULT_ORDER[sortBy];
  const cond = q.search !== undefined ? ctx.store.search.condition(q.search, q.accountId, drive) : null;
  // The search condition carries the account scope itself (see ContactSearch.condition).
  let page = ctx.store.db
    .selectFrom('contacts')
    .select('contacts.id')
    .where((eb) => cond ?? eb('contacts.accountId', '=', q.accountId));
  switch (sortBy) {
    case 'name':
      page = page.orderBy('contacts.lastName', dir).orderBy('contacts.firstName', dir);
      break;
    case 'lastDonationDate':
      // Never gave: first ascending, last descending, on both engines.
      page = page.orderBy('contacts.lastDonationDate', (ob) =>
        dir === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast(),
      );
      break;
    case 'totalDonations':
      page = page.orderBy('contacts.totalCents', dir);
      break;
    case 'createdAt':
      page = page.orderBy('contacts.createdAt', dir);
      break;
  }
  return page
    .orderBy('contacts.id', dir)
    .limit(q.limit ?? 20)
    .offset(q.offset ?? 0);
}

/** A summary order's columns, as contactSummaryPageQuery orders them. */
function summaryOrder(
  sortBy: Exclude<ContactSummarySortField, 'relevance'>,
  dir: 'asc' | 'desc',
): OrderTerm[] {
  const columns: Record<typeof sortBy, ContactOrderColumn[]> = {
    name: ['lastName', 'firstName'],
    lastDonationDate: ['lastDonationDate'],
    totalDonations: ['totalCents'],
    createdAt: ['createdAt'],
  };
  const nulls =
    sortBy === 'lastDonationDate' ? { nulls: dir === 'asc' ? ('first' as const) : ('last' as const) } : {};
  return [...columns[sortBy].map((column) => ({ column, dir, ...nulls })), { column: 'id', dir }];
}

export async function listContactSummaries(
  ctx: DomainContext,
  q: ContactSummaryQuery,
): Promise<ContactSummaryList> {
  const db = ctx.store.db;
  const limit = q.limit ?? 20;
  const offset = q.offset ?? 0;
  // A search is ranked by relevance unless another order is asked for (relevancePage).
  const sortBy = q.sortBy ?? (q.search !== undefined && q.search.trim() !== '' ? 'relevance' : 'name');
  const wantTotal = q.total !== 'false';
  let ids: string[];
  let total: number | null;
  if (sortBy === 'relevance') {
    // Without the total, the whole match set is only counted when the page reaches its last tier.
    ({ ids, total } = await relevancePage(ctx, q.accountId, q.search, offset, limit, { total: wantTotal }));
  } else {
    // Count and page in one statement where the engine builds the match set to count it
    // anyway; else the total first (from the full-text index alone where the engine can),
    // then the page: driven by the match, or read off the order's index for a broad match
    // (as listContacts).
    const order = summaryOrder(sortBy, q.sortOrder ?? DEFAULT_ORDER[sortBy]);
    const search =
      q.search !== undefined
        ? { accountId: q.accountId, text: q.search, order, skip: offset, take: limit }
        : null;
    // Creation order: the page from the index's newest matches first (creationOrderPage).
    const newest = search ? await creationOrderPage(ctx, search) : null;
    const both = search && !newest ? await countedSearchPage(ctx, search) : null;
    const counted = both || !search ? null : await ctx.store.search.count(search.text, q.accountId);
    if (both) {
      ({ ids, total } = both);
    } else if (search && counted !== null) {
      total = counted;
      ids = newest ?? (await searchPageIds(ctx, { ...search, size: counted }));
    } else {
      total = (await readCounters(db, q.accountId)).contacts;
      ids = (await contactSummaryPageQuery(ctx, { ...q, search: undefined, sortBy }).execute()).map(
        (r) => r.id,
      );
    }
  }
  const rows =
    ids.length === 0
      ? []
      : await db
          .selectFrom('contacts as c')
          .select([
            'c.id',
            'c.contactType',
            'c.status',
            'c.firstName',
            'c.lastName',
            'c.organization',
            'c.email',
            'c.phone',
            'c.tags',
            'c.totalCents',
            'c.lastDonationDate',
            'c.createdAt',
            'c.updatedAt',
          ])
          .select((eb) =>
            eb
              .selectFrom('contactAddresses as a')
              .select('a.city')
              .whereRef('a.contactId', '=', 'c.id')
              .orderBy('a.isPrimary', 'desc')
              .orderBy('a.position')
              .limit(1)
              .as('city'),
          )
          .where('c.id', 'in', ids)
          .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const data: ContactSummary[] = [];
  for (const id of ids) {
    const r = byId.get(id);
    if (!r) continue; // deleted between the two reads
    data.push({
      id: r.id,
      contactType: r.contactType,
      status: r.status,
      firstName: r.firstName,
      lastName: r.lastName,
      organization: r.organization,
      email: r.email,
      phone: r.phone,
      city: r.city ?? null,
      tags: JSON.parse(r.tags) as string[],
      totalDonations: centsToDollars(Number(r.totalCents)),
      lastDonationDate: r.lastDonationDate,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    });
  }

  // The other orders count for their plan anyway; `total=false` only leaves the figure out.
  return wantTotal && total !== null ? { data, total, limit, offset } : { data, limit, offset };
}

async function requireContact(ctx: DomainContext, accountId: string, id: string) {
  const row = await getContactRow(ctx.store.db, accountId, id);
  if (!row) throw contactNotFound(id);
  return row;
}

/** A contact's gifts, newest first (ties by id), with the totals of their whole history. */
export async function listContactDonations(
  ctx: DomainContext,
  accountId: string,
  contactId: string,
  q: ContactDonationsQuery,
): Promise<ContactDonationList> {
  await requireContact(ctx, accountId, contactId);
  const db = ctx.store.db;
  const limit = q.limit ?? 20;
  const offset = q.offset ?? 0;

  const rows = await db
    .selectFrom('donations as d')
    .leftJoin('campaigns as m', 'm.id', 'd.campaignId')
    .leftJoin('committees as k', 'k.id', 'd.committeeId')
    .leftJoin('donationAccounts as a', 'a.id', 'd.donationAccountId')
    .select([
      'd.id',
      'd.amountCents',
      'd.donationDate',
      'd.paymentMethod',
      'd.status',
      'd.campaignId',
      'm.name as campaignName',
      'd.committeeId',
      'k.name as committeeName',
      'd.donationAccountId',
      'a.name as donationAccountName',
      'd.electionType',
      'd.electionYear',
      'd.isAnonymous',
      'd.isRecurring',
      'd.thankYouSent',
      'd.notes',
      'd.createdAt',
    ])
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
    .where('d.contactId', '=', contactId)
    .where('d.accountId', '=', accountId)
    // Newest first: by the gift's date, then by when it was entered (an event's hub and its
    // stations hold the same entry time and station for a gift, never the same id for a gift a
    // station typed), so the list has one order at every end of an event; ids only part the
    // gifts one end entered in the same millisecond (their ids there are in entry order).
    .orderBy('d.donationDate', 'desc')
    .orderBy('d.createdAt', 'desc')
    .orderBy((eb) => eb.fn.coalesce('d.stationId', eb.val('')), 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();

  // The whole history, narrow: a donor has hundreds of gifts at most, not millions.
  const all = await db
    .selectFrom('donations')
    .select(['amountCents', 'donationDate', 'status'])
    .where('contactId', '=', contactId)
    .where('accountId', '=', accountId)
    .execute();

  const donations: ContactDonation[] = rows.map((r) => ({
    id: r.id,
    donationAmount: donationAmountOf(r.amountCents),
    donationDate: r.donationDate,
    paymentMethod: r.paymentMethod,
    status: r.status,
    campaignId: r.campaignId,
    campaignName: r.campaignName,
    committeeId: r.committeeId,
    committeeName: r.committeeName,
    donationAccountId: r.donationAccountId,
    donationAccountName: r.donationAccountName,
    electionType: r.electionType,
    electionYear: r.electionYear,
    ...donationFlagsOf(r),
    notes: r.notes,
    flagged: Boolean(r.flagged),
    createdAt: r.createdAt,
  }));
  return { donations, total: all.length, limit, offset, totals: givingTotals(all) };
}

/** Totals of a donor's gifts, in integer cents until the edge. */
export function givingTotals(
  gifts: ReadonlyArray<{ amountCents: number; donationDate: string; status: string }>,
): GivingTotals {
  let completedCount = 0;
  let completedCents = 0;
  let refundedCents = 0;
  let disputedCents = 0;
  let largest: number | null = null;
  let first: string | null = null;
  let last: string | null = null;
  const years = new Map<number, { cents: number; count: number }>();
  for (const g of gifts) {
    const cents = Number(g.amountCents);
    if (first === null || g.donationDate < first) first = g.donationDate;
    if (last === null || g.donationDate > last) last = g.donationDate;
    if (g.status === 'refunded') refundedCents += cents;
    else if (g.status === 'disputed') disputedCents += cents;
    if (g.status !== 'completed') continue;
    completedCount++;
    completedCents += cents;
    if (largest === null || cents > largest) largest = cents;
    const year = Number(g.donationDate.slice(0, 4));
    const y = years.get(year) ?? { cents: 0, count: 0 };
    y.cents += cents;
    y.count++;
    years.set(year, y);
  }
  return {
    donationCount: gifts.length,
    completedCount,
    totalDonations: centsToDollars(completedCents),
    refundedTotal: centsToDollars(refundedCents),
    disputedTotal: centsToDollars(disputedCents),
    averageGift: completedCount > 0 ? centsToDollars(Math.round(completedCents / completedCount)) : null,
    largestGift: largest === null ? null : centsToDollars(largest),
    firstDonationDate: first,
    lastDonationDate: last,
    byYear: [...years.entries()]
      .sort(([a], [b]) => a - b)
      .map(([year, y]) => ({ year, total: centsToDollars(y.cents), count: y.count })),
  };
}

/** What DELETE /contacts/:id would remove: the contact's gifts (every status) and the links other gifts lose. */
export async function contactDeletePreview(
  ctx: DomainContext,
  accountId: string,
  contactId: string,
): Promise<ContactDeletePreview> {
  const contact = await requireContact(ctx, accountId, contactId);
  const db = ctx.store.db;
  const byStatus = await db
    .selectFrom('donations')
    .select((eb) => [
      'status',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('amountCents').as('cents'),
    ])
    .where('contactId', '=', contactId)
    .groupBy('status')
    .execute();
  const linked = await db
    .selectFrom('donations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('accountId', '=', accountId)
    .where('contactId', '!=', contactId)
    .where((eb) =>
      eb.or([eb('onBehalfOfContactId', '=', contactId), eb('facilitatedByContactId', '=', contactId)]),
    )
    .executeTakeFirstOrThrow();
  let donationCount = 0;
  let cents = 0;
  let completedCount = 0;
  let completedCents = 0;
  for (const s of byStatus) {
    donationCount += Number(s.n);
    cents += Number(s.cents ?? 0);
    if (s.status === 'completed') {
      completedCount += Number(s.n);
      completedCents += Number(s.cents ?? 0);
    }
  }
  return {
    contactId,
    contactName: `${contact.firstName} ${contact.lastName}`.trim(),
    donationCount,
    donationTotal: centsToDollars(cents),
    completedCount,
    completedTotal: centsToDollars(completedCents),
    linkedDonationCount: Number(linked.n),
  };
}
