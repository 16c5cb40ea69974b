/**
 * Contact search in relevance order: exact > every word whole > prefix, the most recent last
 * gift breaking ties (relevancePage), built on search.ts's pages; on SQLite, a page of one
 * word's tier read with its total from one read of the full-text index (windowPage).
 */
import { type SqlBool, sql } from 'kysely';
import { type SearchTier, searchWords } from '../../db/contact-search.ts';
import { readCounters } from '../counters.ts';
import type { DomainContext } from '../context.ts';
import {
  ORDER_SQL,
  type OrderTerm,
  STREAMED_WINDOW,
  countedSearchPage,
  heldSetPage,
  jsonPage,
  orderWalk,
  searchPageIds,
  searchTuning,
} from './search.ts';

/** Relevance's tie-break: the most recent last gift first (never gave: last), then the newest id. */
const BY_LAST_GIFT: readonly OrderTerm[] = [
  { column: 'lastDonationDate', dir: 'desc', nulls: 'last' },
  { column: 'id', dir: 'desc' },
];

/**
 * One page of contact ids in relevance order, with the total of the whole match set:
 *  1. the whole typed text is the contact's full name (either order), email, phone digits or
 *     organisation (accents, case and separators ignored);
 *  2. every typed word is a whole word of the name, email or organisation;
 *  3. every typed word starts one (the rest of the match set);
 * and within a tier the most recent last gift first (never gave: last), then the newest id.
 * Without search words every contact of the account is in one tier: last gift order.
 *
 * Each tier is counted from the full-text index (the exact tier is one index lookup), so the
 * page only reads the tiers it overlaps: a page of the first tier never touches the others,
 * and a broad tier's page is read off the account's last-gift index (searchPageIds).
 *
 * The whole-word tier's size is only needed exactly when the page runs past it; else a count
 * capped well above the page's end does for the plan (ContactSearch.count's cap). On SQLite a
 * search of one word first tries that tier's page with the total from one read
 * (wordsPageWithTotal), or with no count at all when the total is not wanted (wordsTierPage),
 * and reads the last tier's page with the total (lastTierPage). With
 * `total: false` the whole match set is not counted unless the page reaches its last tier,
 * and the total is null (a caller that never shows it: the donor box).
 */
