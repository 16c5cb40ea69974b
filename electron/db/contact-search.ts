/**
 * Contact search as every engine offers it (`Store.search`): the match sets a search text
 * defines, and the conditions, counts and sets the domain's search pages are built from. Each
 * engine provides its own (sqlite/search.ts over FTS5, postgres/search.ts over a table of
 * terms); the words and the exact key of a text are the same on both.
 */
import type { Expression, RawBuilder, SqlBool } from 'kysely';
import { foldText } from '#shared/fold.ts';

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
 * rows to that span anyway (the domain's searchPageIds).
 */
export interface SeqRange {
  /** A number, or an SQL expression evaluated once in the statement (a scalar subquery). */
  from: number | Expression<number>;
  to: number | Expression<number>;
}

/**
 * The contacts' `seq`s a search condition may return, as a query (a window of the account's
 * order index, at most a few thousand): a hint for an engine that can test each entry of its
 * full-text index against a set built from them, instead of building a set of every match
 * (SQLite; the domain's searchPageIds, where the order's window is not a narrow span of seqs).
 * The condition then holds only the account's contacts among them, however it is driven.
 */
export interface SeqSet {
  among: Expression<unknown>;
}

export interface ContactSearch {
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
  condition(
    text: string,
    accountId: string,
    drive?: 'match' | 'order',
    tier?: SearchTier,
    range?: SeqRange | SeqSet,
    dense?: boolean,
  ): Expression<SqlBool> | null;
  /**
   * How many contacts of the account match the search text (exact, the same set as
   * `condition` for the same tier), counted from the full-text index without reading each
   * match's row where the engine can. Null when the text has no words. With `cap`, the
   * engine may stop counting at `cap`: the answer is then exact when below `cap`, else some
   * number at least `cap` (at most the exact count), for a caller that needs the size
   * exactly only when it is small (relevance's whole-word tier, past which no page runs).
   */
  count(text: string, accountId: string, tier?: SearchTier, cap?: number): Promise<number | null>;
  /**
   * Where the engine counts a tier's matches only by building the set of them anyway, or can
   * count and page several words' matches from one read of its index: a query of that set's
   * contact `seq`s, each once, the same set as `condition` for the tier, so the caller can
   * count it and read a page of it in one statement from one build. Null when counting is
   * cheaper without the set (one word), or the text has no words. With `cap`, the engine may
   * cut the set short once it holds more than `cap` (the caller then does not use it; SQLite,
   * whose set costs a temporary index entry per match where its count reads the index alone).
   */
  matchSet?(
    text: string,
    accountId: string,
    tier?: SearchTier,
    cap?: number,
  ): Promise<RawBuilder<{ seq: number }> | null>;
  /**
   * SQLite: one page of the whole match set in creation order (`createdAt` then `id`, both
   * `dir`), read from the full-text index's newest (or oldest) matches by seq and checked
   * against the creation index (sqlite/creation-page.ts); null where creation and seq order
   * disagree around the page, or the page is deeper than that read is worth.
   */
  creationPage?(
    text: string,
    accountId: string,
    dir: 'asc' | 'desc',
    skip: number,
    take: number,
  ): Promise<string[] | null>;
  /**
   * SQLite: the account's match set of a tier (default: the whole match set; the words' matches
   * and the exact ones) read once, as the contacts' seqs, each once, for the caller to count and
   * to test an order's entries against in memory; null without words, or when the words match
   * more than `cap` contacts (the read stops there).
   */
  matchSeqs?(
    text: string,
    accountId: string,
    cap: number,
    tier?: 'words' | 'prefix',
  ): Promise<SeqMembers | null>;
  /**
   * SQLite, one word: how dense a tier's full-text matches are among the newest contacts of
   * every account — the newest `sample` matches by seq over the seqs they span, read newest
   * first from the index (a few dozen µs) — or null when the tier has fewer matches than that,
   * or reading them newest first would cost about as much as counting them all.
   */
  recentDensity?(text: string, tier: 'words' | 'prefix', sample: number): Promise<number | null>;
  /**
   * SQLite: one read of the search's full-text matches that both counts the account's (as
   * `count` does for the prefix tier, the exact matches the words miss included) and keeps the
   * ones among `among` (the account's own seqs: a window of an order). Null without words.
   */
  windowScan?(text: string, accountId: string, among: Expression<unknown>): Promise<WindowScan | null>;
  /**
   * SQLite, one word of plain letters and digits: a contact's tier for it told from the
   * contact's own texts, for a walk of an order that stops as soon as a tier's page is full:
   * the walk reads a row per entry, where the full-text index would be read to its end to test
   * each match against a window of the order (`jane`: 49,000 matches). Null otherwise.
   */
  textTest?(text: string): TextTest | null;
  /**
   * SQLite: `count` of the prefix tier (the whole match set) as an SQL expression, to be read
   * in the same statement as a page. Null without words.
   */
  countSql?(text: string, accountId: string): Promise<RawBuilder<number> | null>;
}

/** A contact tested by its own texts for a one-word search (ContactSearch.textTest). */
export interface TextTest {
  /**
   * Over `contacts`: false only for a contact whose texts cannot hold the word (GLOB patterns
   * over its full-text columns), so that only the few others are told.
   */
  candidate: RawBuilder<SqlBool>;
  /**
   * Over `contacts`: its tier for the word from its texts, split as the index splits them: the
   * word whole ('words'), only a prefix ('prefix'), neither ('none'), or 'unknown' where a text
   * cannot be split here (the caller then reads the page another way).
   */
  tier: RawBuilder<string>;
}

/** Contacts' seqs read from the index (ContactSearch.matchSeqs), each once, in ascending order. */
export interface SeqMembers extends Iterable<number> {
  readonly size: number;
  has(seq: number): boolean;
}

/**
 * SeqMembers over seqs sorted ascending, each once, as the full-text index returns its rowids:
 * membership by binary search. A Set of 15,000 seqs costs 0.7 ms to build (`walker4`), more
 * than the search's walk of the order then tests against it.
 */
export function sortedSeqs(sorted: readonly number[]): SeqMembers {
  return {
    size: sorted.length,
    has(seq: number): boolean {
      let lo = 0;
      let hi = sorted.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const at = sorted[mid]!;
        if (at === seq) return true;
        if (at < seq) lo = mid + 1;
        else hi = mid - 1;
      }
      return false;
    },
    [Symbol.iterator]: () => sorted[Symbol.iterator](),
  };
}

/** The parts of one statement built on a full-text read (ContactSearch.windowScan). */
export interface WindowScan {
  /** The common table expression `scan` the other parts read, to put in the statement's `with`. */
  cte: RawBuilder<unknown>;
  /** The account's whole match set's size. */
  count: RawBuilder<number>;
  /** The matches among the window, as a query of seqs. */
  members: RawBuilder<unknown>;
  /** The texts the index holds a contact's words from, as a JSON array, over `contacts`. */
  texts: RawBuilder<string>;
  /**
   * Whether the contact whose texts these are (`texts`, parsed) is in the whole-word tier,
   * told without the index: null when its text cannot be split here as the index splits it.
   */
  wholeIn(texts: ReadonlyArray<string | null>): boolean | null;
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
