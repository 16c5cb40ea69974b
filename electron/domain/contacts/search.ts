/**
 * Contact search pages: one page of a search in any of the lists' orders, with the plan chosen
 * from the match set's size (store.search.count) and the account's (relevance order, built on
 * them: relevance.ts; a match set read once and held: held-set.ts).
 */
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import { type SearchTier, type SeqRange, type SeqSet, searchWords } from '../../db/contact-search.ts';
import { readCounters } from '../counters.ts';
import type { DomainContext } from '../context.ts';

/** A column a contact list is ordered by (each order ends with `id`, its own index's last column). */
export type ContactOrderColumn =
  'firstName' | 'lastName' | 'email' | 'createdAt' | 'lastDonationDate' | 'totalCents' | 'id';

export interface OrderTerm {
  column: ContactOrderColumn;
  dir: 'asc' | 'desc';
  /** Where a missing value goes; unset: the engine's own (only set where a column can be null). */
  nulls?: 'first' | 'last';
}

/** One page of a search, `take` ids after `skip`, out of a set of about `size` contacts. */
export interface SearchPage {
  accountId: string;
  text: string;
  /** The set (default: the whole match set). */
  tier?: SearchTier;
  /** Less this narrower set (relevance's lower tiers leave out the higher ones). */
  without?: SearchTier | null;
  size: number;
  order: readonly OrderTerm[];
  skip: number;
  take: number;
}

export const ORDER_SQL = (order: readonly OrderTerm[]) =>
  sql.join(
    order.map(
      (t) =>
        sql`${sql.ref(`contacts.${t.column}`)} ${sql.raw(t.dir)}${sql.raw(t.nulls ? ` nulls ${t.nulls}` : '')}`,
    ),
    sql`, `,
  );

/** The account's first `window` entries of an order's index: the given columns, in that order. */
export const orderWalk = (
  accountId: string,
  order: readonly OrderTerm[],
  cols: readonly string[],
  window: number,
) =>
  sql`select ${sql.join(cols.map((c) => sql.ref(`contacts.${c}`)))} from contacts
    where contacts.account_id = ${accountId} order by ${ORDER_SQL(order)} limit ${window}`;

/** SQLite: one page's ids in order as a JSON array; `from` is `contacts` or rows aliased as it. */
export const jsonPage = (
  from: RawBuilder<unknown>,
  where: Expression<SqlBool>,
  order: RawBuilder<unknown>,
  { take, skip }: { take: number; skip: number },
) => sql`(select json_group_array(contacts.id order by ${order}) from (select contacts.* from ${from}
    where ${where} order by ${order} limit ${take} offset ${skip}) as contacts)`;

/**
 * The ids of one page of search results. A narrow set is looked up and sorted; a broad one is
 * read off the order's index, probing the match set (pageFromOrderIndex). Probing needs the set
 * built first (SQLite: every match's rowid into a temporary index, ~10 ms for 50,000), so on
 * SQLite a broad page first tries a window: the first entries of the order's index that should
 * hold the page (from the set's density), whose contacts' seq span bounds the full-text read
 * (FTS5 seeks to a rowid range). When the order follows creation — newest first, or ids (ULIDs)
 * for contacts that never gave — the window is a few hundred consecutive seqs and the page
 * reads a few dozen matches. The window's result is only used when it is the true page:
 * `take` rows found among the window's entries (every match ordered before them is in the
 * window, and each of those is in the seq span), or the window was the whole account.
 */
