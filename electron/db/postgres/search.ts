/**
 * Contact search on PostgreSQL: the words through `contact_search_terms` (one entry per
 * contact and word, by account key: migrations search-terms, search-terms-compact), the exact
 * keys through the GIN index on `contacts.search_keys` (migration search-relevance).
 */
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import { type ContactSearch, type SearchTier, exactKey, searchWords } from '../contact-search.ts';
import type { Db } from '../store.ts';

export function postgresContactSearch(db: Db): ContactSearch {
  return {
    condition: (text, accountId, drive, tier, _range, dense) =>
      searchCondition(text, accountId, tier, drive, dense),
    // The cap is not used here (not measured on PostgreSQL): the exact count is a valid answer under any cap.
    count: (text: string, accountId: string, tier: SearchTier = 'prefix') =>
      countSearch(db, text, accountId, tier),
    // Never cut short: PostgreSQL counts several words only by building their set anyway.
    matchSet: (text: string, accountId: string, tier: SearchTier = 'prefix') =>
      Promise.resolve(searchSet(text, accountId, tier)),
  };
}

/** A typed word folded as the stored terms are (unaccent, lower). */
const folded = (w: string) => sql`lower(public.unaccent(${w}))`;

/** The account's integer key in `contact_search_terms` (migration search-terms-compact). */
const accountKey = (accountId: string) =>
  sql`(select a.key from contact_search_accounts a where a.account_id = ${accountId})`;

/**
 * Entry `t` of `contact_search_terms` is the word `w`, or starts with it. `once` keeps, of a
 * contact's terms starting with `w`, only the first (`shared`, migration search-terms-compact):
 * one entry per contact, so a set of matches needs no de-duplication.
 */
function wordMatch(t: string, w: string, whole: boolean, once: boolean) {
  const term = sql.ref(`${t}.term`);
  if (whole) return sql`${term} = ${folded(w)}`;
  const range = sql`${term} >= ${folded(w)} and ${term} < ${folded(w)} || chr(1114111)`;
  // The length as a scalar subquery: computed once per statement. As an expression it was
  // computed for every entry of the range (unaccent is not immutable, so never folded to a
  // constant): `jane`'s count took 28 ms instead of 9 (62,500 entries, psql, load 6).
  return once ? sql`${range} and ${sql.ref(`${t}.shared`)} < (select length(${folded(w)}))` : range;
}

/**
 * The account's contacts having every typed word as a word (whole, or as its start), each
 * once: one range of `contact_search_terms` per word (an index-only scan), the ranges joined
 * on the contact. The planner starts from the narrowest range (by its statistics) and probes
 * the others by contact ("org 12": 200,000 entries for "org", a few thousand for "12").
 */
function termSet(accountId: string, words: readonly string[], whole: boolean) {
  const joins = words.slice(1).map((w, i) => {
    const t = `t${i + 1}`;
    return sql`join contact_search_terms ${sql.id(t)} on ${sql.ref(`${t}.contact_seq`)} = t0.contact_seq
      and ${sql.ref(`${t}.account_key`)} = ${accountKey(accountId)} and ${wordMatch(t, w, whole, true)}`;
  });
  return sql`select t0.contact_seq from contact_search_terms t0 ${sql.join(joins, sql` `)}
    where t0.account_key = ${accountKey(accountId)} and ${wordMatch('t0', words[0]!, whole, true)}`;
}

/** Whether the contact `seq` has every word (the same test as termSet, for one contact). */
function hasEvery(seq: RawBuilder<unknown>, words: readonly string[], whole: boolean) {
  return sql.join(
    words.map(
      (w) =>
        sql`exists (select 1 from contact_search_terms t where t.contact_seq = ${seq} and ${wordMatch('t', w, whole, false)})`,
    ),
    sql` and `,
  );
}

/**
 * A word's range is dense when it holds a twentieth of the account's contacts or more: a page
 * walked off an order's index then meets a match every 20 entries or so, and probing each
 * entry's words (an index lookup by contact) costs less than hashing the whole set first.
 * Less dense, the walk grows and a probe costs several hashed matches: on 1,000,000 contacts,
 * `example7` by relevance (20,000 matches, none among the most recent last gifts) walks
 * 40,000 entries: 1.2 s probing, 0.3 s hashed, under load 20 (bench/search-postgres.ts).
 */
const denseShare = (accountId: string) =>
  sql`(select greatest(1, coalesce(sum(s.contacts), 0)::bigint / 20) from account_counter_slots s where s.account_id = ${accountId})`;

