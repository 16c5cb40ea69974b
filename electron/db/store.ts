/**
 * The seam between the domain and a storage engine (as Actual's platform/sqlite is):
 * one Kysely handle typed by `Database`, plus the few things only an engine knows how to do.
 */
import type { Expression, Kysely, RawBuilder, SqlBool } from 'kysely';
import { foldText } from '#shared/fold.ts';
import type { Engine } from './migration-types.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export type TimeUnit = 'hour' | 'day';

/**
 * The nested match sets of a contact search, narrowest first (each holds the ones before it):
 * - `exact`: the whole typed text is a contact's full name (either order), email, phone
 *   digits or organisation, accents, case and separators ignored — one index lookup;
 * - `words`: every typed word is a whole word of the name, email or organisation (or exact);
 * - `prefix`: every typed word starts a word there (or exact): the search's whole match set.
 */
export type SearchTier = 'exact' | 'words' | 'prefix';

/**
 * Bounds on the contacts' `seq` a search condition may return (both included): a hint for an
 * engine that can read its full-text index by row range, used where the caller restricts the
 * rows to that span anyway (search.ts searchPageIds).
 */
export interface SeqRange {
  /** A number, or an SQL expression evaluated once in the statement (a scalar subquery). */
  from: number | Expression<number>;
  to: number | Expression<number>;
}

export interface WriteMode {
  /**
   * A large write (an import chunk): it gets a transaction of its own instead of sharing a
   * group commit. Same guarantees; on SQLite it runs without the per-item savepoint, whose
   * sub-journal copies every page the chunk touches.
   */
  bulk?: boolean;
}

export interface Store {
  readonly engine: Engine;
  /** For reads. Writes go through `write`. */
  readonly db: Db;
  /**
   * Runs `fn` in a write transaction. When it resolves, the write is durable (committed and
   * synced). When `fn` throws, nothing it wrote remains. Concurrent calls may share one
   * commit (group commit) but never see each other's partial work.
   */
  write<T>(fn: (trx: Db) => Promise<T>, opts?: WriteMode): Promise<T>;
  /**
   * A condition on `contacts` matching the search text within one account: words and word
   * prefixes over name, email and organisation, case- and accent-insensitive. It includes
   * the account scope (callers add no `account_id = ?` of their own), so the engine can make
   * the full-text match drive the plan. Null when the text has no words. `drive: 'order'`
   * lets the engine walk the account's order index instead, probing the match set: cheaper
   * for one page of a broad match (the page's rows come early in the index). With `range`,
   * the engine may leave out matches whose seq is outside it. `dense`, with 'order': the
   * caller has counted the set and it holds at least a twentieth of the account's contacts
   * (so does each word's range, which holds the set), which the engine need not test itself.
   */
  contactSearchCondition(
    text: string,
    accountId: string,
    drive?: 'match' | 'order',
    tier?: SearchTier,
    range?: SeqRange,
    dense?: boolean,
  ): Expression<SqlBool> | null;
  /**
   * How many contacts of the account match the search text (exact, the same set as
   * `contactSearchCondition` for the same tier), counted from the full-text index without
   * reading each match's row where the engine can. Null when the text has no words.
   */
  countContactSearch(text: string, accountId: string, tier?: SearchTier): Promise<number | null>;
  /**
   * Where the engine counts a tier's matches only by building the set of them anyway (the
   * join of several words' ranges, on PostgreSQL): a query of that set's contact `seq`s, each
   * once, the same set as `contactSearchCondition` for the tier, so the caller can count it
   * and read a page of it in one statement from one build. Null when counting is cheaper
   * without the set (one word; SQLite's full-text index), or the text has no words.
   */
  contactSearchSet?(text: string, accountId: string, tier?: SearchTier): RawBuilder<{ seq: number }> | null;
  /**
   * The start of the UTC hour or day a timestamp column falls in, as the canonical
   * `YYYY-MM-DDTHH:MM:SS.mmmZ` text, for GROUP BY (gifts over time). `column` is a Kysely
   * reference such as `'d.donationDate'`.
   */
  timeBucket(column: string, unit: TimeUnit): RawBuilder<string>;
  /** A consistent copy of the whole database in `file` (SQLite online backup). */
  backupTo(file: string): Promise<void>;
  /** Finishes queued writes and closes the engine. */
  close(): Promise<void>;
  /** A description for logs, without credentials. */
  readonly location: string;
}

/** The words of a search text: accents folded (foldText), lower case, split on anything not a letter or digit. */
export function searchWords(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 16);
}

/**
 * The exact-match key of a search text: its words joined without separators, as the engines
 * store each contact's keys (migration search-relevance): "Núñez, José" → `nunezjose`,
 * "(555) 010-2233" → `5550102233`. Null when the text has no words.
 */
export function exactKey(text: string): string | null {
  const words = searchWords(text);
  return words.length === 0 ? null : words.join('');
}