export async function searchPageIds(ctx: DomainContext, p: SearchPage): Promise<string[]> {
  if (p.size <= 0 || p.take <= 0) return [];
  const { store } = ctx;
  const accountContacts = (await readCounters(store.db, p.accountId)).contacts;
  const upTo = p.skip + p.take;
  const drive = pageFromOrderIndex(p.size, upTo, accountContacts, store.engine === 'sqlite' ? 7 : 20)
    ? 'order'
    : 'match';
  const cond = (range?: SeqRange | SeqSet): Expression<SqlBool> => {
    const inTier = store.search.condition(
      p.text,
      p.accountId,
      drive,
      p.tier,
      range,
      20 * p.size >= accountContacts,
    )!;
    if (!p.without) return inTier;
    // Membership only (the row is the account's already): the set of every account, which
    // costs no intersection with the account's own long token list. The exact tier is a
    // handful: its set is not bounded by the window too.
    const bound = range && 'among' in range && p.without === 'exact' ? undefined : range;
    const outside = store.search.condition(p.text, p.accountId, 'order', p.without, bound)!;
    return sql<SqlBool>`(${inTier} and not ${outside})`;
  };
  const order = ORDER_SQL(p.order);
  if (drive === 'order' && store.engine === 'sqlite') {
    // The entries the density says hold the page, half as many again and a few more. If they
    // held too few matches, once more, sized by the density they showed (half as many again
    // as that says: a word whose first 18,000 entries hold 19 of the 20 wanted reads ~29,000
    // next, not 73,000), or four times as many if they held none. One statement takes the
    // window's seq span (a walk of the order's index reading the seq alone) and reads the page
    // off the index with the full-text read bounded by that span; a span too wide to be worth
    // it reads nothing (an empty range) and says so.
    const expected = (upTo * accountContacts) / p.size;
    const columns = ['seq', 'accountId', ...new Set(p.order.map((t) => t.column)), 'id'];
    const walk = (cols: readonly string[], window: number) => orderWalk(p.accountId, p.order, cols, window);
    let window = Math.min(accountContacts, Math.ceil(1.5 * expected) + 64);
    for (let attempt = 0; attempt < 2; attempt++) {
      // The span first, alone (a walk of the index reading the seq): a window too wide to be
      // worth it then costs that walk only, not the statement below too, which walks the window
      // twice more. The statement takes the span again, in its own snapshot, so what it returns
      // never depends on this one (a contact saved in between only changes the choice).
      const span = await sql<{ lo: number | null; hi: number | null; top: number | null }>`select
          min(seq) as lo, max(seq) as hi, (select max(seq) from contacts) as top
        from (${walk(['seq'], window)})`.execute(store.db);
      const s = span.rows[0];
      if (s?.lo == null || s.hi == null || s.top == null) break;
      let ids: string[];
      let n: number;
      if ((s.hi - s.lo + 1) * 4 > s.top) {
        // The window's seqs are spread out (an order that does not follow creation: last gift,
        // by relevance). A small window is still worth it: every match is read once and tested
        // against the window's seqs (ContactSearch's SeqSet), instead of each going into a set
        // the whole index walk probes. A large one costs more than that set (its entries, not
        // the matches, go into it): `jane` by last gift, raw, 1,000,000 contacts: 4.5 ms with a
        // window of 4,500 and 10–18 ms with one of 17,800, against 6.5 ms for the set.
        if (window > STREAMED_WINDOW) break;
        const among = walk(['seq'], window);
        const r = await sql<{ n: number; ids: string }>`select (select count(*) from (${among})) as n,
            ${jsonPage(sql`contacts`, cond({ among }), order, p)} as ids`.execute(store.db);
        n = Number(r.rows[0]?.n ?? 0);
        ids = JSON.parse(r.rows[0]?.ids ?? '[]') as string[];
      } else {
        const range: SeqRange = {
          from: sql<number>`(select lo from bounds)`,
          // Worth it when the span is a small part of every contact's seqs (else the bounded
          // read is about the whole set, and the window only adds its walk).
          to: sql<number>`(select case when (hi - lo + 1) * 4 > top then lo - 1 else hi end from bounds)`,
        };
        const r = await sql<{ meta: string; ids: string }>`with walk as (${walk(columns, window)}),
        bounds as (select min(seq) as lo, max(seq) as hi, count(*) as n,
          (select max(seq) from contacts) as top from (${walk(['seq'], window)}))
        select (select json_array(lo, hi, n, top) from bounds) as meta,
          ${jsonPage(sql`walk as contacts`, cond(range), order, p)} as ids`.execute(store.db);
        const [lo, hi, inWindow, top] = JSON.parse(r.rows[0]?.meta ?? '[]') as Array<number | null>;
        if (lo == null || hi == null || inWindow == null || top == null || (hi - lo + 1) * 4 > top) break;
        n = inWindow;
        ids = JSON.parse(r.rows[0]?.ids ?? '[]') as string[];
      }
      if (ids.length === p.take || n < window) return ids;
      if (window === accountContacts) break;
      // The matches the window held: the page's rows after the skipped ones (none: unknown).
      const held = ids.length > 0 ? p.skip + ids.length : 0;
      window = Math.min(
        accountContacts,
        held > 0 ? Math.ceil((1.5 * window * upTo) / held) + 64 : 4 * window,
      );
    }
  }
  const rows = await sql<{ id: string }>`select contacts.id from contacts where ${cond()}
    order by ${order} limit ${p.take} offset ${p.skip}`.execute(store.db);
  return rows.rows.map((r) => r.id);
}

