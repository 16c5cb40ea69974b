/**
 * Text as a person types it without reaching for accents: "Søren Ødegård" is found by
 * "soren odegard", "Łukasz Dębski" by "lukasz debski". Decomposable accents (é, ñ, ü, å, ź)
 * are marks taken off after Unicode decomposition; the letters below are letters of their own
 * that decompose into nothing, folded the way PostgreSQL's unaccent folds them, so both
 * engines find the same contacts.
 *
 * SQLite's full-text index folds these letters when a contact is written (migration
 * search-fold-letters copies this list): a letter added here needs a migration that refills
 * the index with it.
 */
export const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ß: 'ss',
  ẞ: 'SS',
  þ: 'th',
  Þ: 'TH',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŧ: 't',
  Ŧ: 'T',
};

const LETTERS = new RegExp(`[${Object.keys(LETTER_FOLDS).join('')}]`, 'gu');

/** Marks and the letters above folded, lower case: "Søren Núñez" → "soren nunez". */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(LETTERS, (c) => LETTER_FOLDS[c] ?? c)
    .toLowerCase();
}
