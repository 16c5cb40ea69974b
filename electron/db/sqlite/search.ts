/**
 * Contact search on SQLite: FTS5 over name, email and organisation (`contacts_fts`, each
 * contact's row carrying its account's token) and one term per exact key (`contacts_exact`),
 * both by the contact's seq as rowid (migrations search-account-token, search-relevance).
 */
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  type ContactSearch,
  type SearchTier,
  type SeqRange,
  type SeqSet,
  type TextTest,
  exactKey,
  searchWords,
  sortedSeqs,
} from '../contact-search.ts';
import type { Db } from '../store.ts';
import { creationPage } from './creation-page.ts';
import { WORD_TIER_FUNCTION, wholeWordsTest, wordGlobs, wordTierTest } from './index-words.ts';

export function sqliteContactSearch(db: Db): ContactSearch {
  // The accounts' sizes as a count last read them: a condition, which is built without reading
  // the database, chooses its match from them (accountMatch). Each choice is exact (the
  // condition keeps its account test), so sizes a few writes old cost time at worst.
  let lastSizes: AccountSizes | null = null;
  const accountMatch = async (q: FtsQueries, accountId: string) =>
    matchFor(q, accountId, (lastSizes = await readAccountSizes(db)));
  return {
    condition(
      text: string,
      accountId: string,
      drive: 'match' | 'order' = 'match',
      tier: SearchTier = 'prefix',
      range?: SeqRange | SeqSet,
    ): Expression<SqlBool> | null {
      const q = ftsQueries(text, accountId, tier);
      if (q === null) return null;
      // A seq range is a rowid range for FTS5: it seeks to the start and stops at the end. The
      // bounds must reach it as integers (better-sqlite3 binds a JS number as a REAL, which
      // FTS5 ignores as a rowid bound and reads every match: 2.5 ms instead of 0.1 for `jan`).
      // A set of seqs is tested entry by entry (the unary plus: not a constraint FTS5 would
      // answer with a seek per member), built once from its few thousand members.
      const within = !range
        ? sql``
        : 'among' in range
          ? sql` and +rowid in (${range.among})`
          : sql` and rowid between cast(${range.from} as integer) and cast(${range.to} as integer)`;
      const exactRows = sql`select rowid from contacts_exact where contacts_exact match ${q.key}${within}`;
      const exact = sql`contacts.seq in (${exactRows})`;
      // The match drives the plan: one rowid lookup per matching contact of the account. The
      // unary plus keeps the planner off the (account_id, …) indexes, which it otherwise
      // prefers without statistics and walks entry by entry (the whole account, 1,000,000
      // entries: bench/RESULTS.md). The account test is kept as a guard. The exact matches join
      // the words' in one list (a union, not an OR, which the planner would answer by reading
      // every contact). `union all`: the IN list is a set already (SQLite builds it into an
      // index), so a plain union's own de-duplication was a second index of every match for
      // nothing: 20–35% of the page statement for a word of 50,000 matches (jane 36.6 → 28.0 ms,
      // zoe 22.7 → 15.6 at load 5, bench/RESULTS.md 2026-12-03 07:00).
      if (tier === 'exact') return sql<SqlBool>`(+contacts.account_id = ${accountId} and ${exact})`;
      if (range && 'among' in range) {
        // The set is the account's own (a window of its order), so the words need no account:
        // every match of theirs (and the exact ones) is read once and tested against it, built
        // once, and the few found drive. `jane` (49,751 matches, a window of 700): 3.1 ms,
        // against 6.5 ms building every match into a set that the window probes (raw,
        // 1,000,000 contacts).
        return sql<SqlBool>`(+contacts.account_id = ${accountId}
          and contacts.seq in (select m.seq from (select rowid as seq from contacts_fts where contacts_fts match ${q.words}
            union all select rowid from contacts_exact where contacts_exact match ${q.key}) as m
            where +m.seq in (${range.among})))`;
      }
      if (drive === 'order') {
        // The walk of the account's order index keeps the account: the probed set may hold
        // every account's matches (cheaper to build than their intersection with the account).
        return sql<SqlBool>`(contacts.account_id = ${accountId}
          and contacts.seq in (select rowid from contacts_fts where contacts_fts match ${q.words}${within} union all ${exactRows}))`;
      }
      return sql<SqlBool>`(+contacts.account_id = ${accountId}
        and contacts.seq in (select rowid from contacts_fts where contacts_fts match ${lastSizes ? matchFor(q, accountId, lastSizes) : scopedMatch(q, accountId)}${within} union all ${exactRows}))`;
    },
    async count(
      text: string,
      accountId: string,
      tier: SearchTier = 'prefix',
      cap?: number,
    ): Promise<number | null> {
      const q = ftsQueries(text, accountId, tier);
      if (q === null) return null;
      // The exact matches of the account: one term's short list, a row lookup each.
      const exact = sql`contacts c where +c.account_id = ${accountId}
        and c.seq in (select rowid from contacts_exact where contacts_exact match ${q.key})`;
      if (tier === 'exact') {
        const r = await sql<{ n: number }>`select count(*) as n from ${exact}`.execute(db);
        return Number(r.rows[0]?.n ?? 0);
      }
      // The words' matches counted in the full-text index alone, no contact row read; plus the
      // exact matches the words miss (countWithExact). One statement, so one snapshot.
      const r = await sql<{
        n: number;
      }>`${countWithExact(q, accountId, await accountMatch(q, accountId), cap)}`.execute(db);
      return Number(r.rows[0]?.n ?? 0);
    },
    async creationPage(text: string, accountId: string, dir: 'asc' | 'desc', skip: number, take: number) {
      const q = ftsQueries(text, accountId);
      // A word longer than the index's prefixes is a merge of every word it starts, which reads
      // newest first at about the cost of counting them all (recentDensity).
      if (q === null || searchWords(text).some((w) => w.length > 6)) return null;
      // The accounts' sizes as last read (the count after it reads them again): sizes a few
      // writes old only widen the candidates, which keep the account's own, or make the read
      // step aside.
      const m = lastSizes ? matchFor(q, accountId, lastSizes) : await accountMatch(q, accountId);
      return creationPage(db, m, q.key, accountId, dir, skip, take);
    },
    async matchSeqs(text: string, accountId: string, cap: number, tier: 'words' | 'prefix' = 'prefix') {
      const q = ftsQueries(text, accountId, tier);
      if (q === null) return null;
      const m = await accountMatch(q, accountId);
      // One read of the words' matches (at most cap + 1, to tell a broader set), and the exact
      // ones, as JSON arrays: a row per match through the driver costs twice as much.
      const r = await sql<{ n: number; words: string; exact: string }>`select count(*) as n,
          json_group_array(seq) as words,
          (select json_group_array(c.seq) from contacts c where +c.account_id = ${accountId}
            and c.seq in (select rowid from contacts_exact where contacts_exact match ${q.key})) as exact
        from (select rowid as seq from contacts_fts where contacts_fts match ${m}
          limit ${Math.max(0, Math.floor(cap)) + 1})`.execute(db);
      const row = r.rows[0];
      if (!row || Number(row.n) > cap) return null;
      // The index's rowids come in ascending order (sorted here should they not: a check of
      // each against the one before, microseconds); the exact ones the words miss join them.
      const words = JSON.parse(row.words) as number[];
      if (words.some((seq, i) => i > 0 && seq <= words[i - 1]!)) words.sort((a, b) => a - b);
      const held = sortedSeqs(words);
      const missed = (JSON.parse(row.exact) as number[]).filter((seq) => !held.has(seq));
      return missed.length === 0
        ? held
        : sortedSeqs([...new Set([...words, ...missed])].sort((a, b) => a - b));
    },
    async recentDensity(text: string, tier: 'words' | 'prefix', sample: number) {
      // A prefix longer than the index keeps prefixes of (migration search-fold-letters: 1 to
      // 6 letters) is a merge of every word it starts, each sought from its newest entry first:
      // `walker4`, 1,111 words, 2.2 ms for its newest 128 matches, as much as counting them all.
      if (tier === 'prefix' && searchWords(text).some((w) => w.length > 6)) return null;
      const q = ftsQueries(text, '', tier);
      if (q === null) return null;
      const r = await sql<{ n: number; lo: number | null; top: number | null }>`select count(*) as n,
          min(rowid) as lo, (select max(seq) from contacts) as top
        from (select rowid from contacts_fts where contacts_fts match ${q.words} order by rowid desc limit ${sample})`.execute(
        db,
      );
      const s = r.rows[0];
      if (!s || s.lo == null || s.top == null || Number(s.n) < sample) return null;
      return Number(s.n) / (s.top - s.lo + 1);
    },
    async windowScan(text: string, accountId: string, among: Expression<unknown>) {
      const q = ftsQueries(text, accountId, 'prefix');
      if (q === null) return null;
      // The account's match (matchFor) for the count; the window is the account's own, so
      // its members need no scope of their own.
      const m = await accountMatch(q, accountId);
      return {
        cte: sql`scan as materialized (select count(*) as n,
          json_group_array(rowid) filter (where +rowid in (${among})) as members
          from contacts_fts where contacts_fts match ${m})`,
        count: sql<number>`((select n from scan) + ${exactMissed(q, accountId)})`,
        members: sql`select value from json_each((select members from scan))`,
        texts: INDEX_TEXTS,
        wholeIn: wholeWordsTest(searchWords(text)),
      };
    },
    textTest(text: string): TextTest | null {
      const words = searchWords(text);
      const word = words[0];
      if (words.length !== 1 || word === undefined) return null;
      const globs = wordGlobs(word);
      if (!globs || !wordTierTest(word)) return null;
      // Column by column (one text of all six, built three times a contact, cost a walk of
      // 1,100 entries 1.7 against 1.4 ms). A text of plain ASCII (its length in bytes is its
      // length in characters) holds the word as it is, case aside: LIKE, which ignores ASCII
      // case. Any other text by the patterns: both cost 1.05 µs a contact walked, where the
      // patterns alone on every text cost 1.55 (`siob`, 1,000 entries, 60% of them accented).
      const like = `%${word}%`;
      const holding = sql.join(
        INDEX_COLUMNS.map(
          (c) => sql`(case when octet_length(${c}) = length(${c}) then ${c} like ${like}
            else (${c} glob ${globs.word} or ${c} glob ${globs.split}) end)`,
        ),
        sql` or `,
      );
      return {
        candidate: sql<SqlBool>`(${holding})`,
        tier: sql<string>`${sql.raw(WORD_TIER_FUNCTION)}(${word}, ${INDEX_TEXT_LIST})`,
      };
    },
    async countSql(text: string, accountId: string) {
      const q = ftsQueries(text, accountId, 'prefix');
      if (q === null) return null;
      return sql<number>`(${countWithExact(q, accountId, await accountMatch(q, accountId))})`;
    },
    /**
     * Several words: the account's matches read once from the full-text index, with the
     * exact matches the words miss. Counted with its page in one statement, the index is
     * merged once instead of twice (the count, then the page's window): the words' prefixes
     * are each a merge of many terms (`jose gar`: count 4.3 ms, window 6.2 ms; the set, its
     * count and its page 3.7 ms, raw, 1,000,000 contacts). One word's set is not built: its
     * count reads the index alone, where each member of a set is a temporary index entry
     * (`jane`, 49,000 matches: 2.8 against 13 ms). With `cap`, the words' part stops after
     * `cap` + 1 matches, so a broad set (two one-letter words: 99,000) costs a part of it.
     */
    async matchSet(text: string, accountId: string, tier: SearchTier = 'prefix', cap?: number) {
      if (tier === 'exact' || searchWords(text).length < 2) return null;
      const q = ftsQueries(text, accountId, tier);
      if (q === null) return null;
      const m = await accountMatch(q, accountId);
      const limit = cap === undefined ? sql`` : sql` limit ${Math.max(0, Math.floor(cap)) + 1}`;
      return sql<{ seq: number }>`select seq from (select rowid as seq from contacts_fts
          where contacts_fts match ${m}${limit})
        union select c.seq from contacts c where +c.account_id = ${accountId}
          and c.seq in (select rowid from contacts_exact where contacts_exact match ${q.key})`;
    },
  };
}