export async function relevancePage(
  ctx: DomainContext,
  accountId: string,
  search: string | undefined,
  offset: number,
  limit: number,
): Promise<{ ids: string[]; total: number }>;
export async function relevancePage(
  ctx: DomainContext,
  accountId: string,
  search: string | undefined,
  offset: number,
  limit: number,
  opts: { total: boolean },
): Promise<{ ids: string[]; total: number | null }>;
export async function relevancePage(
  ctx: DomainContext,
  accountId: string,
  search: string | undefined,
  offset: number,
  limit: number,
  opts: { total?: boolean } = {},
): Promise<{ ids: string[]; total: number | null }> {
  const wantTotal = opts.total ?? true;
  const { store } = ctx;
  const db = store.db;
  const text = search ?? '';
  const nExact = await store.search.count(text, accountId, 'exact');
  if (nExact === null) {
    const rows = await sql<{
      id: string;
    }>`select contacts.id from contacts where contacts.account_id = ${accountId}
      order by ${ORDER_SQL(BY_LAST_GIFT)} limit ${limit} offset ${offset}`.execute(db);
    return {
      ids: rows.rows.map((r) => r.id),
      total: wantTotal ? (await readCounters(db, accountId)).contacts : null,
    };
  }
  const accountContacts = (await readCounters(db, accountId)).contacts;
  const ids: string[] = [];
  const page = async (t: { size: number; tier: SearchTier; without: SearchTier | null }, start: number) => {
    const end = start + t.size;
    const from = Math.max(offset + ids.length, start);
    const want = offset + limit - from;
    if (t.size > 0 && want > 0 && from < end) {
      ids.push(
        ...(await searchPageIds(ctx, {
          accountId,
          text,
          tier: t.tier,
          without: t.without,
          size: t.size,
          order: BY_LAST_GIFT,
          skip: from - start,
          take: want,
        })),
      );
    }
  };
  await page({ size: nExact, tier: 'exact', without: null }, 0);
  // SQLite, one word: the whole-word tier's page off a window sized from the word's density,
  // without counting the tier; with the total from the same read (wordsPageWithTotal), or
  // without it (wordsTierPage) and counted after when wanted.
  const oneWord = store.engine === 'sqlite' && searchWords(text).length === 1;
  const next = Math.max(offset + ids.length, nExact);
  if (oneWord && next < offset + limit) {
    const tierPage = { accountId, text, skip: next - nExact, want: offset + limit - next, accountContacts };
    const both = wantTotal ? await wordsPageWithTotal(ctx, tierPage) : null;
    if (both) {
      ids.push(...both.ids);
      return { ids, total: Math.max(both.total, offset + ids.length) };
    }
    const words = await wordsTierPage(ctx, tierPage);
    if (words) {
      ids.push(...words);
      if (!wantTotal) return { ids, total: null };
      const nPrefix = (await store.search.count(text, accountId, 'prefix')) ?? 0;
      return { ids, total: Math.max(nPrefix, offset + ids.length) };
    }
  }
  // The three nested sets' sizes: exact ⊆ words ⊆ prefix (SearchTier). Counted one
  // after another: a contact saved in between cannot make a tier's size negative. The
  // whole-word tier is counted up to a cap (wordsCap): at or above it, the page ends inside
  // that tier and the plan only needs to know it is that broad.
  const cap = wordsCap(offset + limit, accountContacts);
  const nWords = Math.max(nExact, (await store.search.count(text, accountId, 'words', cap)) ?? 0);
  await page({ size: nWords - nExact, tier: 'words', without: 'exact' }, nExact);
  // The last tier: counted with its page where the engine builds the set to count it anyway.
  const lastFrom = Math.max(offset + ids.length, nWords);
  const want = offset + limit - lastFrom;
  if (!wantTotal && want <= 0) return { ids, total: null };
  // SQLite, one word: the last tier's page with the total from one read (lastTierPage).
  if (oneWord && want > 0 && nWords < cap) {
    const last = await lastTierPage(
      ctx,
      { accountId, text, skip: lastFrom - nWords, want, accountContacts },
      wantTotal,
    );
    if (last) {
      ids.push(...last.ids);
      return { ids, total: wantTotal && last.total !== null ? Math.max(nWords, last.total) : null };
    }
  }
  if (want > 0) {
    const last = {
      accountId,
      text,
      without: 'words' as const,
      order: BY_LAST_GIFT,
      skip: lastFrom - nWords,
      take: want,
    };
    // Several words: their set built once (countedSearchPage); one word too long for the
    // index's prefixes: its matches read once and held (heldSetPage).
    const both =
      (await countedSearchPage(ctx, { ...last, tier: 'prefix' })) ?? (await heldSetPage(ctx, last));
    if (both) {
      ids.push(...both.ids);
      return { ids, total: wantTotal ? Math.max(nWords, both.total) : null };
    }
  }
  const nPrefix = Math.max(nWords, (await store.search.count(text, accountId, 'prefix')) ?? 0);
  await page({ size: nPrefix - nWords, tier: 'prefix', without: 'words' }, nWords);
  return { ids, total: wantTotal ? nPrefix : null };
}

/**
 * The cap on relevance's whole-word count (ContactSearch.count): at least the page's end (below
 * it the count is exact, as the tiers' boundaries need), and four times the size from which
 * the page is read off the order's index (pageFromOrderIndex with SQLite's 7), so a capped
 * size chooses the same plan as the exact one, and the window sized from it (searchPageIds:
 * the entries the density says hold the page) is at most a quarter of the window at that size.
 * About 6,700 for a first page of 20 in 990,000 contacts, where `jane` has 49,000 whole-word matches.
 */
export function wordsCap(upTo: number, accountContacts: number): number {
  return Math.max(upTo, 1000, 4 * Math.ceil(Math.sqrt((upTo * accountContacts) / 7)));
}

/** How many of a word's newest matches say how dense its matches are (recentDensity). */
const DENSITY_SAMPLE = 128;

/**
 * The window of the last-gift index a page of `skip` + `want` rows of a tier should fall in,
 * from the tier's density among the newest contacts: the entries that should hold twice the
 * rows and 16 more, and 64 more entries (`jane`, whole word, 49,000 of 990,000 contacts: about
 * 1,200 for a first page of 20). A window that comes up short costs the page read another
 * way after it, about three times a window's read; a wider one costs little (its seqs' set):
 * with half as many again and no more, `siob` in the donor box (8 rows) had 7 of them in its
 * window of 329, where the density said 15. Null when the tier has fewer matches than the sample (looked up and sorted: cheaper), or the
 * window would be too wide to be worth it (searchPageIds' streamed window).
 */
async function densityWindow(
  ctx: DomainContext,
  text: string,
  tier: 'words' | 'prefix',
  upTo: number,
  accountContacts: number,
): Promise<{ window: number; walk: boolean } | null> {
  const density = await ctx.store.search.recentDensity?.(text, tier, DENSITY_SAMPLE);
  const window = density == null ? null : windowFor(density, upTo, accountContacts);
  return window === null
    ? null
    : { window, walk: window * searchTuning.sqliteWalkCost <= density! * accountContacts };
}

