/**
 * The raw list's held-set strategy (bench/search-sqlite-raw.ts, strategy `held`): the account's
 * whole match set read once from the full-text index into memory, its size the total, and the
 * page found by walking the creation order's index in windows and testing each entry against
 * the set (or, for a sparse set, the set looked up and sorted). This is the product's way for
 * several words or a word longer than the index's prefixes (held-set.ts); the raw baseline did
 * not have it, so for those searches it read the matches twice (count, then page) and was
 * slower than the route it is meant to bound. Null when the set is broader than the product's
 * cap: such a set is counted from the index alone.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { exactKey, searchWords, sortedSeqs } from '../electron/db/contact-search.ts';
import { pageFromOrderIndex, searchTuning } from '../electron/domain/contacts/search.ts';

type Db = BetterSqlite3.Database;

export interface HeldList {
  /** The first `take` ids in creation order (newest first) and the total, or null (too broad). */
  page(search: string, take: number): { ids: string[]; total: number } | null;
}

/** `scopedMatch`: the search's prefix match, scoped to the account (as the raw count scopes it). */
export function heldList(
  db: Db,
  accountId: string,
  accountContacts: number,
  scopedMatch: (search: string) => string,
): HeldList {
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
       order by created_at desc, id desc limit ? offset ?)`,
    )
    .pluck();
  const sorted = db
    .prepare(
      `select id from contacts where seq in (select value from json_each(?)) and +account_id = ?
       order by created_at desc, id desc limit ?`,
    )
    .pluck();
  const bySeq = db.prepare(`select seq, id from contacts where seq in (select value from json_each(?))`);
  return {
    page(search, take) {
      // As the product: several words, or one longer than the index's prefixes (heldSetApplies).
      const terms = searchWords(search);
      if (terms.length < 2 && !terms.some((w) => w.length > 6)) return null;
      const key = `"${(exactKey(search) ?? '').replace(/"/g, '""')}"`;
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