/** The texts of a contact's full-text row, as a list of SQL expressions over `contacts` (INDEX_TEXTS). */
const INDEX_TEXT_LIST = sql`contacts.first_name || ' ' || coalesce(contacts.middle_name, '') || ' ' || contacts.last_name,
  coalesce(contacts.email, '') || ' ' || coalesce(contacts.primary_email, ''),
  coalesce(contacts.organization, '')`;

/**
 * The texts of a contact's full-text row (name, email, organisation) before their letters are
 * folded, as a JSON array over `contacts` (migration search-fold-letters' ftsRow): split here
 * as the tokenizer splits them (index-words.ts).
 */
export const INDEX_TEXTS = sql<string>`json_array(${INDEX_TEXT_LIST})`;

/** The columns of `contacts` INDEX_TEXTS is made of, each as text (textTest's candidate test). */
const INDEX_COLUMNS = [
  sql`contacts.first_name`,
  sql`coalesce(contacts.middle_name, '')`,
  sql`contacts.last_name`,
  sql`coalesce(contacts.email, '')`,
  sql`coalesce(contacts.primary_email, '')`,
  sql`coalesce(contacts.organization, '')`,
];

/**
 * The account's exact matches that the words miss (a phone number, an email typed without its
 * dots), to add to the words' count. A few exact matches are each probed in the full-text
 * index by rowid; more are checked against the words' matches read once: each probe merges
 * every term of a prefix again (`org 17`, 83 contacts of "Org 17": 14.6 ms probed one by one).
 */