/**
 * A search tier (see SearchTier) within one account: the exact key through the GIN index on
 * `search_keys` (each key carries its account, migration search-relevance), the words through
 * `contact_search_terms`. 'match' lets the set drive: a primary-key lookup per match, then
 * the sort. `drive: 'order'` walks the order's index and tests each entry: against the set,
 * hashed once, or — when every word's range is dense (denseShare) — by probing
 * that entry's words, so a page of a broad match never reads (nor joins) the whole ranges:
 * the caller asks for 'order' only when the match set is large (pageFromOrderIndex), so the
 * walk stays short. The exact matches the words miss are a hashed set of their own (a few at most).
 */
function searchCondition(
  text: string,
  accountId: string,
  tier: SearchTier = 'prefix',
  drive: 'match' | 'order' = 'match',
  known?: boolean,
): Expression<SqlBool> | null {
  const words = searchWords(text);
  const key = exactKey(text);
  if (words.length === 0 || key === null) return null;
  const whole = tier === 'words';
  const exactSet = sql`select seq from contacts where account_id = ${accountId} and search_keys @> array[${`${accountId} ${key}`}::text]`;
  if (tier === 'exact') {
    // Read off an order's index, by seq (a hashed set): testing `search_keys` would read every
    // walked entry's row (40,000 of them for "example7" by relevance).
    return drive === 'order'
      ? sql<SqlBool>`(contacts.account_id = ${accountId} and (contacts.seq in (${exactSet})) is true)`
      : sql<SqlBool>`(contacts.account_id = ${accountId} and contacts.search_keys @> array[${`${accountId} ${key}`}::text])`;
  }
  if (drive === 'match') {
    // The set's seqs as one array looked up in the primary key (an IN here was planned as a
    // join driven by a walk of the whole order index: 324 ms for 24 matches).
    return sql<SqlBool>`(contacts.account_id = ${accountId} and contacts.seq = any(array(${termSet(accountId, words, whole)} union ${exactSet})))`;
  }
  // `is true` keeps each set a hashed subplan (built once, when first tested), not a join.
  const hashed = sql`(contacts.seq in (${termSet(accountId, words, whole)})) is true`;
  const exact = sql`(contacts.seq in (${exactSet})) is true`;
  // A set counted dense (ContactSearch.condition's `dense`) needs no test; a sparse count
  // says nothing of each word's range, unless there is one word (its range is the set, and
  // the exact matches it misses).
  const dense =
    known === true
      ? sql`true`
      : known === false && words.length === 1
        ? sql`false`
        : sql.join(
            words.map(
              (w) => sql`(select count(*) from (select from contact_search_terms d
        where d.account_key = ${accountKey(accountId)} and ${wordMatch('d', w, whole, true)} limit ${denseShare(accountId)}) d) >= ${denseShare(accountId)}`,
            ),
            sql` and `,
          );
  // A scalar subquery per entry and word (never turned into a hash of the whole range).
  const probe = sql.join(
    words.map(
      (w) =>
        sql`coalesce((select true from contact_search_terms t where t.contact_seq = contacts.seq and ${wordMatch('t', w, whole, false)} limit 1), false)`,
    ),
    sql` and `,
  );
  return sql<SqlBool>`(contacts.account_id = ${accountId} and (case when ${dense} then ${probe} else ${hashed} end or ${exact}))`;
}

/**
 * The seqs of a tier's matches when it has several words (see ContactSearch.matchSet): their
 * ranges joined (a hash of the narrower, ~60 % of a request of two broad words, measured by
 * EXPLAIN ANALYZE) plus the exact matches the words miss. Counted with its page in one
 * statement, the join is built once instead of twice (count, then the page's set or its
 * density test and probes).
 */
function searchSet(text: string, accountId: string, tier: SearchTier): RawBuilder<{ seq: number }> | null {
  const words = searchWords(text);
  const key = exactKey(text);
  if (words.length < 2 || key === null || tier === 'exact') return null;
  return sql<{
    seq: number;
  }>`select contact_seq as seq from (${termSet(accountId, words, tier === 'words')}) w
    union select seq from contacts where account_id = ${accountId} and search_keys @> array[${`${accountId} ${key}`}::text]`;
}

async function countSearch(
  db: Db,
  text: string,
  accountId: string,
  tier: SearchTier,
): Promise<number | null> {
  const words = searchWords(text);
  const key = exactKey(text);
  if (words.length === 0 || key === null) return null;
  const exact = sql`contacts c where c.account_id = ${accountId} and c.search_keys @> array[${`${accountId} ${key}`}::text]`;
  const r =
    tier === 'exact'
      ? await sql<{ n: string }>`select count(*) as n from ${exact}`.execute(db)
      : // The words' matches from the terms' index alone, plus the exact matches the words miss
        // (a phone typed as digits), in one statement.
        await sql<{
          n: string;
        }>`select (select count(*) from (${termSet(accountId, words, tier === 'words')}) m)
            + (select count(*) from ${exact} and not (${hasEvery(sql`c.seq`, words, tier === 'words')})) as n`.execute(
          db,
        );
  return Number(r.rows[0]?.n ?? 0);
}
