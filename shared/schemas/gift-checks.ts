/**
 * GET /v1/contacts/{id}/gift-check (GiftDesk extension): what the gift-entry row needs to
 * warn while a gift is typed, before it is saved — the donor's room under each limit of a
 * donation account (D6, in the election D5 would pick), and the donor's total for the
 * calendar year of the gift (the $200 employer/occupation rule). Read-only.
 */
import { z } from 'zod';
import { ELECTION_TYPES, LIMIT_KINDS } from '../enums.ts';
import { accountIdField, isoDateOrTime, typeError } from './common.ts';

export const GiftCheckQuery = z.object({
  accountId: accountIdField,
  /** The gift's date; today (UTC) when left out. */
  donationDate: isoDateOrTime.optional(),
  donationAccountId: z
    .string({ error: typeError('must be a string') })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(64)
    .optional(),
  electionType: z.enum(ELECTION_TYPES, { error: `must be one of: ${ELECTION_TYPES.join(', ')}` }).optional(),
  electionYear: z
    .string()
    .regex(/^\d{4}$/, { error: 'must be a year from 1900 to 2200' })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1900, { error: 'must be a year from 1900 to 2200' })
        .max(2200, { error: 'must be a year from 1900 to 2200' }),
    )
    .optional(),
});
export type GiftCheckQuery = z.infer<typeof GiftCheckQuery>;

export const LimitRoom = z.object({
  limitKind: z.enum(LIMIT_KINDS),
  /** e.g. "per election", "per calendar year". */
  label: z.string(),
  /** The window the gift would count in: "general-2026", "2025-2026", "2026", "lifetime". */
  window: z.string(),
  limit: z.number(),
  /** The donor's completed gifts to this donation account in the window, decimal dollars. */
  donorTotal: z.number(),
  /** limit − donorTotal, never below 0: a gift above this puts the donor over. */
  room: z.number(),
});
export type LimitRoom = z.infer<typeof LimitRoom>;

export const GiftCheck = z
  .object({
    contactId: z.string(),
    /** The donor's completed gifts in the gift's calendar year (UTC), decimal dollars. */
    yearTotal: z.number(),
    year: z.number().int(),
    employer: z.string().nullable(),
    occupation: z.string().nullable(),
    /** Present when a donation account was named. */
    donationAccountId: z.string().nullable(),
    election: z.object({ electionType: z.enum(ELECTION_TYPES), electionYear: z.number().int() }).nullable(),
    limits: z.array(LimitRoom),
  })
  .meta({ id: 'GiftCheck' });
export type GiftCheck = z.infer<typeof GiftCheck>;
