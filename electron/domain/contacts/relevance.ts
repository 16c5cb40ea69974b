/**
 * Contact search in relevance order: exact > every word whole > prefix, the most recent last
 * gift breaking ties (relevancePage), built on search.ts's pages; on SQLite, a one-word
 * search's tier pages off the last-gift order (relevance-words.ts).
 */
import { sql } from 'kysely';
import { type SearchTier, type SeqMembers, searchWords } from '../../db/contact-search.ts';
import { readCounters } from '../counters.ts';
import type { DomainContext } from '../context.ts';
import {
  BY_LAST_GIFT,
  type TierDensity,
  densityOnce,
  lastTierPage,
  wordsPageWithTotal,
  wordsTierPage,
} from './relevance-words.ts';
import { heldPageIds, heldSetApplies, heldSetPage } from './held-set.ts';
import { ORDER_SQL, countedSearchPage, searchPageIds, searchTuning } from './search.ts';

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
 * and reads the last tier's page with the total (lastTierPage); a word longer than the index's
 * prefixes holds its whole-word tier from one read instead (heldTier). With
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
  if (nExact === null) return everyContactPage(ctx, accountId, offset, limit, wantTotal);
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
  // The page is whole from the exact tier (`org 17`, 83 contacts of that very organisation): the
  // other tiers are not read, only the whole match set counted for the total, where the plan's
  // capped count of the whole-word tier took 0.6 ms more (1,000,000 contacts).
  if (ids.length >= limit) {
    if (!wantTotal) return { ids, total: null };
    const nPrefix = (await store.search.count(text, accountId, 'prefix')) ?? 0;
    return { ids, total: Math.max(nPrefix, nExact, offset + ids.length) };
  }
  const accountContacts = (await readCounters(db, accountId)).contacts;
  // SQLite, one word: the whole-word tier's page off a window sized from the word's density,
  // without counting the tier; with the total from the same read (wordsPageWithTotal), or
  // without it (wordsTierPage) and counted after when wanted.
  const oneWord = store.engine === 'sqlite' && searchWords(text).length === 1;
  const density = densityOnce(ctx, text);
  // One word longer than the index's prefixes, no exact match: the whole-word tier read once and
  // held (heldTier), for its size, its page and the last tier's (heldSetPage), where the window
  // tests and counts read it and the last tier twice or three times.
  const heldWords =
    oneWord && nExact === 0 ? await heldTier(ctx, accountId, text, density, accountContacts) : null;
  const next = Math.max(offset + ids.length, nExact);
  if (oneWord && !heldWords && next < offset + limit) {
    const tierPage = {
      accountId,
      text,
      skip: next - nExact,
      want: offset + limit - next,
      accountContacts,
      density,
    };
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
  const nWords = heldWords
    ? heldWords.size
    : Math.max(nExact, (await store.search.count(text, accountId, 'words', cap)) ?? 0);
  if (heldWords) {
    ids.push(
      ...(await heldPageIds(
        ctx,
        { accountId, order: BY_LAST_GIFT, skip: offset, take: limit },
        heldWords,
        (seq) => heldWords.has(seq),
        heldWords.size,
      )),
    );
  } else await page({ size: nWords - nExact, tier: 'words', without: 'exact' }, nExact);
  // The last tier: counted with its page where the engine builds the set to count it anyway.
  const lastFrom = Math.max(offset + ids.length, nWords);
  const want = offset + limit - lastFrom;
  if (!wantTotal && want <= 0) return { ids, total: null };
  // SQLite, one word: the last tier's page with the total from one read (lastTierPage).
  if (oneWord && want > 0 && nWords < cap) {
    const last = await lastTierPage(
      ctx,
      { accountId, text, skip: lastFrom - nWords, want, accountContacts, density },
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
      (await countedSearchPage(ctx, { ...last, tier: 'prefix' })) ??
      (await heldSetPage(ctx, last, heldWords ?? undefined));
    if (both) {
      ids.push(...both.ids);
      return { ids, total: wantTotal ? Math.max(nWords, both.total) : null };
    }
  }
  const nPrefix = Math.max(nWords, (await store.search.count(text, accountId, 'prefix')) ?? 0);
  await page({ size: nPrefix - nWords, tier: 'prefix', without: 'words' }, nWords);
  return { ids, total: wantTotal ? nPrefix : null };
}

/** No search words: every contact of the account in one tier, in last-gift order. */
async function everyContactPage(
  ctx: DomainContext,
  accountId: string,
  offset: number,
  limit: number,
  wantTotal: boolean,
): Promise<{ ids: string[]; total: number | null }> {
  const db = ctx.store.db;
  const rows = await sql<{
    id: string;
  }>`select contacts.id from contacts where contacts.account_id = ${accountId}
    order by ${ORDER_SQL(BY_LAST_GIFT)} limit ${limit} offset ${offset}`.execute(db);
  return {
    ids: rows.rows.map((r) => r.id),
    total: wantTotal ? (await readCounters(db, accountId)).contacts : null,
  };
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

/**
 * SQLite, one word longer than the index's prefixes: the account's whole-word matches read and
 * held (ContactSearch.matchSeqs). Null where heldSetPage would not read the search, or where the
 * tier is broader than the held set's cap: by its density among the newest contacts (a word of
 * fewer matches than the density's sample has none), or as read.
 */
async function heldTier(
  ctx: DomainContext,
  accountId: string,
  text: string,
  density: TierDensity,
  accountContacts: number,
): Promise<SeqMembers | null> {
  if (!heldSetApplies(ctx, { text, order: BY_LAST_GIFT })) return null;
  const d = await density('words');
  if (d !== null && d * accountContacts > searchTuning.sqliteSetCap) return null;
  return (await ctx.store.search.matchSeqs?.(text, accountId, searchTuning.sqliteSetCap, 'words')) ?? null;
}