function exactMissed(q: FtsQueries, accountId: string) {
  const exact = sql`contacts c where +c.account_id = ${accountId}
        and c.seq in (select rowid from contacts_exact where contacts_exact match ${q.key})`;
  return sql<number>`(select case
          when e.n = 0 then 0
          when e.n <= 8 then (select count(*) from ${exact}
            and not exists (select 1 from contacts_fts where contacts_fts match ${q.words} and rowid = c.seq))
          else (select count(*) from ${exact}
            and c.seq not in (select rowid from contacts_fts where contacts_fts match ${q.words}))
          end from (select count(*) as n from ${exact}) as e)`;
}

/**
 * The account's matches of the words (`m`, the account's match: matchFor) counted, with the
 * exact matches the words miss (a phone number, an email typed without its dots), in one
 * statement. A few exact matches are each probed in the full-text index by rowid. More (an
 * organisation's people, `org 17`'s 83) are tested against the words' matches as the count reads
 * them, once: the count less the exact ones it met, plus every exact one. Probing each merges
 * every term of a prefix again (`org 17`: 14.6 ms probed one by one), and reading the words'
 * matches a second time to leave them out merged them twice (6.4 against 3.6 ms, raw, 1,000,000
 * contacts). With `cap` the words' part reads no further than it (accountWordCount): the answer
 * is at least `cap` then, and at most the exact count, as ContactSearch.count allows.
 */
