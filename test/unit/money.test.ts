/**
 * Decimal dollars on the wire ↔ integer cents inside: exact, or refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_DOLLARS,
  centsToDollars,
  dollarsForInput,
  dollarsToCents,
  formatCents,
  formatDollars,
  optionalDollarsFromInput,
  parseAmountCents,
} from '#shared/money.ts';

const SEED = Number(process.env.GIFTDESK_FC_SEED ?? 20261122);

describe('dollarsToCents', () => {
  it.each([
    [0.29, 29],
    [0.07, 7],
    [19.99, 1999],
    [1e9, 100_000_000_000],
    [125, 12_500],
    [125.5, 12_550],
    [1234567.89, 123_456_789],
    [999_999_999.99, 99_999_999_999],
    [0.1 + 0.2, 30], // binary noise of a sum, not a third decimal
    [-5.5, -550],
    [0, 0],
  ])('%d dollars → %d cents', (dollars, cents) => {
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  it('treats -0 as zero', () => {
    expect(Object.is(dollarsToCents(-0), 0)).toBe(true);
  });

  it.each([
    125.005,
    1.005,
    0.001,
    1e-7,
    4e-11,
    5e-324,
    NaN,
    Infinity,
    -Infinity,
    1e21,
    1e308,
    Number.MAX_VALUE,
    92233720368547.75,
  ])('refuses %d (not a whole number of cents, or not exactly representable)', (dollars) => {
    expect(dollarsToCents(dollars)).toBeNull();
  });

  it('reads every amount typed with two decimals exactly, up to the wire maximum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_DOLLARS * 100 }), (cents) => {
        const typed = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        expect(dollarsToCents(Number(typed))).toBe(cents);
        expect(dollarsToCents(JSON.parse(typed) as number)).toBe(cents);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('refuses every amount with a third decimal that is not zero', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_DOLLARS * 100 - 1 }),
        fc.integer({ min: 1, max: 9 }),
        (cents, mills) => {
          const typed = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}${mills}`;
          expect(dollarsToCents(Number(typed))).toBeNull();
        },
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('never returns anything but null or a safe integer', () => {
    fc.assert(
      fc.property(fc.double(), (d) => {
        const c = dollarsToCents(d);
        expect(c === null || Number.isSafeInteger(c)).toBe(true);
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });
});

describe('centsToDollars', () => {
  it.each([
    [29, 0.29],
    [1, 0.01],
    [100, 1],
    [12_550, 125.5],
    [100_000_000_000, 1e9],
    [-29, -0.29],
  ])('%d cents → %d dollars', (cents, dollars) => {
    expect(centsToDollars(cents)).toBe(dollars);
  });

  it('round-trips through dollarsToCents for every amount below 1e15 cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(1e15 - 1), max: 1e15 - 1 }), (cents) => {
        expect(dollarsToCents(centsToDollars(cents))).toBe(cents);
      }),
      { seed: SEED, numRuns: 5000 },
    );
    expect(dollarsToCents(centsToDollars(1e15 - 1))).toBe(1e15 - 1);
  });

  it('serialises as the decimal a person reads (no binary noise)', () => {
    expect(JSON.stringify({ a: centsToDollars(30) })).toBe('{"a":0.3}');
    expect(JSON.stringify({ a: centsToDollars(123_456_789) })).toBe('{"a":1234567.89}');
  });
});

describe('formatCents', () => {
  it('formats for people', () => {
    expect(formatCents(123_450)).toBe('$1,234.50');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(-250)).toBe('-$2.50');
  });
});

describe('formatDollars', () => {
  it('formats decimal dollars from the API, binary noise rounded to the cent', () => {
    expect(formatDollars(3300)).toBe('$3,300.00');
    expect(formatDollars(10000.5)).toBe('$10,000.50');
    expect(formatDollars(0.1 + 0.2)).toBe('$0.30');
  });
});

describe('what people type, and what their boxes start with', () => {
  it.each([
    ['1,234.5', 123_450],
    ['$12', 1200],
    ['12.00', 1200],
    [' 50 ', 5000],
    ['5.', 500],
  ])('reads the amount %s as %d cents', (typed, cents) => {
    expect(parseAmountCents(typed)).toBe(cents);
  });

  it.each(['', 'lots', '-5', '.5', '1.234', '1e3'])('reads %s as no amount', (typed) => {
    expect(parseAmountCents(typed)).toBeNull();
  });

  it('reads an optional amount: empty is none, a number in dollars, anything else NaN for the schema', () => {
    expect(optionalDollarsFromInput('')).toBeNull();
    expect(optionalDollarsFromInput(undefined)).toBeNull();
    expect(optionalDollarsFromInput(' $3,300.00 ')).toBe(3300);
    expect(optionalDollarsFromInput('10000.50')).toBe(10000.5);
    expect(optionalDollarsFromInput('-5')).toBe(-5);
    expect(optionalDollarsFromInput('lots')).toBeNaN();
  });

  it('starts an amount box with the dollars and two decimals', () => {
    expect(dollarsForInput(1250.5)).toBe('1250.50');
    expect(dollarsForInput(0.1 + 0.2)).toBe('0.30');
  });
});