/** densityWindow's window for a known density. */
function windowFor(density: number, upTo: number, accountContacts: number): number | null {
  const window = Math.min(accountContacts, Math.ceil((2 * upTo + 16) / density) + 64);
  return window > STREAMED_WINDOW ? null : window;
}

/** The account's first `window` entries of the last-gift index: the given columns. */
const lastGiftWalk = (accountId: string, cols: readonly string[], window: number) =>
  orderWalk(accountId, BY_LAST_GIFT, cols, window);

/**
 * SQLite, one word: the page of relevance's whole-word tier (the exact tier left out) that
 * skips `skip` of its rows, without the tier's size: a window of the last-gift index sized
 * from the word's density, every whole-word match tested against it (the streamed window of
 * searchPageIds). Counting the tier first (up to wordsCap, 6,700 entries for `jane`) only told
 * the window's size, a worse guess than the density. Used only when it is the true page:
 * `want` rows found, every row of the tier before them being in the window (a prefix of the
 * order). Else null: the tier may end before the page does, and the tiers are counted.
 */
async function wordsTierPage(
  ctx: DomainContext,
  p: { accountId: string; text: string; skip: number; want: number; accountContacts: number },
): Promise<string[] | null> {
  const { store } = ctx;
  const sized = await densityWindow(ctx, p.text, 'words', p.skip + p.want, p.accountContacts);
  if (sized === null) return null;
  const { window } = sized;
  const walked = sized.walk ? await walkedPage(ctx, p, window, 'words') : null;
  if (walked) return walked.ids.length === p.want ? walked.ids : null;
  const among = sql`select seq from w`;
  const inTier = store.search.condition(p.text, p.accountId, 'order', 'words', { among });
  const exact = store.search.condition(p.text, p.accountId, 'order', 'exact');
  if (!inTier || !exact) return null;
  const r = await sql<{ ids: string }>`with w as materialized (${lastGiftWalk(p.accountId, ['seq'], window)})
    select ${jsonPage(
      sql`(${lastGiftWalk(p.accountId, ['seq', 'accountId', 'lastDonationDate', 'id'], window)}) as contacts`,
      sql<SqlBool>`${inTier} and not ${exact}`,
      ORDER_SQL(BY_LAST_GIFT),
      { take: p.want, skip: p.skip },
    )} as ids`.execute(store.db);
  const ids = JSON.parse(r.rows[0]?.ids ?? '[]') as string[];
  return ids.length === p.want ? ids : null;
}

/**
 * SQLite, one word, the total wanted: the page of relevance's whole-word tier (as wordsTierPage)
 * and the whole match set's total from one read of the word's matches (windowPage), where
 * wordsTierPage and then the count read two term lists to their ends (`jane`, 49,751 matches
 * each: 3.3 + 2.6 ms). The window is the one wordsTierPage would test, sized from the whole
 * word's density. Only where the word's prefix matches are not much broader than its
 * whole-word ones: each match read is tested against the window, and `jan` among `jane`'s
 * would pay that for nothing. Null where it does not apply or is not the true page.
 */
async function wordsPageWithTotal(
  ctx: DomainContext,
  p: { accountId: string; text: string; skip: number; want: number; accountContacts: number },
): Promise<{ ids: string[]; total: number } | null> {
  const { store } = ctx;
  const whole = await store.search.recentDensity?.(p.text, 'words', DENSITY_SAMPLE);
  const prefix = await store.search.recentDensity?.(p.text, 'prefix', DENSITY_SAMPLE);
  if (whole == null || prefix == null || prefix > 2 * whole) return null;
  const window = windowFor(whole, p.skip + p.want, p.accountContacts);
  if (window === null) return null;
  const r = await windowPage(ctx, p, window, true);
  return r && r.ids.length === p.want ? r : null;
}

/**
 * SQLite, one word: the page of relevance's last tier (every word a prefix, the whole-word
 * tier left out) that skips `skip` of its rows, with the whole match set's total, from one
 * read of the word's matches (windowPage), where otherwise two read them all (the total, then
 * the page testing every match against a window). The window is sized from the tier's
 * density. Used only when it is the true page: `want` rows found (the window is a prefix of
 * the order), or the window was the whole account. Else null.
 */
