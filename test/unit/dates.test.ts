/**
 * ISO 8601 on the wire: real dates only, date-only is midnight UTC (D4), an end date covers
 * its whole day, offsets become UTC with a Z.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDateOnly, monthDayYear, toIsoInstant, toRangeEnd, typedDateOnly } from '#shared/dates.ts';

const SEED = Number(process.env.GIFTDESK_FC_SEED ?? 20261122);

describe('isDateOnly', () => {
  it.each([
    '2024-02-29',
    '2000-02-29',
    '2025-01-31',
    '2025-04-30',
    '2025-12-31',
    '0001-01-01',
    '9999-12-31',
    '0004-02-29',
  ])('accepts %s', (s) => {
    expect(isDateOnly(s)).toBe(true);
  });
  it.each([
    '2023-02-29', // not a leap year
    '1900-02-29', // divisible by 100, not by 400
    '2100-02-29',
    '2025-02-30',
    '2025-04-31',
    '2025-13-01',
    '2025-00-10',
    '2025-01-00',
    '2025-01-32',
    '0000-00-00',
    '0000-01-01',
    '2025-1-01',
    '25-01-01',
    ' 2025-01-01',
    '2025-01-01\n',
    '2025-01-01T00:00:00Z',
    '+002025-01-01',
    '２０２５-01-01', // full-width digits
    '',
  ])('refuses %j', (s) => {
    expect(isDateOnly(s)).toBe(false);
  });

  it('agrees with the calendar for every day from 1601 to 2400', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1601, max: 2400 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          const s = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
          const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
          expect(isDateOnly(s)).toBe(d <= days);
        },
      ),
      { seed: SEED, numRuns: 3000 },
    );
  });
});

describe('toIsoInstant', () => {
  it.each([
    ['2025-03-01', '2025-03-01T00:00:00.000Z'], // D4: midnight UTC
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2025-01-01T00:00:00Z', '2025-01-01T00:00:00.000Z'],
    ['2025-01-01T00:00Z', '2025-01-01T00:00:00.000Z'],
    ['2025-01-01 12:30:00Z', '2025-01-01T12:30:00.000Z'],
    ['2025-01-01t12:30:00z', '2025-01-01T12:30:00.000Z'],
    ['2025-01-01T00:00:00.5Z', '2025-01-01T00:00:00.500Z'],
    ['2025-01-01T00:00:00.123456789Z', '2025-01-01T00:00:00.123Z'],
    ['2025-01-01T00:00:00+05:30', '2024-12-31T18:30:00.000Z'],
    ['2025-01-01T00:00:00+0530', '2024-12-31T18:30:00.000Z'],
    ['2025-01-01T20:00:00-05:00', '2025-01-02T01:00:00.000Z'], // crosses the UTC day
    ['2024-12-31T23:30:00-01:00', '2025-01-01T00:30:00.000Z'], // crosses the UTC year
    ['2024-02-28T23:00:00-02:00', '2024-02-29T01:00:00.000Z'], // into a leap day
    ['0001-01-01', '0001-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59.000Z'],
  ])('%s → %s', (s, iso) => {
    expect(toIsoInstant(s)).toBe(iso);
  });

  it.each([
    '2025-02-29',
    '2025-02-29T00:00:00Z',
    '0000-00-00',
    '2025-01-01T00:00:00', // no zone: ambiguous
    '2025-01-01T24:00:00Z',
    '2025-01-01T23:60:00Z',
    '2025-01-01T23:59:60Z',
    '2025-01-01T00:00:00+24:00',
    '2025-01-01T00:00:00+99:99',
    '2025-01-01T00:00:00.Z',
    '2025-01-01T00:00:00.000+00:60',
    '9999-12-31T23:00:00-02:00', // past year 9999 in UTC
    '0001-01-01T00:00:00+01:00', // year 0 in UTC
    'yesterday',
    '1735689600',
    '',
  ])('refuses %j', (s) => {
    expect(toIsoInstant(s)).toBeNull();
  });

  it('always answers the canonical UTC form, or null', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-02T00:00:00Z'),
          max: new Date('9999-12-30T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        (d, offsetMin) => {
          const local = new Date(d.getTime() + offsetMin * 60_000).toISOString().slice(0, 23);
          const sign = offsetMin >= 0 ? '+' : '-';
          const abs = Math.abs(offsetMin);
          const s = `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
          expect(toIsoInstant(s)).toBe(d.toISOString());
        },
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });
});

describe('toIsoInstant on the canonical form (its fast path)', () => {
  it('answers exactly what the same instant written with +00:00 gets, valid fields or not', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
        two(13),
        two(32),
        two(25),
        two(61),
        two(61),
        fc.integer({ min: 0, max: 999 }).map((n) => String(n).padStart(3, '0')),
        (y, mo, d, h, mi, sec, ms) => {
          const s = `${y}-${mo}-${d}T${h}:${mi}:${sec}.${ms}Z`;
          expect(toIsoInstant(s)).toBe(toIsoInstant(s.replace(/Z$/, '+00:00')));
        },
      ),
      { seed: SEED, numRuns: 5000 },
    );
  });
});

describe('toRangeEnd', () => {
  it('makes a date-only end cover that whole UTC day', () => {
    expect(toRangeEnd('2025-03-01')).toBe('2025-03-01T23:59:59.999Z');
    expect(toRangeEnd('2024-02-29')).toBe('2024-02-29T23:59:59.999Z');
  });
  it('keeps a timestamp as the instant it names', () => {
    expect(toRangeEnd('2025-03-01T10:00:00Z')).toBe('2025-03-01T10:00:00.000Z');
    expect(toRangeEnd('2025-03-01T10:00:00-02:00')).toBe('2025-03-01T12:00:00.000Z');
  });
  it('refuses what toIsoInstant refuses', () => {
    expect(toRangeEnd('2023-02-29')).toBeNull();
    expect(toRangeEnd('2025-01-01T00:00:00')).toBeNull();
  });
});

describe('typedDateOnly', () => {
  it.each([
    ['2026-12-01', '2026-12-01'],
    ['12/01/2026', '2026-12-01'],
    ['12/1/2026', '2026-12-01'],
    [' 1-9-2027 ', '2027-01-09'],
    ['02/29/2028', '2028-02-29'],
  ])('reads %j as %s', (typed, iso) => {
    expect(typedDateOnly(typed)).toBe(iso);
    expect(typedDateOnly(monthDayYear(iso))).toBe(iso);
  });

  it.each(['', '13/01/2026', '02/30/2026', '2026-02-30', '12/01/26', '1 December 2026', '12//2026'])(
    'refuses %j',
    (typed) => {
      expect(typedDateOnly(typed)).toBeNull();
    },
  );
});
