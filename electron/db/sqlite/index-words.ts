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
