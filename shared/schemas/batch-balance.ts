/**
 * Balancing a gift-entry batch (GiftDesk extension): the deposit summary — count and total by
 * payment method, the cash total, every check listed — and the count a person records when
 * closing the batch, with the difference. Local bookkeeping like the batch: HQ never sees it.
 */
import { z } from 'zod';
import { MAX_DOLLARS, dollarsToCents } from '../money.ts';
import { PAYMENT_METHODS } from '../enums.ts';
import { accountIdField, optionalText, requiredText, typeError, wholeDollarsText } from './common.ts';

const method = z.enum(PAYMENT_METHODS);

/** One payment method's gifts in the batch (completed ones). */
export const MethodTotal = z.object({
  paymentMethod: method,
  count: z.number().int(),
  total: z.number(),
});
export type MethodTotal = z.infer<typeof MethodTotal>;

/** A check in the deposit: who gave it, the amount, and its number when the notes say it. */
export const DepositCheck = z.object({
  donationId: z.string(),
  contactId: z.string(),
  contactName: z.string(),
  /** What tells namesakes apart on the list: the donor's email and organisation. */
  contactEmail: z.string().nullable(),
  contactOrganization: z.string().nullable(),
  amount: z.number(),
  donationDate: z.string(),
  /** Read from the gift's notes ("check 1021", "ck #1021"); null when none is written. */
  checkNumber: z.string().nullable(),
});
export type DepositCheck = z.infer<typeof DepositCheck>;

export const BatchCountLine = z.object({
  paymentMethod: method,
  enteredCount: z.number().int(),
  enteredTotal: z.number(),
  /** Null: counted as money, not as items (cash). */
  countedCount: z.number().int().nullable(),
  countedTotal: z.number(),
  /** Counted − entered (decimal dollars; 0 when this method balanced). */
  difference: z.number(),
});
export type BatchCountLine = z.infer<typeof BatchCountLine>;

/** What was counted when the batch was closed, against what was entered then. */
export const BatchCount = z
  .object({
    id: z.string(),
    countedBy: z.string(),
    /** Whose session saved the count: the person's name, else the key ("API key gdk_…"); null before this was recorded. */
    savedBy: z.string().nullable(),
    note: z.string().nullable(),
    countedAt: z.string(),
    enteredCount: z.number().int(),
    enteredTotal: z.number(),
    countedTotal: z.number(),
    /** Counted − entered (decimal dollars): 0 when the batch balanced. */
    difference: z.number(),
    lines: z.array(BatchCountLine),
  })
  .meta({ id: 'BatchCount' });
export type BatchCount = z.infer<typeof BatchCount>;

export const DepositSummary = z
  .object({
    batchId: z.string(),
    batchName: z.string(),
    batchDate: z.string().nullable(),
    closedAt: z.string().nullable(),
    /** Completed gifts in the batch and their sum. */
    count: z.number().int(),
    total: z.number(),
    /** Per payment method that has gifts, in the order of the API's list of methods. */
    byMethod: z.array(MethodTotal),
    cashTotal: z.number(),
    /** Every completed check gift, once, in the order typed. */
    checks: z.array(DepositCheck),
    checksTotal: z.number(),
    /** The newest count, recorded when the batch was closed (null: never counted). */
    lastCount: BatchCount.nullable(),
  })
  .meta({ id: 'DepositSummary' });
export type DepositSummary = z.infer<typeof DepositSummary>;

const countedDollars = z
  .number({ error: typeError('must be a number') })
  .refine((n) => n >= 0 && n <= MAX_DOLLARS, {
    error: `must be between $0 and ${wholeDollarsText(MAX_DOLLARS)}`,
  })
  .refine((n) => dollarsToCents(n) !== null, { error: 'must be a whole number of cents' });

export const CountedLine = z.object({
  paymentMethod: z.enum(PAYMENT_METHODS, { error: `must be one of: ${PAYMENT_METHODS.join(', ')}` }),
  /** How many were counted (checks, card slips); null or absent for cash. */
  count: z
    .number({ error: typeError('must be a whole number') })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be zero or more' })
    .max(1_000_000, { error: 'must be at most 1000000' })
    .nullish(),
  total: countedDollars,
});
export type CountedLine = z.infer<typeof CountedLine>;

/**
 * POST /v1/batches/:id/count: what was counted, per payment method (every method the batch
 * has gifts in, once), who counted, and — when it differs from what was entered —
 * `acceptDifference: true` to close anyway. Closes the batch to new gifts.
 */
export const BatchCountBody = z.object({
  accountId: accountIdField.optional(),
  countedBy: requiredText(200),
  note: optionalText(1000),
  counted: z.array(CountedLine, { error: typeError('must be a list') }).max(PAYMENT_METHODS.length, {
    error: `must list at most ${PAYMENT_METHODS.length} payment methods`,
  }),
  acceptDifference: z.boolean({ error: 'must be true or false' }).optional(),
});
export type BatchCountBody = z.infer<typeof BatchCountBody>;
