/**
 * D5 and D6's windows: the federal general election day, the next general after a gift,
 * and the two-year cycle.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cycleOf,
  federalGeneralElectionDay,
  limitWindow,
  nextFederalGeneral,
} from '../../electron/domain/limits/elections.ts';

const SEED = Number(process.env.GIFTDESK_FC_SEED ?? 20261122);

describe('federalGeneralElectionDay', () => {
  it.each([
    [2000, '2000-11-07'],
    [2004, '2004-11-02'], // Nov 1 was a Monday: the election is never on Nov 1
    [2008, '2008-11-04'],
    [2012, '2012-11-06'],
    [2016, '2016-11-08'], // Nov 1 was a Tuesday: the latest possible day
    [2018, '2018-11-06'],
    [2020, '2020-11-03'],
    [2022, '2022-11-08'],
    [2024, '2024-11-05'],
    [2026, '2026-11-03'],
    [2028, '2028-11-07'],
    [2032, '2032-11-02'],
  ])('%i → %s', (year, day) => {
    expect(federalGeneralElectionDay(year)).toBe(day);
  });

  it('is always the Tuesday after the first Monday of November', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2200 }), (year) => {
        const day = federalGeneralElectionDay(year);
        const d = new Date(`${day}T00:00:00Z`);
        expect(d.getUTCDay()).toBe(2);
        expect(d.getUTCMonth()).toBe(10);
        expect(d.getUTCDate()).toBeGreaterThanOrEqual(2);
        expect(d.getUTCDate()).toBeLessThanOrEqual(8);
        const monday = new Date(d.getTime() - 86_400_000);
        expect(monday.getUTCDate()).toBeLessThanOrEqual(7); // the first Monday
      }),
      { seed: SEED, numRuns: 301 },
    );
  });
});

describe('nextFederalGeneral', () => {
  it.each([
    ['2024-01-01', 2024],
    ['2024-11-04', 2024],
    ['2024-11-05', 2024], // election day itself counts toward that election
    ['2024-11-06', 2026], // the day after: the next one
    ['2024-12-31', 2026],
    ['2025-01-01', 2026], // odd years: the coming even year
    ['2025-12-31', 2026],
    ['2026-11-03', 2026],
    ['2026-11-04', 2028],
  ])('a gift on %s counts toward the %i general', (day, year) => {
    expect(nextFederalGeneral(day)).toEqual({ electionType: 'general', electionYear: year });
  });

  it('is always an even year, on or after the day, and the nearest such', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1900-01-01T00:00:00Z'),
          max: new Date('2198-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        (d) => {
          const day = d.toISOString().slice(0, 10);
          const { electionYear } = nextFederalGeneral(day);
          expect(electionYear % 2).toBe(0);
          expect(federalGeneralElectionDay(electionYear) >= day).toBe(true);
          expect(federalGeneralElectionDay(electionYear - 2) < day).toBe(true);
        },
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });
});

describe('cycleOf', () => {
  it.each([
    ['2025-01-01', 2025, 2026],
    ['2026-12-31', 2025, 2026],
    ['2024-06-30', 2023, 2024],
    ['2000-01-01', 1999, 2000],
  ])('%s is in the %i–%i cycle', (day, start, end) => {
    expect(cycleOf(day)).toEqual({ start, end });
  });

  it('gives per-cycle and per-year windows that cover the gift, in UTC', () => {
    const election = { electionType: 'general' as const, electionYear: 2026 };
    expect(limitWindow('per_cycle', '2025-03-01T10:00:00.000Z', election)).toMatchObject({
      key: '2025-2026',
      from: '2025-01-01T00:00:00.000Z',
      to: '2026-12-31T23:59:59.999Z',
    });
    expect(limitWindow('per_year', '2025-12-31T23:59:59.999Z', election)).toMatchObject({
      key: '2025',
      from: '2025-01-01T00:00:00.000Z',
      to: '2025-12-31T23:59:59.999Z',
    });
    expect(limitWindow('per_election', '2025-03-01T00:00:00.000Z', election)).toMatchObject({
      key: 'general-2026',
    });
    expect(limitWindow('per_donor', '2025-03-01T00:00:00.000Z', election)).toMatchObject({ key: 'lifetime' });
  });
});
