/**
 * SQLite, one word: relevance's tier pages (relevance.ts) off a window of the last-gift order
 * sized from the word's density among the newest contacts: walked until the page is full, each
 * contact that can hold the word told from its own texts (walkedPage), with the whole match
 * set's total in the same statement when it is wanted; or, where the window is not short beside
 * the word's matches, with the total from one read of the full-text index (windowPage).
 */
import { type SqlBool, sql } from 'kysely';
import type { DomainContext } from '../context.ts';
import { ORDER_SQL, type OrderTerm, STREAMED_WINDOW, jsonPage, orderWalk, searchTuning } from './search.ts';

/** Relevance's tie-break: the most recent last gift first (never gave: last), then the newest id. */
export const BY_LAST_GIFT: readonly OrderTerm[] = [
  { column: 'lastDonationDate', dir: 'desc', nulls: 'last' },
  { column: 'id', dir: 'desc' },
];

/** One tier's page for a one-word search on SQLite (wordsTierPage, wordsPageWithTotal, lastTierPage). */
export interface TierPage {
  accountId: string;
  text: string;
  skip: number;
  want: number;
  accountContacts: number;
  density: TierDensity;
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
 * window of 329, where the density said 15. With it, whether the page should be walked
 * (walkedPage): where the window is shorter than the tier's matches (density × contacts) by
 * searchTuning.sqliteWalkCost. Null when the tier has fewer matches than the
 * sample (looked up and sorted: cheaper), or the window would be too wide to be worth it
 * (searchPageIds' streamed window).
 */
async function densityWindow(
  density: TierDensity,
  tier: 'words' | 'prefix',
  upTo: number,
  accountContacts: number,
): Promise<{ window: number; walk: boolean } | null> {
  const d = await density(tier);
  const window = d === null ? null : windowFor(d, upTo, accountContacts);
  if (d === null || window === null) return null;
  return { window, walk: window * searchTuning.sqliteWalkCost <= d * accountContacts };
}

/** A tier's density among the newest contacts (ContactSearch.recentDensity), read once per page. */
export type TierDensity = (tier: 'words' | 'prefix') => Promise<number | null>;

/** The search's TierDensity: each tier's density read at most once, when first asked for. */
export function densityOnce(ctx: DomainContext, text: string): TierDensity {
  const read = new Map<'words' | 'prefix', Promise<number | null>>();
  return (tier) => {
    let d = read.get(tier);
    if (!d) {
      d = Promise.resolve(ctx.store.search.recentDensity?.(text, tier, DENSITY_SAMPLE)).then(
        (x) => x ?? null,
      );
      read.set(tier, d);
    }
    return d;
  };
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
 * SQLite, one word: the page of relevance's whole-word tier (the exact tier left out) that skips
 * `skip` of its rows, without the tier's size: a window of the last-gift index sized from the
 * word's density, walked (walkedPage) where that pays, else every whole-word match tested against
 * it (the streamed window of searchPageIds). Counting the tier first (up to wordsCap, 6,700
 * entries for `jane`) only told the window's size, a worse guess than the density. Used only when
 * it is the true page: `want` rows found, every row of the tier before them being in the window (a
 * prefix of the order). Else null: the tier may end before the page does, and the tiers are
 * counted.
 */
export async function wordsTierPage(ctx: DomainContext, p: TierPage): Promise<string[] | null> {
  const { store } = ctx;
  const sized = await densityWindow(p.density, 'words', p.skip + p.want, p.accountContacts);
  if (sized === null) return null;
  const { window } = sized;
  const walked = sized.walk ? await walkedPage(ctx, p, window, 'words', false) : null;
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
 * and the whole match set's total in one statement: walked (walkedPage, the count beside it)
 * where the window is short beside the word's matches, else from one read of the word's
 * matches (windowPage), where wordsTierPage and then the count read two term lists to their
 * ends (`jane`, 49,751 matches each: 3.3 + 2.6 ms). The window is the one wordsTierPage would
 * test, sized from the whole word's density. Only where the word's prefix matches are not much
 * broader than its whole-word ones: the walk tells each of them on its way, and the one read
 * tests each against the window, and `jan` among `jane`'s would pay that for nothing. Null
 * where it does not apply or is not the true page.
 */
export async function wordsPageWithTotal(
  ctx: DomainContext,
  p: TierPage,
): Promise<{ ids: string[]; total: number } | null> {
  const whole = await p.density('words');
  const prefix = whole === null ? null : await p.density('prefix');
  if (whole === null || prefix === null || prefix > 2 * whole) return null;
  const sized = await densityWindow(p.density, 'words', p.skip + p.want, p.accountContacts);
  if (sized === null) return null;
  const { window } = sized;
  const walked = sized.walk ? await walkedPage(ctx, p, window, 'words', true) : null;
  const r =
    walked?.total != null ? { ids: walked.ids, total: walked.total } : await windowPage(ctx, p, window, true);
  return r && r.ids.length === p.want ? r : null;
}

/**
 * SQLite, one word: the page of relevance's last tier (every word a prefix, the whole-word
 * tier left out) that skips `skip` of its rows, with the whole match set's total when it is
 * wanted: walked (walkedPage) where the window is short beside the tier's matches, else from
 * one read of the word's matches (windowPage), where otherwise two read them all (the total,
 * then the page testing every match against a window). The window is sized from the tier's
 * density. Used only when it is the true page: `want` rows found (the window is a prefix of
 * the order), or the window was the whole account. Else null.
 */
export async function lastTierPage(
  ctx: DomainContext,
  p: TierPage,
  wantTotal: boolean,
): Promise<{ ids: string[]; total: number | null } | null> {
  const sized = await densityWindow(p.density, 'prefix', p.skip + p.want, p.accountContacts);
  if (sized === null) return null;
  const { window } = sized;
  const walked = sized.walk ? await walkedPage(ctx, p, window, 'prefix', wantTotal) : null;
  if (walked) return walked;
  const r = await windowPage(ctx, p, window, false);
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
  const ids = tierPage(row.kept, (texts) => scan.wholeIn(texts), whole, p);
  return ids && { ids, total: Number(row.total), inWindow: Number(row.n) };
}

/**
 * SQLite, one word: the page of a tier (the whole-word one, or the last: a prefix only) off
 * the account's last-gift order, walked from its start and stopped as soon as the page is
 * full. Each entry's row is read; the few whose texts can hold the word
 * (ContactSearch.textTest's candidate) are told by their texts in the statement, where a test
 * of the window reads every match of the word in the full-text index (`jane`: 49,000 matches,
 * 1.4 ms, against about 350 entries walked). The exact tier's few are left out. With `total`,
 * the whole match set's total in the same statement (ContactSearch.countSql: one snapshot).
 * Null when a contact before the page's end cannot be told here, or the first `window`
 * entries held fewer of the tier than the page wants and are not the whole account: the
 * caller reads the page another way.
 */
async function walkedPage(
  ctx: DomainContext,
  p: { accountId: string; text: string; skip: number; want: number },
  window: number,
  tier: 'words' | 'prefix',
  total: boolean,
): Promise<{ ids: string[]; total: number | null } | null> {
  const { store } = ctx;
  const test = store.search.textTest?.(p.text);
  const exact = store.search.condition(p.text, p.accountId, 'order', 'exact');
  const count = total ? await store.search.countSql?.(p.text, p.accountId) : null;
  if (!test || !exact || (total && !count)) return null;
  const upTo = p.skip + p.want;
  const walk = lastGiftWalk(
    p.accountId,
    [
      'seq',
      'accountId',
      'lastDonationDate',
      'id',
      'firstName',
      'middleName',
      'lastName',
      'email',
      'primaryEmail',
      'organization',
    ],
    window,
  );
  // The tier is told once a contact (`limit -1` keeps the inner query whole, not merged into
  // the outer one, which would tell it again for each use); the outer limit stops the walk.
  // The window's size is read only when the page came up short, and the total only for a page
  // that will be used (a contact that cannot be told sends the caller another way).
  const r = await sql<{ kept: string; unknown: number; n: number | null; total: number | null }>`with
      kept as materialized (select json_group_array(json_array(contacts.id, contacts.tier)
          order by ${ORDER_SQL(BY_LAST_GIFT)}) as rows from (select * from (
            select contacts.id, contacts.last_donation_date, ${test.tier} as tier from (${walk}) as contacts
            where ${test.candidate} and not ${exact} limit -1)
          where tier in (${tier}, 'unknown') limit ${upTo}) as contacts),
      state as materialized (select rows, json_array_length(rows) as len,
        exists (select 1 from json_each(rows) where json_extract(value, '$[1]') = 'unknown') as unknown from kept),
      walked as materialized (select count(*) as n from (${lastGiftWalk(p.accountId, ['seq'], window)}))
    select rows as kept, unknown,
      case when not unknown and len < ${upTo} then (select n from walked) end as n,
      case when not unknown and (len = ${upTo} or (select n from walked) < ${window})
        then ${count ?? sql`null`} end as total
    from state`.execute(store.db);
  const row = r.rows[0];
  if (!row || row.unknown) return null;
  const kept = JSON.parse(row.kept) as Array<[string, string]>;
  if (kept.length < upTo && Number(row.n) >= window) return null;
  return { ids: kept.slice(p.skip).map(([id]) => id), total: row.total === null ? null : Number(row.total) };
}

/**
 * The page of one tier among kept contacts (a JSON array of [id, texts], in the page's order):
 * the ones `tell` puts in `tier`, after `skip` of them, up to `want`. Null when a contact before
 * the page's end cannot be told (its texts cannot be split here).
 */
function tierPage<T>(
  kept: string,
  tell: (texts: Array<string | null>) => T | null,
  tier: T,
  p: { skip: number; want: number },
): string[] | null {
  const ids: string[] = [];
  let found = 0;
  for (const [id, texts] of JSON.parse(kept) as Array<[string, Array<string | null>]>) {
    if (ids.length === p.want) break;
    const inTier = tell(texts);
    if (inTier === null) return null;
    if (inTier !== tier) continue;
    found += 1;
    if (found > p.skip) ids.push(id);
  }
  return ids;
}
