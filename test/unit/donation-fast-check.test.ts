/**
 * The import's fast check of a donation body against zod's DonationCreateBody: whenever the
 * fast check answers, zod accepts the same body and parses it to the same value; and the
 * fast check does answer for the ordinary rows an import is made of.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastDonationBody } from '../../electron/domain/donations/fast-check.ts';
import { ELECTION_TYPES, PAYMENT_METHODS } from '#shared/enums.ts';
import { DonationCreateBody } from '#shared/schemas/donations.ts';

const SEED = 20261122;

const text = fc.oneof(
  fc.string({ maxLength: 70 }),
  fc.constantFrom(
    '',
    ' ',
    '  cmp_1  ',
    'x'.repeat(64),
    ` ${'x'.repeat(64)} `,
    'x'.repeat(65),
    '\u00a0id\u2028',
  ),
);
const anything = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer(),
  text,
  fc.constant({}),
  fc.constant([]),
);
const date = fc.oneof(
  fc.constantFrom(
    '2025-03-01',
    '2025-02-29',
    '2025-03-01T10:00:00.000Z',
    '2025-03-01T24:00:00.000Z',
    '2025-03-01T10:00:00+02:00',
    ' 2025-03-01',
    '2025-03-01T10:00:00',
    'yesterday',
  ),
  fc
    .date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2200-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
);
const amount = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    0.01,
    0.005,
    25,
    125.5,
    1e9,
    1e9 + 0.01,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    1234567.89,
  ),
  fc.integer({ min: 1, max: 10_000_000 }).map((c) => c / 100),
  fc.double(),
);
const field = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 30, arbitrary: valid }, { weight: 1, arbitrary: anything });
const optional = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 15, arbitrary: fc.constant(undefined) },
    { weight: 15, arbitrary: valid },
    { weight: 1, arbitrary: anything },
  );

const body = fc
  .record(
    {
      accountId: field(fc.constantFrom('acct_1', ' acct_1 ', '')),
      contactId: field(fc.constantFrom('cnt_1', 'pending', ' cnt_2\t')),
      donationAmount: field(amount),
      donationDate: field(date),
      paymentMethod: field(fc.constantFrom(...PAYMENT_METHODS, 'Cash', 'bitcoin')),
      campaignId: optional(fc.oneof(fc.constant(null), text)),
      committeeId: optional(fc.oneof(fc.constant(null), text)),
      donationAccountId: optional(fc.oneof(fc.constant(null), text)),
      electionType: optional(fc.constantFrom(null, ...ELECTION_TYPES, 'General')),
      electionYear: optional(
        fc.oneof(
          fc.constant(null),
          fc.integer({ min: 1890, max: 2210 }),
          fc.constantFrom(2024.5, Number.NaN),
        ),
      ),
      notes: optional(fc.oneof(fc.constant(null), text, fc.constant('n'.repeat(10_001)))),
      onBehalfOfContactId: optional(fc.oneof(fc.constant(null), text)),
      facilitatedByContactId: optional(fc.oneof(fc.constant(null), text)),
      isAnonymous: optional(fc.boolean()),
      isRecurring: optional(fc.boolean()),
      thankYouSent: optional(fc.boolean()),
      thankYouSentDate: optional(fc.oneof(fc.constant(null), date)),
      extra: fc.oneof({ weight: 30, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: anything }),
    },
    { requiredKeys: [] },
  )
  .map((b) => {
    const out: Record<string, unknown> = {};
    // absent keys mostly; now and then a key present with the value undefined
    for (const [k, v] of Object.entries(b)) if (v !== undefined || k.startsWith('is')) out[k] = v;
    return out;
  });

describe('fastDonationBody', () => {
  it('answers only for bodies zod accepts, with exactly what zod parses them to', () => {
    let answered = 0;
    fc.assert(
      fc.property(body, (b) => {
        const fast = fastDonationBody(b);
        if (fast === undefined) return;
        answered += 1;
        const z = DonationCreateBody.safeParse(b);
        expect(z.success, JSON.stringify(b)).toBe(true);
        expect(fast).toEqual(z.data);
      }),
      { seed: SEED, numRuns: 50_000 },
    );
    expect(answered).toBeGreaterThan(1000); // the property was exercised, not vacuous
  });

  it('answers for the ordinary rows of an import', () => {
    const row = {
      accountId: 'acct_1',
      contactId: 'pending',
      donationAmount: 25.5,
      donationDate: '2025-03-01T10:00:00.000Z',
      paymentMethod: 'check',
      campaignId: 'cmp_1',
    };
    expect(fastDonationBody(row)).toEqual(DonationCreateBody.parse(row));
    expect(
      fastDonationBody({
        ...row,
        donationDate: '2025-03-01',
        notes: 'memo',
        isAnonymous: true,
        electionType: 'general',
        electionYear: 2026,
      }),
    ).toBeDefined();
  });
});
