/**
 * The contact list (the remote API's shape): sorted by a column or by relevance, searched
 * (search.ts), paged by offset.
 */
import type { ContactList, ContactListItem, ContactListQuery } from '#shared/schemas/contacts.ts';
import type { Db } from '../../db/store.ts';
import { readCounters } from '../counters.ts';
import { heldSetApplies, heldSetPage } from './held-set.ts';
import { type OrderTerm, countedSearchPage, creationOrderPage, searchPageIds } from './search.ts';
import { relevancePage } from './relevance.ts';
import type { DomainContext } from '../context.ts';

const SORT_COLUMN = {
  firstName: 'firstName',
  lastName: 'lastName',
  email: 'email',
  createdAt: 'createdAt',
} as const;

export async function listContacts(ctx: DomainContext, q: ContactListQuery): Promise<ContactList> {
  const db = ctx.store.db;
  const limit = q.limit ?? 20;
  const offset = q.offset ?? 0;
  const search = q.search;

  if (q.sortBy === 'relevance') {
    const { ids, total } = await relevancePage(ctx, q.accountId, search, offset, limit);
    return { data: await contactItems(db, q.accountId, ids), total, limit, offset };
  }

  const direction = q.sortOrder ?? 'desc';
  const column = SORT_COLUMN[q.sortBy ?? 'createdAt'];
  // A missing email sorts before every other ascending and after every other descending,
  // on both engines; the other columns are never empty.
  const order: OrderTerm[] = [
    {
      column,
      dir: direction,
      ...(column === 'email' ? { nulls: direction === 'asc' ? ('first' as const) : ('last' as const) } : {}),
    },
    { column: 'id', dir: direction },
  ];
  if (search !== undefined) {
    const page = { accountId: q.accountId, text: search, order, skip: offset, take: limit };
    // Creation order: the page from the index's newest matches, then the total alone.
    const newest = await creationOrderPage(ctx, page);
    const counted = newest ? await ctx.store.search.count(search, q.accountId) : null;
    if (newest && counted !== null)
      return { data: await contactItems(db, q.accountId, newest), total: counted, limit, offset };
    // The total and the page from one read of the match set where reading it is what costs
    // (held-set.ts heldSetPage), else in one statement where the engine builds the match set to count it
    // anyway (search.ts countedSearchPage).
    const both = heldSetApplies(ctx, page)
      ? await heldSetPage(ctx, page)
      : await countedSearchPage(ctx, page);
    if (both)
      return { data: await contactItems(db, q.accountId, both.ids), total: both.total, limit, offset };
  }
  // Else the total first, driven by the full-text match (account-scoped:
  // ContactSearch.count), then the page (search.ts).
  const counted = search !== undefined ? await ctx.store.search.count(search, q.accountId) : null;
  if (counted !== null && search !== undefined) {
    const ids = await searchPageIds(ctx, {
      accountId: q.accountId,
      text: search,
      size: counted,
      order,
      skip: offset,
      take: limit,
    });
    return { data: await contactItems(db, q.accountId, ids), total: counted, limit, offset };
  }
  const total = (await readCounters(db, q.accountId)).contacts;
  // The page's ids first (read off the order's index), then their rows.
  const page = await db
    .selectFrom('contacts')
    .where('accountId', '=', q.accountId)
    .select('id')
    // PostgreSQL is told SQLite's own null order for email; the other columns are never empty:
    // no null order, so PostgreSQL reads them off their indexes as they are.
    .orderBy(column, (ob) =>
      column !== 'email'
        ? direction === 'asc'
          ? ob.asc()
          : ob.desc()
        : direction === 'asc'
          ? ob.asc().nullsFirst()
          : ob.desc().nullsLast(),
    )
    .orderBy('id', direction)
    .limit(limit)
    .offset(offset)
    .execute();
  return {
    data: await contactItems(
      db,
      q.accountId,
      page.map((r) => r.id),
    ),
    total,
    limit,
    offset,
  };
}

/** The list rows of `ids`, in that order; a contact deleted since the ids were read is left out. */
async function contactItems(db: Db, accountId: string, ids: readonly string[]): Promise<ContactListItem[]> {
  if (ids.length === 0) return [];
  // By id alone (the ids are the account's): with an account condition too, the planner walked
  // the account's index instead of looking the page's ids up (1,000,000 entries).
  const rows = await db
    .selectFrom('contacts')
    .select([
      'id',
      'accountId',
      'firstName',
      'lastName',
      'email',
      'phone',
      'organization',
      'createdAt',
      'updatedAt',
    ])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(
    rows.filter((r) => r.accountId === accountId).map(({ accountId: _, ...r }) => [r.id, r]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}