/**
 * SQLite, creation order, the whole match set: the page read from the index's newest (or oldest)
 * matches by seq (ContactSearch.creationPage), which is the page where creation follows the
 * seqs, as it does but for contacts written out of order; cheaper than a window of the order
 * (searchPageIds) or the whole set held (heldSetPage), and it needs no count, so the caller
 * counts alone. Null where it does not apply or does not hold: the caller reads the page its
 * other ways.
 */
export async function creationOrderPage(
  ctx: DomainContext,
  p: Pick<SearchPage, 'accountId' | 'text' | 'order' | 'skip' | 'take' | 'tier' | 'without'>,
): Promise<string[] | null> {
  const dir = creationDir(p.order);
  if (!dir || p.tier || p.without || !ctx.store.search.creationPage) return null;
  return ctx.store.search.creationPage(p.text, p.accountId, dir, p.skip, p.take);
}

/** The direction of an order by creation (`createdAt`, then `id` the same way), else null. */
function creationDir(order: readonly OrderTerm[]): 'asc' | 'desc' | null {
  const [first, second, ...rest] = order;
  if (first?.column !== 'createdAt' || second?.column !== 'id' || rest.length > 0) return null;
  return first.dir === second.dir ? first.dir : null;
}

/**
 * One page of a search together with the size of its set (the tier's, `without` not taken
 * off), in one statement, where the engine counts a search only by building its match set
 * anyway, or reads several words' matches once for both (ContactSearch.matchSet: several
 * words, on PostgreSQL in every order, on SQLite in the orders it can walk): the set is built once and
 * both counted and paged from it, instead of a count and then a page that builds it again (or
 * tests and probes its words' ranges). The page looks each match up by seq (as an array: as a
 * semi-join, the planner, blind to the set's size, hashed it and read all 1,000,000 contacts
 * for "jane smith3" by relevance) and sorts them: the
 * set of several words is the intersection of their ranges, a few thousand contacts where
 * each word has tens of thousands. Null when the engine has no such set.
 */
export async function countedSearchPage(
  ctx: DomainContext,
  p: Omit<SearchPage, 'size'>,
): Promise<{ ids: string[]; total: number } | null> {
  const { store } = ctx;
  const sqlite = store.engine === 'sqlite';
  // The orders whose index holds the seq (creation, last gift: migrations contact-browse-indexes,
  // search-relevance) can instead be walked testing each entry against the set, hashed, without
  // reading a row: cheaper than looking every match up when the set is dense enough that the
  // page's entries come early (pageFromOrderIndex's rule). `jose smi` (3,907 matches): 5,000
  // index entries instead of 3,907 rows read at random, 16 ms of a 76-ms statement at load 6.
  const walkable = ['createdAt', 'lastDonationDate'].includes(p.order[0]?.column ?? '');
  // SQLite: only in an order whose index can be walked. In creation order its window (whose
  // seqs bound the full-text read) is cheap without the set, so the set is built only where it
  // is likely small: no one-letter word (`j s`, 17,355 matches: 10.6 ms without it, 15.9 with
  // it), cut past searchTuning.sqliteSetCap. Last-gift order builds the set anyway.
  if (sqlite && !walkable) return null;
  const byCreation = sqlite && p.order[0]?.column === 'createdAt';
  if (byCreation && searchWords(p.text).some((w) => w.length < 2)) return null;
  const cap = byCreation ? searchTuning.sqliteSetCap : undefined;
  const set = (await store.search.matchSet?.(p.text, p.accountId, p.tier ?? 'prefix', cap)) ?? null;
  if (set === null) return null;
  let outside = sql``;
  if (p.without) {
    const without = (await store.search.matchSet?.(p.text, p.accountId, p.without)) ?? null;
    outside = without
      ? sql` and contacts.seq not in (${without})`
      : sql` and not ${store.search.condition(p.text, p.accountId, 'match', p.without)!}`;
  }
  const order = ORDER_SQL(p.order);
  if (sqlite) {
    const upTo = p.skip + p.take;
    const accountContacts = (await readCounters(store.db, p.accountId)).contacts;
    const page = (account: RawBuilder<unknown>) =>
      jsonPage(
        sql`contacts`,
        sql<SqlBool>`${account} = ${p.accountId} and contacts.seq in (select seq from s)${outside}`,
        order,
        p,
      );
    const r = await sql<{ n: number; ids: string | null }>`with s as materialized (${set}),
        size as (select count(*) as n from s)
      select (select n from size) as n,
        case when (select n from size) > ${cap ?? Number.MAX_SAFE_INTEGER} then null
          when 20 * (select n from size) * (select n from size) > ${upTo} * ${accountContacts}
          then ${page(sql`contacts.account_id`)}
          else ${page(sql`+contacts.account_id`)} end as ids`.execute(store.db);
    const row = r.rows[0];
    if (row?.ids == null) return null;
    return { ids: JSON.parse(row.ids) as string[], total: Number(row.n) };
  }
  const lookup = sql`array(select contacts.id from contacts where contacts.account_id = ${p.accountId}
        and contacts.seq = any(array(select seq from s))${outside}
        order by ${order} limit ${p.take} offset ${p.skip})`;
  const ids = walkable
    ? sql`case when 20 * (select count(*) from s) * (select count(*) from s) > ${p.skip + p.take}::bigint * (select coalesce(sum(c.contacts), 0) from account_counter_slots c where c.account_id = ${p.accountId})
        then array(select contacts.id from contacts where contacts.account_id = ${p.accountId}
          and (contacts.seq in (select seq from s)) is true${outside}
          order by ${order} limit ${p.take} offset ${p.skip})
        else ${lookup} end`
    : lookup;
  const r = await sql<{ n: number | string; ids: string[] | null }>`with s as materialized (${set})
    select (select count(*) from s) as n, ${ids} as ids`.execute(store.db);
  const row = r.rows[0];
  return { ids: row?.ids ?? [], total: Number(row?.n ?? 0) };
}

