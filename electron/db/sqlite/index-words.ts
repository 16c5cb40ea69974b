/**
 * A contact's words as SQLite's full-text index holds them, split here in JavaScript: the
 * index's row is the contact's text with the letters of shared/fold.ts replaced (the triggers of
 * migration search-fold-letters), then split and folded by FTS5's `unicode61` tokenizer with
 * `remove_diacritics 2`. Reading a contact's words back from the index costs a seek per
 * contact (97 µs on a 1,000,000-contact file: a lookup in each of its segments), where
 * splitting the text here costs about a microsecond; relevance's one-read page tells the
 * whole-word matches of a window this way (domain/contacts/relevance-words.ts).
 *
 * Only for the characters where this is proven to be the tokenizer's own split and fold:
 * Latin (U+0000–U+024F, U+1E00–U+1EFF), the combining accents the tokenizer drops, and general
 * punctuation (U+2000–U+2064). test/unit/index-words.test.ts writes a contact holding each of
 * them and compares the index's words with these. Any other character (Greek, Cyrillic, Hebrew,
 * CJK, the Latin letters the tokenizer keeps whole or folds otherwise, the marks it splits on)
 * gives null, and the caller asks the index.
 */
import { LETTER_FOLDS } from '#shared/fold.ts';

/**
 * What the split below is not proven for: outside the ranges above, and within them µ (the
 * tokenizer folds it to Greek μ), Ǡ–ǣ, Ǯ, ǯ and Ǽ–ǿ (kept whole, where decomposition splits
 * them), and the combining marks the tokenizer splits a word on rather than drops.
 */
const UNPROVEN =
  /[^\u0000-\u024f\u0300-\u036f\u1e00-\u1eff\u2000-\u2064]|[\u00b5\u01e0-\u01e3\u01ee\u01ef\u01fc-\u01ff]|[\u0305\u030d\u030e\u0310\u0312-\u031a\u031c-\u0322\u0329-\u032c\u032f\u0332-\u036f]/u;

const FOLDED = new RegExp(`[${Object.keys(LETTER_FOLDS).join('')}]`, 'gu');

/**
 * The words the full-text index holds for one column's text (none for a missing text); null
 * when the text holds a character the split here is not proven for.
 */
export function indexWords(text: string | null): string[] | null {
  if (text === null) return [];
  if (UNPROVEN.test(text)) return null;
  return (
    text
      .replace(FOLDED, (c) => LETTER_FOLDS[c] ?? c)
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      // The long s: the tokenizer folds it to s (decomposition leaves ẛ as ſ and a mark).
      .replace(/ſ/gu, 's')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 0)
  );
}

/**
 * The test of whether every word is a whole word of one of the texts (a contact's full-text
 * columns), as the index's whole-word match (`"word"`, no prefix) finds it, built once for a
 * search and run per contact. It answers null when a text holds a character the split here is
 * not proven for, and always null when a searched word is not the index's one word for itself
 * (the index splits and folds the query's words too).
 */
export function wholeWordsTest(
  words: readonly string[],
): (texts: ReadonlyArray<string | null>) => boolean | null {
  const proven = words.every((w) => {
    const own = indexWords(w);
    return own !== null && own.length === 1 && own[0] === w;
  });
  return (texts) => {
    if (!proven) return null;
    const held = new Set<string>();
    for (const text of texts) {
      const split = indexWords(text);
      if (split === null) return null;
      for (const w of split) held.add(w);
    }
    return words.every((w) => held.has(w));
  };
}

/** A contact's relevance tier for one searched word, told from its texts (wordTierTest). */
export type WordTier = 'words' | 'prefix' | 'none';

/**
 * The test of which tier a contact is in for one searched word, told from its texts (a
 * contact's full-text columns) as the index tells it: 'words' when the word is a whole word
 * of one of them (`"word"`), 'prefix' when it only starts one (`"word"*`), 'none' when it
 * does neither. Null for a word that is not the index's one word for itself; the test answers
 * null for texts it cannot split here (a whole word found in a text that can still counts:
 * the index splits each column apart).
 */
