/**
 * The raw list's own strategies (bench/search-sqlite-raw.ts), each the product's way done by
 * hand, so that the same-work baseline stays the best raw way:
 * - `held`: the account's whole match set read once from the full-text index into memory, its
 *   size the total, and the page found by walking the creation order's index in windows and
 *   testing each entry against the set (or, for a sparse set, the set looked up and sorted);
 *   the product's way for several words or a word longer than the index's prefixes
 *   (held-set.ts). Null when the set is broader than the product's cap.
 * - `newest`: the page read from the index's newest matches by seq and checked against the
 *   creation index (electron/db/sqlite/creation-page.ts), then the total counted alone. Null
 *   where the check fails, or for a word longer than the index's prefixes.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { exactKey, searchWords, sortedSeqs } from '../electron/db/contact-search.ts';
import { pageFromOrderIndex, searchTuning } from '../electron/domain/contacts/search.ts';

type Db = BetterSqlite3.Database;

export interface RawList {
  /** The first `take` ids in creation order (newest first) and the total, or null. */
  page(strategy: 'held' | 'newest', search: string, take: number): { ids: string[]; total: number } | null;
}

/**
 * `scopedMatch`: the search's prefix match, scoped to the account (as the raw count scopes it);
 * `countAll`: the raw count of the search's whole match set.
 */
export function rawList(
  db: Db,
  accountId: string,
  accountContacts: number,
  scopedMatch: (search: string) => string,
  countAll: (search: string) => number,
): RawList {
  const cap = searchTuning.sqliteSetCap;
  const set = db.prepare(
    `select count(*) as n, json_group_array(seq) as words,
       (select json_group_array(c.seq) from contacts c where +c.account_id = @a
         and c.seq in (select rowid from contacts_exact where contacts_exact match @k)) as exact
     from (select rowid as seq from contacts_fts where contacts_fts match @m limit ${cap + 1})`,
  );
  const walk = db
    .prepare(
      `select json_group_array(seq) from (select seq from contacts where account_id = ?
       order by created_at desc, id desc limit +? offset ?)`,
    )
    .pluck();
  const sorted = db
    .prepare(
      `select id from contacts where seq in (select value from json_each(?)) and +account_id = ?
       order by created_at desc, id desc limit +?`,
    )
    .pluck();
  const bySeq = db.prepare(`select seq, id from contacts where seq in (select value from json_each(?))`);
  const newest = db.prepare(
    `with cand as materialized (
      select seq, 1 as src from (select rowid as seq from contacts_fts where contacts_fts match @m order by rowid desc limit @k)
      union all select seq, 2 from (select rowid as seq from contacts_exact where contacts_exact match @key order by rowid desc limit @k)),
    b as materialized (select max(coalesce((select min(seq) from cand where src = 1 having count(*) >= @k), 0),
      coalesce((select min(seq) from cand where src = 2 having count(*) >= @k), 0)) as bound),
    page as materialized (select c.created_at, c.id from contacts c
      where c.seq in (select seq from cand where seq >= (select bound from b)) and +c.account_id = @a
      order by c.created_at desc, c.id desc limit @take),
    seen as (select count(*) as n, min(seq) as seq from (select x.seq from contacts x where x.account_id = @a
      and (x.created_at, x.id) >= (select created_at, id from page order by created_at, id limit 1)
      order by x.created_at desc, x.id desc limit 20001))
    select case when (select count(*) from page) < @take then (select bound from b) = 0
        when (select max(seq) from contacts) - (select bound from b) > 20000 then 0
        else (select n from seen) <= 20000 and (select seq from seen) >= (select bound from b) end as ok,
      (select json_group_array(id order by created_at desc, id desc) from page) as ids`,
  );
  const quoted = (search: string) => `"${(exactKey(search) ?? '').replace(/"/g, '""')}"`;
  return {
    page(strategy, search, take) {
      const terms = searchWords(search);
      const key = quoted(search);
      if (strategy === 'newest') {
        if (terms.some((w) => w.length > 6)) return null;
        const r = newest.get({ m: scopedMatch(search), key, k: take + 8, a: accountId, take }) as {
          ok: number;
          ids: string;
        };
        return r.ok === 1 ? { ids: JSON.parse(r.ids) as string[], total: countAll(search) } : null;
      }
      // As the product: several words, or one longer than the index's prefixes (heldSetApplies).
      if (terms.length < 2 && !terms.some((w) => w.length > 6)) return null;
      const r = set.get({ a: accountId, k: key, m: scopedMatch(search) }) as {
        n: number;
        words: string;
        exact: string;
      };
      if (r.n > cap) return null;
      const words = JSON.parse(r.words) as number[];
      const exact = (JSON.parse(r.exact) as number[]).filter((s) => !words.includes(s));
      const all = exact.length === 0 ? words : [...words, ...exact].sort((a, b) => a - b);
      const held = sortedSeqs(all);
      const total = held.size;
      if (total === 0) return { ids: [], total };
      if (!pageFromOrderIndex(total, take, accountContacts, 4))
        return { ids: sorted.all(JSON.stringify(all), accountId, take) as string[], total };
      const page: number[] = [];
      let walked = 0;
      let found = 0;
      let window = Math.ceil((1.5 * take * accountContacts) / total) + 64;
      for (;;) {
        const seqs = JSON.parse(walk.get(accountId, window, walked) as string) as number[];
        for (const seq of seqs) {
          if (!held.has(seq)) continue;
          found += 1;
          page.push(seq);
          if (page.length === take) break;
        }
        walked += seqs.length;
        if (page.length === take || seqs.length < window) break;
        window = found > 0 ? Math.ceil((1.5 * (take - found) * walked) / found) + 64 : 4 * walked;
      }
      const ids = new Map(
        (bySeq.all(JSON.stringify(page)) as Array<{ seq: number; id: string }>).map((x) => [x.seq, x.id]),
      );
      return { ids: page.map((seq) => ids.get(seq)!), total };
    },
  };
}