/** The largest window whose spread-out seqs SQLite tests every match against (searchPageIds). */
export const STREAMED_WINDOW = 6_000;

/** SQLite search plans' thresholds, each measured; settings, so that a test can reach each plan. */
export const searchTuning = {
  /**
   * The largest set SQLite builds to count and page several words at once in creation order
   * (countedSearchPage): each member is an entry of a temporary index, about 0.2 µs, where the
   * count from the full-text index alone and the page's window cost less for a broad set.
   * Measured on 1,000,000 contacts: `org 17` (9,243 matches) 7.4 ms with the set against 8.2
   * without; `org 1` (92,518) 36 ms without it, 46 with it uncut. A set cut at the cap is not
   * used (the count and the window then run as for one word), at the price of its first part.
   * A test can make a small set broad.
   */
  sqliteSetCap: 20_000,
  /**
   * How many full-text matches a window test (relevance-words.ts: windowPage, wordsTierPage) reads
   * for the price of one entry walked by relevance's walkedPage: an entry walked, its row read
   * and its texts told, costs about 1.7 µs; the window test about 59 ns a match read and 0.56 µs
   * an entry of the window it builds (1,000,000 contacts: `jane` in the donor box, 650 entries
   * and 49,000 matches, 1.2 against 3.3 ms; `example42`, 3,200 entries and 10,000 matches, 5.0
   * against 2.4 ms). A one-word page, with its total or without, walks where its window is
   * shorter than the tier's matches (density × contacts) by that much. (Measured when every
   * entry of the window was read out; the walk now tells only the entries whose texts can hold
   * the word, about 1.05 µs an entry, and stops at the page's end, so the rule walks less often
   * than it could.) A test can make a small account walk.
   */
  sqliteWalkCost: 20,
};

/**
 * Whether one page of `matches` search results is cheaper read off the account's order index
 * (probing the match set; about `upTo` × `accountContacts` / `matches` entries walked) than by
 * looking up and sorting every match. `entriesPerMatch`: how many index entries walked cost
 * one match looked up — about 20 for one walk (measured on 1,000,000 contacts,
 * bench/search-sqlite.ts); SQLite's window walks half as many again twice (its seq span,
 * then the page), about 7: `tanaka12` (1,650 matches) 2.7 ms looked up against 6 ms through
 * an 18,000-entry window, `jose gar` (2,571) 5.7 ms against 3.5 ms.
 */
export function pageFromOrderIndex(
  matches: number,
  upTo: number,
  accountContacts: number,
  entriesPerMatch = 20,
): boolean {
  return matches > 0 && entriesPerMatch * matches * matches > upTo * accountContacts;
}