async function lastTierPage(
  ctx: DomainContext,
  p: { accountId: string; text: string; skip: number; want: number; accountContacts: number },
  wantTotal: boolean,
): Promise<{ ids: string[]; total: number | null } | null> {
  const sized = await densityWindow(ctx, p.text, 'prefix', p.skip + p.want, p.accountContacts);
  if (sized === null) return null;
  const { window } = sized;
  const walked = !wantTotal && sized.walk ? await walkedPage(ctx, p, window, 'prefix') : null;
  const r = walked ?? (await windowPage(ctx, p, window, false));
  return r && (r.ids.length === p.want || r.inWindow < window) ? r : null;
}

/**
 * One read of a word's full-text matches (ContactSearch.windowScan) that counts the account's
 * (the total) and keeps the ones among the first `window` entries of the last-gift index;
 * then the kept contacts (the exact tier's few left out), in that order, whose words are
 * (`whole`) or are not whole-word matches, after `skip` of them, up to `want`. The kept
 * contacts' texts are split here as the index splits them (windowScan.wholeIn), where asking
 * the index costs a seek each (60–200 µs where the whole word has many matches). Null when a
 * kept contact before the page's end has a text that cannot be split here, and the caller
 * reads the page another way.
 */
async function windowPage(
  ctx: DomainContext,
  p: { accountId: string; text: string; skip: number; want: number },
  window: number,
  whole: boolean,
): Promise<{ ids: string[]; total: number; inWindow: number } | null> {
  const { store } = ctx;
  const scan = await store.search.windowScan?.(p.text, p.accountId, sql`select seq from w`);
  const exact = store.search.condition(p.text, p.accountId, 'order', 'exact');
  if (!scan || !exact) return null;
  const r = await sql<{
    n: number;
    total: number;
    kept: string;
  }>`with w as materialized (${lastGiftWalk(p.accountId, ['seq'], window)}),
      ${scan.cte}
    select (select count(*) from w) as n, ${scan.count} as total,
      (select json_group_array(json_array(contacts.id, ${scan.texts}) order by ${ORDER_SQL(BY_LAST_GIFT)})
        from contacts where contacts.seq in (${scan.members}) and not ${exact}) as kept`.execute(store.db);
  const row = r.rows[0];
  if (!row) return null;
  const ids: string[] = [];
  let found = 0;
  for (const [id, texts] of JSON.parse(row.kept) as Array<[string, Array<string | null>]>) {
    if (ids.length === p.want) break;
    const inTier = scan.wholeIn(texts);
    if (inTier === null) return null;
    if (inTier !== whole) continue;
    found += 1;
    if (found > p.skip) ids.push(id);
  }
  return { ids, total: Number(row.total), inWindow: Number(row.n) };
}

/**
 * SQLite, one word, no total: the page of a tier (the whole-word one, or the last: a prefix
 * only) off the first `window` entries of the last-gift index, each contact's tier told from
 * its own texts (ContactSearch.textTest), where a window test reads every match of the word
 * in the full-text index (`jane` in the donor box: 49,000 matches, 3.3 ms, against a walk of
 * 700 entries). The exact tier's few are left out. Null when a kept contact before the page's
 * end cannot be told here (the caller reads the page another way); `inWindow`: the entries
 * walked, fewer than `window` when the walk was the whole account.
 */
async function walkedPage(
  ctx: DomainContext,
  p: { accountId: string; text: string; skip: number; want: number },
  window: number,
  tier: 'words' | 'prefix',
): Promise<{ ids: string[]; total: null; inWindow: number } | null> {
  const { store } = ctx;
  const test = store.search.textTest?.(p.text);
  const exact = store.search.condition(p.text, p.accountId, 'order', 'exact');
  if (!test || !exact) return null;
  const cols = ['seq', 'accountId', 'lastDonationDate', 'id', 'firstName', 'middleName', 'lastName'];
  const walk = lastGiftWalk(p.accountId, [...cols, 'email', 'primaryEmail', 'organization'], window);
  const r = await sql<{ n: number; kept: string | null }>`select count(*) as n,
      json_group_array(json_array(contacts.id, ${test.texts}) order by ${ORDER_SQL(BY_LAST_GIFT)})
        filter (where ${test.candidate} and not ${exact}) as kept
    from (${walk}) as contacts`.execute(store.db);
  const row = r.rows[0];
  if (!row) return null;
  const ids: string[] = [];
  let found = 0;
  for (const [id, texts] of JSON.parse(row.kept ?? '[]') as Array<[string, Array<string | null>]>) {
    if (ids.length === p.want) break;
    const inTier = test.tierOf(texts);
    if (inTier === null) return null;
    if (inTier !== tier) continue;
    found += 1;
    if (found > p.skip) ids.push(id);
  }
  return { ids, total: null, inWindow: Number(row.n) };
}
