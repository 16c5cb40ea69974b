/**
 * The raw same work's walk for one word (bench/search-sqlite-raw.ts, strategy `texts`): a tier's
 * page off the account's last-gift order, walked until it is full, the contacts whose texts can
 * hold the word told in the statement, as the product's walk reads it (relevance-words.ts
 * walkedPage, with the product's SQL function and patterns: db/sqlite/index-words.ts).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { WORD_TIER_FUNCTION, wordGlobs, wordTierTest } from '../electron/db/sqlite/index-words.ts';

export interface WalkParts {
  accountId: string;
  /** The window a tier's first `upTo` rows should fall in (null: too few matches, or too wide). */
  densityWindow(m: string, upTo: number): number | null;
  /** The account's first `w` entries of the last-gift order, the given columns. */
  lastGiftWalk(cols: string, w: number): string;
  /** The exact key's matches (`@k`). */
  exactKeys: string;
}

/**
 * One word's tier page (the exact tier left out), `take` ids, or null if the window held fewer
 * or a contact before the page's end cannot be told.
 */
export function rawWalk(db: BetterSqlite3.Database, p: WalkParts) {
  const statements = new Map<number, BetterSqlite3.Statement>();
  const holds = ['first_name', 'middle_name', 'last_name', 'email', 'primary_email', 'organization']
    .map(
      (x) =>
        `(case when octet_length(${x}) = length(${x}) then ${x} like @like else (${x} glob @g or ${x} glob @s) end)`,
    )
    .join(' or ');
  const texts = `first_name || ' ' || coalesce(middle_name, '') || ' ' || last_name,
    coalesce(email, '') || ' ' || coalesce(primary_email, ''), coalesce(organization, '')`;
  return (word: string, m: string, tier: 'words' | 'prefix', key: string, take: number): string[] | null => {
    const w = p.densityWindow(m, take);
    const globs = wordGlobs(word);
    if (w === null || !globs || !wordTierTest(word)) return null;
    let s = statements.get(w);
    if (!s) {
      s = db.prepare(`select json_group_array(json_array(id, t)) as kept from (select id, t from (
          select id, ${WORD_TIER_FUNCTION}(@w, ${texts}) as t from (${p.lastGiftWalk('*', w)})
          where (${holds}) and seq not in (${p.exactKeys}) limit -1) where t in (@tier, 'unknown') limit @take)`);
      statements.set(w, s);
    }
    const args = {
      a: p.accountId,
      w: word,
      k: key,
      like: `%${word}%`,
      g: globs.word,
      s: globs.split,
      tier,
      take,
    };
    const kept = JSON.parse((s.get(args) as { kept: string }).kept) as Array<[string, string]>;
    return kept.length === take && kept.every(([, t]) => t === tier) ? kept.map(([id]) => id) : null;
  };
}