function countWithExact(q: FtsQueries, accountId: string, m: string | RawBuilder<unknown>, cap?: number) {
  const limit = cap === undefined ? sql`` : sql` limit ${Math.max(0, Math.floor(cap))}`;
  return sql`with e as materialized (select c.seq from contacts c where +c.account_id = ${accountId}
        and c.seq in (select rowid from contacts_exact where contacts_exact match ${q.key})),
      en as materialized (select count(*) as n from e)
    select case when (select n from en) <= 8
      then ${accountWordCount(m, cap)} + (select count(*) from e
        where not exists (select 1 from contacts_fts where contacts_fts match ${q.words} and rowid = e.seq))
      else (select w.n - w.hit from (select count(*) as n, count(*) filter (where +w.seq in (select seq from e)) as hit
          from (select rowid as seq from contacts_fts where contacts_fts match ${m}${limit}) as w) as w)
        + (select n from en) end as n`;
}

/**
 * How the account's matches of the words are counted (an SQL expression): in one full-text
 * query of the account's match (matchFor; counting the other accounts' matches apart merged
 * every prefix's terms a second time: `jose gar` 3.6 → 2.4 ms raw on 1,000,000 contacts).
 * Capped: the first `cap` matches of the doclist, no further (a broad word's whole-word tier,
 * 49,000 contacts for `jane`, is read to its end otherwise).
 */
function accountWordCount(m: string | RawBuilder<unknown>, cap?: number) {
  return cap === undefined
    ? sql`(select count(*) from contacts_fts where contacts_fts match ${m})`
    : sql`(select count(*) from (select rowid from contacts_fts where contacts_fts match ${m} limit ${Math.max(0, Math.floor(cap))}))`;
}

/** Each account's contacts, from its counter slots. */
type AccountSizes = ReadonlyArray<{ acct: string; n: number }>;