export function wordTierTest(
  word: string,
): ((texts: ReadonlyArray<string | null>) => WordTier | null) | null {
  const own = indexWords(word);
  if (own === null || own.length !== 1 || own[0] !== word) return null;
  return (texts) => {
    let prefix = false;
    let unknown = false;
    for (const text of texts) {
      const split = indexWords(text);
      if (split === null) {
        unknown = true;
        continue;
      }
      for (const w of split) {
        if (w === word) return 'words';
        if (w.startsWith(word)) prefix = true;
      }
    }
    return unknown ? null : prefix ? 'prefix' : 'none';
  };
}

/** The SQL function TextTest.tier calls (db/sqlite/search.ts), registered on every connection. */
export const WORD_TIER_FUNCTION = 'giftdesk_word_tier';

/** How many contacts the SQL function told, and how many it could not (read by the tests). */
export const wordTierCalls = { told: 0, unknown: 0 };

/**
 * Registers WORD_TIER_FUNCTION on a connection (connection.ts): `giftdesk_word_tier(word,
 * text, …)` is a contact's tier for one searched word told from its texts (wordTierTest):
 * 'words', 'prefix', 'none', or 'unknown' where a text cannot be split here (or the word is not
 * the index's one word for itself). A statement can then stop walking an order as soon as a
 * tier's page is full, where telling the tier after the statement needs the whole window read
 * out first.
 */
export function registerWordTier(db: {
  function(
    name: string,
    opts: { deterministic: boolean; varargs: boolean },
    fn: (...args: unknown[]) => unknown,
  ): unknown;
}): void {
  const tests = new Map<string, ReturnType<typeof wordTierTest>>();
  db.function(WORD_TIER_FUNCTION, { deterministic: true, varargs: true }, (word, ...texts) => {
    if (typeof word !== 'string') return 'unknown';
    let test = tests.get(word);
    if (test === undefined) {
      // A few words a statement: the tests of the last 64 words searched are kept.
      if (tests.size >= 64) tests.delete(tests.keys().next().value as string);
      test = wordTierTest(word);
      tests.set(word, test);
    }
    const tier = test ? test(texts.map((t) => (typeof t === 'string' ? t : null))) : null;
    if (tier === null) wordTierCalls.unknown += 1;
    else wordTierCalls.told += 1;
    return tier ?? 'unknown';
  });
}

/**
 * For one searched word of ASCII letters and digits: GLOB patterns that every text the index
 * finds the word in (as a whole word or a prefix) matches, case and accents aside, so a walk
 * reads out only the few contacts that can hold it (`jane`: 66 of 1,095, where testing for
 * any letter not ASCII kept 531). The index folds each character to one (a letter with its
 * accent, a capital) or drops it (the combining accents U+0300–U+0331, folded to nothing with
 * remove_diacritics), and the letters of shared/fold.ts that become two are replaced before it
 * splits. So the word's letters stand in the text one character each, in a row, each the
 * letter itself, its capital, or a character beyond ASCII (`word`), unless the text holds a
 * dropped accent or a letter that becomes two (`split`: a candidate whatever it spells).
 */
export function wordGlobs(word: string): { word: string; split: string } | null {
  if (!/^[a-z0-9]+$/.test(word)) return null;
  const beyond = '\u0080-\u{10FFFF}';
  const letter = (c: string) => `[${c}${c === c.toUpperCase() ? '' : c.toUpperCase()}${beyond}]`;
  const two = Object.entries(LETTER_FOLDS)
    .filter(([, to]) => to.length !== 1)
    .map(([from]) => from)
    .join('');
  return { word: `*${[...word].map(letter).join('')}*`, split: `*[\u0300-\u0331${two}]*` };
}
