/**
 * SQLite: a search's matches read once from the full-text index and held in memory (the
 * account's match set, ContactSearch.matchSeqs), its page found in an order whose index holds
 * the seq, for the list and relevance's tiers.
 */
import { sql } from 'kysely';
import { type SeqMembers, searchWords, sortedSeqs } from '../../db/contact-search.ts';
import type { DomainContext } from '../context.ts';
import { readCounters } from '../counters.ts';
import { ORDER_SQL, type SearchPage, pageFromOrderIndex, searchTuning } from './search.ts';

/**
 * SQLite, where reading the words' matches is what a search costs — several words, or a word
 * longer than the full-text index's prefixes (each read merges every word it starts: `walker4`,
 * 1,111 of them, about 3 ms a read whatever it keeps) — in an order whose index holds the seq
 * (creation, last gift): one page and the total from one read of the account's match set
 * (ContactSearch.matchSeqs), held in memory, where the count and then the page read the
 * matches twice (`walker4` 4.6 + 4.7 ms, `fatima h` 5.5 + 6.7 ms). The page walks the order's
 * index from its start in windows sized from the set's density, testing each entry against the
 * set (about 0.25 µs an entry); a sparse set is instead looked up and sorted (about 1.5 µs a
 * match: pageFromOrderIndex with 4). Null where it does not apply, or when the set is broader
 * than searchTuning.sqliteSetCap (a broad set is counted from the index alone, and its page's
 * window is short).
 */
export async function heldSetPage(
  ctx: DomainContext,
  p: Omit<SearchPage, 'size' | 'tier' | 'without'> & { without?: 'words' },
  heldAbove?: SeqMembers,
): Promise<{ ids: string[]; total: number } | null> {
  const { store } = ctx;
  if (!heldSetApplies(ctx, p) || !store.search.matchSeqs) return null;
  const whole = await store.search.matchSeqs(p.text, p.accountId, searchTuning.sqliteSetCap);
  if (whole === null) return null;
  // The total is the whole set's; the page is of the set less the tier above (relevance's last
  // tier: the whole-word matches, exact ones included, left out; `heldAbove` when the caller
  // has read them), each entry tested against both.
  const total = whole.size;
  let above: SeqMembers = sortedSeqs([]);
  if (p.without) {
    const read =
      heldAbove ?? (await store.search.matchSeqs(p.text, p.accountId, searchTuning.sqliteSetCap, p.without));
    if (read === null) return null;
    above = read;
  }
  const inPage = (seq: number) => whole.has(seq) && !above.has(seq);
  let size = total;
  for (const seq of above) if (whole.has(seq)) size -= 1;
  return { ids: await heldPageIds(ctx, p, whole, inPage, size), total };
}

/**
 * One page, in `p.order`, of the held seqs that `inPage` keeps (`size` of them): a sparse set
 * looked up and sorted, a dense one found by walking the order's index in windows sized from
 * its density (heldSetPage).
 */
export async function heldPageIds(
  ctx: DomainContext,
  p: Pick<SearchPage, 'accountId' | 'order' | 'skip' | 'take'>,
  held: SeqMembers,
  inPage: (seq: number) => boolean,
  size: number,
): Promise<string[]> {
  const { store } = ctx;
  const upTo = p.skip + p.take;
  if (p.take <= 0 || p.skip >= size) return [];
  const accountContacts = (await readCounters(store.db, p.accountId)).contacts;
  const order = ORDER_SQL(p.order);
  if (!pageFromOrderIndex(size, upTo, accountContacts, 4)) {
    const r = await sql<{ id: string }>`select contacts.id from contacts
      where contacts.seq in (select value from json_each(${JSON.stringify([...held].filter(inPage))}))
        and +contacts.account_id = ${p.accountId}
      order by ${order} limit ${p.take} offset ${p.skip}`.execute(store.db);
    return r.rows.map((row) => row.id);
  }
  const page: number[] = [];
  let found = 0;
  let walked = 0;
  let window = Math.ceil((1.5 * upTo * accountContacts) / size) + 64;
  // The walk's seqs as one JSON array (a row object per entry costs five times as much).
  for (;;) {
    const r = await sql<{ seqs: string }>`select json_group_array(seq) as seqs from (select contacts.seq
      from contacts where contacts.account_id = ${p.accountId} order by ${order}
      limit ${window} offset ${walked})`.execute(store.db);
    const seqs = JSON.parse(r.rows[0]?.seqs ?? '[]') as number[];
    for (const seq of seqs) {
      if (!inPage(seq)) continue;
      found += 1;
      if (found > p.skip) page.push(seq);
      if (page.length === p.take) break;
    }
    walked += seqs.length;
    // The page is full, or the account ends: every match it still holds is on the page.
    if (page.length === p.take || seqs.length < window) break;
    // The next window, from the density the entries walked showed (four times as many if none).
    window = found > 0 ? Math.ceil((1.5 * (upTo - found) * walked) / found) + 64 : 4 * walked;
  }
  if (page.length === 0) return [];
  const r = await sql<{ seq: number; id: string }>`select contacts.seq, contacts.id from contacts
    where contacts.seq in (select value from json_each(${JSON.stringify(page)}))`.execute(store.db);
  const ids = new Map(r.rows.map((row) => [row.seq, row.id]));
  // A contact deleted since the walk is left out.
  return page.flatMap((seq) => ids.get(seq) ?? []);
}

/**
 * Whether heldSetPage reads the search (SQLite; several words, or one longer than the index's
 * prefixes; an order whose index holds the seq). Where it does and finds the set broader than
 * its cap, the one-statement set (countedSearchPage) would be cut at the same cap: not tried.
 */
export function heldSetApplies(ctx: DomainContext, p: Pick<SearchPage, 'text' | 'order'>): boolean {
  if (ctx.store.engine !== 'sqlite' || !ctx.store.search.matchSeqs) return false;
  if (!['createdAt', 'lastDonationDate'].includes(p.order[0]?.column ?? '')) return false;
  const words = searchWords(p.text);
  return words.length >= 2 || words.some((w) => w.length > 6);
}
