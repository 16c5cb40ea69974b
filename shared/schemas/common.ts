import { z } from 'zod';
import { YEAR_RANGE_ISSUE, inYearRange, isDateOnly, toIsoInstant } from '../dates.ts';
import { MAX_DOLLARS, dollarsToCents } from '../money.ts';

/**
 * A type error message that says "is required" when the value is missing altogether,
 * so a missing field and a wrong-typed one read differently.
 */
export const typeError =
  (message: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? 'is required' : message;

/** A required, trimmed, non-empty string of at most `max` characters. */
export const requiredText = (max = 200) =>
  z
    .string({ error: typeError('must be a string') })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` });

/** An optional string; null or "" clears it (stored as null). */
export const optionalText = (max = 500) =>
  z
    .string({ error: typeError('must be a string') })
    .trim()
    .max(max, { error: `must be at most ${max} characters` })
    .nullish();

export const idParam = z
  .string({ error: typeError('must be a string') })
  .min(1)
  .max(64);
export const accountIdField = z
  .string({ error: typeError('must be a string') })
  .trim()
  .min(1, { error: 'is required' })
  .max(64, { error: 'must be at most 64 characters' });

export const emailText = z
  .email({ error: typeError('must be a valid email address') })
  .max(320, { error: 'must be at most 320 characters' });

/** A real calendar date, YYYY-MM-DD, from 1900 to 2200 (MIN_YEAR–MAX_YEAR). */
export const dateOnly = z
  .string({ error: typeError('must be a date (YYYY-MM-DD)') })
  .refine(isDateOnly, { error: 'must be a real date written YYYY-MM-DD', abort: true })
  .refine(inYearRange, { error: YEAR_RANGE_ISSUE });

/**
 * An ISO 8601 date or timestamp with a zone, for a date range filter: any real instant (a
 * filter from 0001-01-01 means "from the beginning"). A date-only value is midnight UTC.
 */
export const anyIsoDateOrTime = z
  .string({ error: typeError('must be an ISO 8601 date') })
  .refine((s) => toIsoInstant(s) !== null, {
    error: 'must be an ISO 8601 date (YYYY-MM-DD) or timestamp with a time zone',
  });

/**
 * An ISO 8601 date or timestamp with a zone, for a date that is stored: its year (in UTC)
 * from 1900 to 2200, as HQ requires. A date-only value is midnight UTC.
 */
export const isoDateOrTime = anyIsoDateOrTime.refine((s) => inYearRange(toIsoInstant(s) ?? ''), {
  error: YEAR_RANGE_ISSUE,
});

/** A whole-dollar bound as people read it: 1000000000 → "$1,000,000,000". */
/**
 * GiftDesk extension on a create from another GiftDesk (a station to its hub): the record was
 * sent before to an upstream that is lost, so it may be at HQ already, created there no
 * earlier than this instant. A hub looks for it at HQ before sending it on. Ignored elsewhere.
 */
export const resentSinceField = isoDateOrTime.optional().meta({
  description: 'GiftDesk: sent before to a lost upstream; may be at HQ, created no earlier than this',
});

/**
 * GiftDesk extension on a create typed in a window: a key the client mints for the record a
 * form is trying to save, sent again with every try of that same record. A key the account
 * holds already answers with the record saved with it (an earlier try whose answer was lost),
 * and nothing is written.
 */
export const entryKeyField = z
  .string({ error: typeError('must be a string') })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'must be 8 to 64 letters, digits, - or _' })
  .optional()
  .meta({ description: 'GiftDesk: the key of this try; a key already held answers with its record' });

export const wholeDollarsText = (dollars: number): string => `$${dollars.toLocaleString('en-US')}`;

/** What an amount field says when the text typed is not an amount at all ("fifty", "1.2.3"). */
export const AMOUNT_TEXT_ISSUE = 'must be an amount in dollars, like 50 or 49.99';

/** Decimal dollars on the wire: > 0, whole cents, at most MAX_DOLLARS. */
export const positiveDollars = z
  .number({ error: typeError('must be a number') })
  .refine((n) => n > 0, { error: 'must be greater than zero' })
  .refine((n) => n <= MAX_DOLLARS, { error: `must be at most ${wholeDollarsText(MAX_DOLLARS)}` })
  .refine((n) => dollarsToCents(n) !== null, { error: 'must be a whole number of cents' });

/** A limit on a donation account: decimal dollars ≥ 0, or null for none. */
export const limitDollars = z
  .number({ error: typeError('must be a number') })
  .refine((n) => n >= 0 && n <= MAX_DOLLARS, {
    error: `must be between $0 and ${wholeDollarsText(MAX_DOLLARS)}`,
  })
  .refine((n) => dollarsToCents(n) !== null, { error: 'must be a whole number of cents' })
  .nullish();

const intText = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: `must be an integer from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int({ error: `must be an integer from ${min} to ${max}`, abort: true }) // 1e20: one clear issue, not "expected int to be <=…"
        .min(min, { error: `must be an integer from ${min} to ${max}` })
        .max(max, { error: `must be an integer from ${min} to ${max}` }),
    )
    .describe(name);

/** `limit` and `offset` query parameters (never clamped: out of range is a 400). */
export const pagingQuery = {
  limit: intText('limit', 1, 100).optional(),
  offset: intText('offset', 0, Number.MAX_SAFE_INTEGER).optional(),
};

export const accountQuery = z.object({ accountId: accountIdField });

export const ErrorDetail = z.object({ field: z.string(), issue: z.string() });

/** An import refused as `imported_before`: the earlier import of the same file. */
export const ImportedBefore = z.object({
  at: z.string().describe('when the earlier import started (ISO 8601, UTC)'),
  running: z.boolean().describe('whether it is still running'),
  rowsAdded: z.number().int().describe('the rows it added'),
});
export type ImportedBefore = z.infer<typeof ImportedBefore>;

/** Every non-2xx body (docs/design.md, "Errors"): the hosted service's shape plus a stable `code`. */
export const ErrorBody = z
  .object({
    statusCode: z.number().int(),
    error: z.string(),
    code: z.string(),
    message: z.string(),
    details: z.array(ErrorDetail).optional(),
    retryAfter: z.number().int().optional(),
    importedBefore: ImportedBefore.optional().describe(
      'imported_before only: the earlier import, for a client to show in its own time zone',
    ),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const MessageBody = z.object({ message: z.string() });