async function readAccountSizes(db: Db): Promise<AccountSizes> {
  const r = await sql<{ acct: string; n: number }>`select a.id as acct,
      coalesce((select sum(s.contacts) from account_counter_slots s where s.account_id = a.id), 0) as n
    from accounts a`.execute(db);
  return r.rows;
}

/**
 * The full-text match of the account's contacts having the words (the match for `contacts_fts`,
 * a string or an SQL expression): the words alone when no other account has a contact; when
 * the other accounts are few and small beside this one, the words' matches NOT in those
 * accounts' tokens (the other accounts' token lists are short; intersecting with this
 * account's own long list costs a seek per match: `jose gar` 4.4 against 10.3 ms, and a page
 * looked up by its matches, `tanaka12`'s 1,630, 3.1 against 1.3 ms); else the words within the
 * account's token.
 */
function matchFor(q: FtsQueries, accountId: string, sizes: AccountSizes) {
  const mine = Number(sizes.find((r) => r.acct === accountId)?.n ?? 0);
  const others = sizes.filter((r) => r.acct !== accountId);
  const othersSize = others.reduce((t, r) => t + Math.max(0, Number(r.n)), 0);
  if (others.length > 0 && others.length <= 4 && othersSize * 4 <= mine) {
    return notInAccounts(
      q,
      others.map((o) => o.acct),
    );
  }
  return scopedMatch(q, accountId);
}

interface FtsQueries {
  /** The tier's words (whole, or prefixes) in any account; for `exact`, the exact key's term. */
  words: string;
  /** The same, within one account (its token in the account column). */
  inAccount: string;
  /** The match of the exact key in `contacts_exact`. */
  key: string;
}

/**
 * The FTS5 queries for a search tier (migrations search-account-token, search-relevance). The
 * exact key is one term of `contacts_exact`, no prefix. Null without words.
 */
export function ftsQueries(text: string, accountId: string, tier: SearchTier = 'prefix'): FtsQueries | null {
  const found = searchWords(text);
  const exact = exactKey(text);
  if (found.length === 0 || exact === null) return null;
  const key = ftsTerm(exact, '');
  const words = tier === 'exact' ? key : ftsWords(found, tier === 'prefix' ? '*' : '');
  return { words, inAccount: inAccount({ words }, accountId), key };
}

/** One word as an FTS5 phrase, quoted; `star` '*' for its prefix. */
const ftsTerm = (w: string, star: '*' | '') => `"${w.replace(/"/g, '""')}"${star}`;

/**
 * Every word (its prefix with `star` '*') in a contact's name, email or organisation. A word of
 * digits and a–f alone is kept to those columns by a column filter, since it could be (the
 * start of) an account's token, which is hex; any other word cannot, and goes without the
 * filter, which costs the index's read a test of each match's columns: `jane` counted, 49,751
 * matches, 1.7 ms against 2.0 (1,000,000 contacts). Exported for the bench's raw queries.
 */
export function ftsWords(words: readonly string[], star: '*' | ''): string {
  return words
    .map((w) =>
      /^[0-9a-f]+$/.test(w) ? `{name email organization} : ${ftsTerm(w, star)}` : ftsTerm(w, star),
    )
    .join(' AND ');
}

const accountToken = (accountId: string) => `"${Buffer.from(accountId, 'utf8').toString('hex')}"`;

function inAccount(q: { words: string }, accountId: string): string {
  return `account : ${accountToken(accountId)} AND ${q.words}`;
}

/** The words' matches outside the given accounts (every contact holds its own account's token). */
function notInAccounts(q: { words: string }, accountIds: readonly string[]): string {
  return `(${q.words}) NOT account : (${accountIds.map(accountToken).join(' OR ')})`;
}

/**
 * The match for one account's contacts: the words alone when no other account has a contact
 * (two index probes decide it, in the same statement as the match), else the words within the
 * account's token. The account's list is as long as the account, so skipping it when it is
 * the whole table saves walking it.
 */
function scopedMatch(q: FtsQueries, accountId: string) {
  return sql`(case
    when not exists (select 1 from contacts where account_id < ${accountId})
      and not exists (select 1 from contacts where account_id > ${accountId})
    then ${q.words} else ${q.inAccount} end)`;
}
