/**
 * Typing a choice's name in a select (renderer/ui/typed-choice.ts, behind type-to-choose.ts),
 * as the entry row's payment method takes it: the whole name or its start chooses, accents and case aside; a
 * letter that fits nothing after what was typed starts a new word; the same letter again moves
 * to the next choice starting with it; a letter no choice starts with chooses nothing.
 */
import { describe, expect, it } from 'vitest';
import { typedChoice } from '../../renderer/ui/typed-choice.ts';

const METHODS = ['Cash', 'Check', 'Credit card', 'ACH', 'Wire', 'PayPal', 'Venmo'];

/** Types `keys` one by one from choice `start`; the choice each key lands on. */
function type(labels: readonly (string | null)[], start: number, keys: string): number[] {
  let typed = '';
  let at = start;
  return [...keys].map((k) => {
    const hit = typedChoice(labels, at, typed, k);
    typed = hit?.typed ?? '';
    at = hit?.index ?? at;
    return at;
  });
}

describe('type to choose', () => {
  it('chooses by the start of the name, whatever the case, however fast', () => {
    expect(type(METHODS, 1, 'cash')).toEqual([0, 0, 0, 0]);
    expect(type(METHODS, 0, 'CHECK')).toEqual([0, 1, 1, 1, 1]);
    expect(type(METHODS, 0, 'cr')).toEqual([0, 2]);
    expect(type(METHODS, 0, 'credit c')).toEqual([0, 2, 2, 2, 2, 2, 2, 2]);
  });
  it('starts a new word when a letter fits nothing after what was typed', () => {
    expect(type(METHODS, 1, 'cashw')).toEqual([0, 0, 0, 0, 4]);
    expect(type(METHODS, 0, 'cashch')).toEqual([0, 0, 0, 0, 0, 1]);
  });
  it('moves on among choices starting with the same letter when it is typed again', () => {
    expect(type(METHODS, 0, 'ccc')).toEqual([0, 1, 2]);
  });
  it('ignores accents, skips choices that cannot be taken, and chooses nothing for a letter none starts with', () => {
    expect(type(['— none —', 'École', 'Ecole B'], 0, 'eco')).toEqual([1, 1, 1]);
    expect(type([null, 'Cash'], 1, 'c')).toEqual([1]);
    expect(typedChoice(METHODS, 0, '', 'x')).toBeNull();
  });
});
