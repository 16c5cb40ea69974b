/**
 * The words a contact search matches: accents folded, case folded, split on punctuation.
 */
import { describe, expect, it } from 'vitest';
import { searchWords } from '../../electron/db/contact-search.ts';

describe('searchWords', () => {
  it.each([
    ['Zoë', ['zoe']],
    ['  ZOE   smith ', ['zoe', 'smith']],
    ["O'Brien", ['o', 'brien']],
    ['José Ñúñez', ['jose', 'nunez']],
    ['ann@example.org', ['ann', 'example', 'org']],
    ['Müller-Lüdenscheidt', ['muller', 'ludenscheidt']],
    ['ﬁnance', ['finance']], // a ligature folds to its letters
    ['Acme, Inc. 2025', ['acme', 'inc', '2025']],
    ['東京 タワー', ['東京', 'タワー']],
    ['"*) OR (NEAR', ['or', 'near']],
  ])('%j → %j', (text, words) => {
    expect(searchWords(text)).toEqual(words);
  });

  it.each(['', '   ', '***', '""', '-- ;', '🎉'])('finds no words in %j', (text) => {
    expect(searchWords(text)).toEqual([]);
  });

  it('keeps at most 16 words', () => {
    const words = searchWords(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '));
    expect(words).toHaveLength(16);
    expect(words[0]).toBe('w0');
    expect(words[15]).toBe('w15');
  });
});
