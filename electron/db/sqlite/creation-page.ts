/**
 * SQLite: a search's page in creation order read from the full-text index's newest (or oldest)
 * matches by seq, checked against the creation index (ContactSearch.creationPage).
 *
 * A contact's seq is its place in the order rows were written, and a contact is written when
 * it is created, so creation order and seq order agree almost everywhere. The index gives the
 * `k` highest-seq matches of the words, and of the exact key, cheaply, reading them from the
 * end of their lists: `jane`, 49,000 matches, in about 0.1 ms. Every match of the account with
 * a seq at least `bound` (the lowest seq of a list that came back full; 0 if none did) is
 * among them. The page is the newest `skip + take` of those by creation, and it is the true
 * page if no contact of the account created at or after the page's last row has a seq below
 * `bound`. Any match missing from the candidates would have to be such a contact: it sorts
 * before the page's last row, since the true page's rows do. Newest first, the account's latest
 * creation time below `bound`, kept by block of seqs (migration contact-creation-reach), tells
 * it in one lookup where the account was written in creation order; else, and oldest first,
 * one walk of the creation index down to that row checks it (a few hundred entries for a broad
 * word, 5,000–9,000 for two words of 2,500 matches: 0.6–0.9 ms of the page's 0.8–1.2).
 *
 * Where it does not hold (contacts imported late with old dates, a contact given a creation
 * time ahead of those written after it), or the check would walk further than
 * creationPageTuning.walk (a sparse set), the answer is null and the caller reads the page another
 * way. Oldest first is the same from the other end. One statement: one snapshot.
 *
 * Measured on 1,000,000 contacts (raw, the same statement): 0.3–0.4 ms for a broad word's first
 * page, where the window of the creation index read 0.55–0.65 ms, and twice that when the
 * window's first size held too few matches (`siob`: 19 of 20). Two words' newest page with the
 * kept times instead of the walk: `zoe tanaka` 1.24 → 0.21 ms, `fatima h` 1.32 → 0.23 ms.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../store.ts';

/** The deepest page (skip + take) read this way; deeper ones read more candidates than it saves. */
const CREATION_PAGE_DEPTH = 200;

export const creationPageTuning = {
  /**
   * The longest walk of the creation index the check may take (about 1 ms): a sparser set's
   * page lies further down, and is read another way. The seqs between the newest contact and
   * `bound` are checked against it first, for nothing: the walk is that long where creation
   * follows the seqs. A test can make it short.
   */
  walk: 20_000,
};

/**
 * The latest creation time of any of the account's contacts written below seq `bound` (or a
 * little above: its block's), from the table the contacts' triggers keep (migration
 * contact-creation-reach); '' when none was.
 */
const createdBelow = (accountId: string, bound: RawBuilder<unknown>) =>
  sql`coalesce((select latest from contacts_created_by_seq where account_id = ${accountId}
    and block <= (${bound} - 1) >> 8 order by block desc limit 1), '')`;

/** A seq no contact reaches (SQLite's largest integer). */
const NO_SEQ = '9223372036854775807';

/**
 * The ids of the page, or null when the index's order and creation disagree around it.
 * `m`: the words' full-text match within the account; `key`: the exact key's match.
 */
export async function creationPage(
  db: Db,
  m: string | RawBuilder<unknown>,
  key: string,
  accountId: string,
  dir: 'asc' | 'desc',
  skip: number,
  take: number,
): Promise<string[] | null> {
  const upTo = skip + take;
  if (take <= 0 || upTo > CREATION_PAGE_DEPTH) return null;
  // A few more than the page: the exact key's matches include other accounts'.
  const k = upTo + 8;
  const walk = creationPageTuning.walk;
  const newest = dir === 'desc';
  const d = sql.raw(dir);
  const back = sql.raw(newest ? 'asc' : 'desc');
  // Newest first: the candidates are complete from `bound` up, and the check is that no contact
  // from the page's last row on has a lower seq; oldest first, the mirror image.
  const edge = (src: number) =>
    newest
      ? sql`coalesce((select min(seq) from cand where src = ${src} having count(*) >= ${k}), 0)`
      : sql`coalesce((select max(seq) from cand where src = ${src} having count(*) >= ${k}), ${sql.raw(NO_SEQ)})`;
  const within = sql.raw(newest ? '>=' : '<=');
  // Newest first: whole when the account's latest creation time below the bound is earlier than
  // the page's last row (no walk).
  const keptTimesSay = newest
    ? sql`when ${createdBelow(accountId, sql`(select bound from b)`)}
        < (select created_at from page order by created_at asc, id asc limit 1) then 1`
    : sql``;
  const r = await sql<{ ok: number; ids: string }>`with cand as materialized (
      select seq, 1 as src from (select rowid as seq from contacts_fts where contacts_fts match ${m}
        order by rowid ${d} limit ${k})
      union all select seq, 2 from (select rowid as seq from contacts_exact where contacts_exact match ${key}
        order by rowid ${d} limit ${k})),
    b as materialized (select ${sql.raw(newest ? 'max' : 'min')}(${edge(1)}, ${edge(2)}) as bound),
    page as materialized (select c.created_at, c.id from contacts c
      where c.seq in (select seq from cand where seq ${within} (select bound from b)) and +c.account_id = ${accountId}
      order by c.created_at ${d}, c.id ${d} limit ${upTo}),
    seen as (select count(*) as n, ${sql.raw(newest ? 'min' : 'max')}(seq) as seq from (select x.seq from contacts x
      where x.account_id = ${accountId}
        and (x.created_at, x.id) ${within} (select created_at, id from page order by created_at ${back}, id ${back} limit 1)
      order by x.created_at ${d}, x.id ${d} limit ${walk + 1}))
    select case when (select count(*) from page) < ${upTo}
        then (select bound from b) = ${sql.raw(newest ? '0' : NO_SEQ)}
        ${keptTimesSay}
        when ${newest ? sql`(select max(seq) from contacts) - (select bound from b)` : sql`(select bound from b) - (select min(seq) from contacts)`} > ${walk}
        then 0
        else (select n from seen) <= ${walk} and (select seq from seen) ${within} (select bound from b) end as ok,
      (select json_group_array(id order by created_at ${d}, id ${d})
        from (select created_at, id from page order by created_at ${d}, id ${d} limit ${take} offset ${skip})) as ids`.execute(
    db,
  );
  const row = r.rows[0];
  return row && Number(row.ok) === 1 ? (JSON.parse(row.ids) as string[]) : null;
}
