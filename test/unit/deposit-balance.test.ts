/**
 * The deposit's pure parts: a check's number read from the notes (and not a pledge card's or
 * a table's), the count set against what was entered in words, and an event's stations'
 * figures added up.
 */
import { describe, expect, it } from 'vitest';
import { checkNumberIn } from '#shared/check-number.ts';
import { addDepositFigures, type DepositFigures } from '../../electron/domain/donations/index.ts';
import {
  countSentence,
  countedMethods,
  differenceWords,
  lineState,
} from '../../renderer/screens/gift-entry/deposit/balance.ts';

describe('a check number in the notes', () => {
  it.each([
    ['check 1021', '1021'],
    ['table 4, paid by check no. 1021', '1021'],
    ['ck #388', '388'],
    ['CHK# 5512', '5512'],
    ['Check number 77', '77'],
    ['chk.1001', '1001'],
  ])('%s → %s', (notes, want) => expect(checkNumberIn(notes)).toBe(want));

  it.each([
    ['Pledge card 114, matching gift letter to follow'],
    ['table 4'],
    ['checked in at 7pm, table 12'],
    ['paid by check'],
    ['gd:don_01J00000000000000000000000'],
  ])('none in %s', (notes) => expect(checkNumberIn(notes)).toBeNull());
  it('none in no notes', () => expect(checkNumberIn(null)).toBeNull());
});

describe('the count in words', () => {
  const summary = {
    byMethod: [
      { paymentMethod: 'cash' as const, count: 2, total: 39.98 },
      { paymentMethod: 'check' as const, count: 1, total: 100 },
      { paymentMethod: 'in_kind' as const, count: 1, total: 50 },
    ],
  };
  it('lines: cash, checks and cards always, and any other method with gifts', () => {
    expect(countedMethods(summary)).toEqual(['cash', 'check', 'credit_card', 'in_kind']);
  });
  it('waits for every method with gifts, then says the difference and where', () => {
    const lines = (cash: string, checks: string, count = '') => [
      lineState(summary, 'cash', { count: '', total: cash }),
      lineState(summary, 'check', { count, total: checks }),
      lineState(summary, 'credit_card', { count: '', total: '' }),
      lineState(summary, 'in_kind', { count: '', total: '50' }),
    ];
    expect(countSentence(lines('39.98', ''))).toBeNull();
    expect(countSentence(lines('39.98', '100'))).toEqual({
      differs: false,
      text: 'Counted $189.98: it balances with what was entered.',
    });
    expect(countSentence(lines('19.98', '100.00'))).toEqual({
      differs: true,
      text: 'Counted $169.98 against $189.98 entered: $20.00 short (cash $20.00 short).',
    });
    expect(countSentence(lines('39.98', '100', '2'))?.text).toBe(
      'Counted $189.98 against $189.98 entered: the same total (checks 2 counted, 1 entered).',
    );
    expect(differenceWords(500)).toBe('$5.00 over');
  });
});

describe('stations added up', () => {
  it('adds counts and cents per method and keeps every check', () => {
    const check = (id: string, cents: number) => ({
      donationId: id,
      contactId: 'cnt_1',
      contactName: 'Ann Lee',
      contactEmail: null,
      contactOrganization: null,
      cents,
      donationDate: '2026-11-27',
      checkNumber: null,
    });
    const a: DepositFigures = {
      count: 3,
      cents: 3999,
      byMethod: [
        { paymentMethod: 'cash', count: 2, cents: 3998 },
        { paymentMethod: 'check', count: 1, cents: 1 },
      ],
      checks: [check('don_a', 1)],
    };
    const b: DepositFigures = {
      count: 2,
      cents: 12000,
      byMethod: [
        { paymentMethod: 'credit_card', count: 1, cents: 2000 },
        { paymentMethod: 'check', count: 1, cents: 10000 },
      ],
      checks: [check('don_b', 10000)],
    };
    expect(addDepositFigures([a, b])).toEqual({
      count: 5,
      cents: 15999,
      byMethod: [
        { paymentMethod: 'cash', count: 2, cents: 3998 },
        { paymentMethod: 'check', count: 2, cents: 10001 },
        { paymentMethod: 'credit_card', count: 1, cents: 2000 },
      ],
      checks: [check('don_a', 1), check('don_b', 10000)],
    });
  });
});
