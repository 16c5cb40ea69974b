import { z } from 'zod';
import { DONATION_STATUSES, ELECTION_TYPES, PAYMENT_METHODS } from '../enums.ts';
import {
  accountIdField,
  typeError,
  isoDateOrTime,
  anyIsoDateOrTime,
  pagingQuery,
  positiveDollars,
  resentSinceField,
} from './common.ts';

/**
 * D2: a gift is credited to a campaign, a committee or a donation account. The API names each
 * of the three fields with DESIGNATION_ISSUE (code designation_required); a form shows the
 * refusal once, as DESIGNATION_FORM_ISSUE, at the first of them.
 */
export const DESIGNATION_ISSUE = 'one of campaignId, committeeId or donationAccountId is required';
export const DESIGNATION_FORM_ISSUE = 'needs a campaign, committee or donation account';
/** A soft credit (onBehalfOfContactId) names someone other than the gift's legal donor. */
export const SELF_CREDIT_ISSUE = 'must be another contact than the donor (contactId)';

const refId = z
  .string({ error: typeError('must be a string') })
  .trim()
  .max(64)
  .nullish();
const bool = z.boolean({ error: 'must be true or false' });

/** POST /v1/donations: the spec's table plus the fields it describes in prose. */
export const DonationCreateBody = z
  .object({
    accountId: accountIdField,
    contactId: z
      .string({ error: typeError('must be a string') })
      .trim()
      .min(1, { error: 'is required' })
      .max(64),
    donationAmount: positiveDollars,
    donationDate: isoDateOrTime,
    paymentMethod: z.enum(PAYMENT_METHODS, {
      error: typeError(`must be one of: ${PAYMENT_METHODS.join(', ')}`),
    }),
    campaignId: refId,
    committeeId: refId,
    donationAccountId: refId,
    electionType: z.enum(ELECTION_TYPES, { error: `must be one of: ${ELECTION_TYPES.join(', ')}` }).nullish(),
    electionYear: z
      .number({ error: typeError('must be a year') })
      .int({ error: 'must be a whole year' })
      .min(1900, { error: 'must be a year from 1900 to 2200' })
      .max(2200, { error: 'must be a year from 1900 to 2200' })
      .nullish(),
    // Not trimmed: callers keep an external reference here and match on it exactly (D7, D8).
    notes: z
      .string({ error: typeError('must be a string') })
      .max(10_000, { error: 'must be at most 10000 characters' })
      .nullish(),
    onBehalfOfContactId: refId,
    facilitatedByContactId: refId,
    isAnonymous: bool.optional(),
    isRecurring: bool.optional(),
    thankYouSent: bool.optional(),
    thankYouSentDate: isoDateOrTime.nullish(),
  })
  .meta({ id: 'DonationCreate' });
export type DonationCreateBody = z.infer<typeof DonationCreateBody>;

/**
 * POST /v1/donations as GiftDesk takes it: the spec's body plus `batchId`, the gift-entry
 * batch the gift is typed in (a GiftDesk extension; local only, never pushed to HQ), and, from
 * an event station, `enteredAt`.
 */
export const DonationCreateRequest = DonationCreateBody.extend({
  batchId: refId,
  resentSince: resentSinceField,
  /**
   * When the gift was entered where it was typed: a station of an event hub sends its own
   * entry time, which the hub keeps as the gift's `createdAt`. Taken from a station's key only.
   */
  enteredAt: isoDateOrTime.optional(),
  /**
   * Who entered the gift where it was typed: a station sends the name of the person signed in
   * there, which the hub keeps as the gift's `enteredBy` (with the station's key and station).
   * Taken from a station's key only.
   */
  enteredByName: z
    .string({ error: typeError('must be a string') })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(200, { error: 'must be at most 200 characters' })
    .optional(),
  /**
   * The gift was voided where it was typed before it was sent: a station sends such a gift to
   * its hub with the reason typed, and the hub records it voided in the same step (the event's
   * ledger holds it; HQ never gets it). Taken from a station's key only.
   */
  voided: z
    .object(
      {
        reason: z
          .string({ error: typeError('must be a string') })
          .trim()
          .max(500)
          .nullable(),
      },
      { error: typeError('must be an object with `reason`') },
    )
    .strict()
    .optional(),
});
export type DonationCreateRequest = z.infer<typeof DonationCreateRequest>;

/** The create response: exactly the spec's fields. */
export const DonationCreated = z
  .object({
    id: z.string(),
    contactId: z.string(),
    campaignId: z.string().nullable(),
    donationAmount: z.number(),
    donationDate: z.string(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    status: z.enum(DONATION_STATUSES),
    notes: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'DonationCreated' });
export type DonationCreated = z.infer<typeof DonationCreated>;

/** An item of GET /v1/donations: exactly the spec's fields. */
export const DonationListItem = z
  .object({
    id: z.string(),
    contactId: z.string(),
    contactName: z.string(),
    donationAmount: z.number(),
    donationDate: z.string(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    campaignId: z.string().nullable(),
    campaignName: z.string().nullable(),
    notes: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'DonationListItem' });
export type DonationListItem = z.infer<typeof DonationListItem>;

export const DonationListQuery = z.object({
  accountId: accountIdField,
  startDate: anyIsoDateOrTime.optional(),
  endDate: anyIsoDateOrTime.optional(),
  ...pagingQuery,
});
export type DonationListQuery = z.infer<typeof DonationListQuery>;

export const DonationList = z.object({
  donations: z.array(DonationListItem),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type DonationList = z.infer<typeof DonationList>;

/**
 * Where a gift stands with HQ. HQ has no donation update, so a gift is read-only here from its
 * first send attempt; `reason` says why (or what it waits for). At a station of an event hub
 * (`upstream` 'hub') "sent" means the hub has it: the hub takes a correction or void of it,
 * asked through this station, until the hub itself sent it to HQ.
 */
export const DonationSync = z
  .object({
    state: z.enum(['not_sent', 'sending', 'sent', 'needs_attention']),
    upstream: z.enum(['hq', 'hub']),
    readOnly: z.boolean(),
    reason: z.string().nullable(),
    remoteId: z.string().nullable(),
    firstAttemptAt: z.string().nullable(),
  })
  .meta({ id: 'DonationSync' });

/** Extension: correct a gift not sent to HQ yet (PATCH /v1/donations/:id): any create field but the account. */
export const DonationPatchBody = DonationCreateBody.omit({ accountId: true })
  .partial()
  .extend({ accountId: accountIdField.optional() })
  .meta({ id: 'DonationPatch' });
export type DonationPatchBody = z.infer<typeof DonationPatchBody>;

/** Extension: void a gift not sent to HQ yet (POST /v1/donations/:id/void). */
export const DonationVoidBody = z
  .object({ accountId: accountIdField.optional(), reason: z.string().trim().max(500).nullish() })
  .meta({ id: 'DonationVoid' });

/** A value a correction changed, before and after (in the API's shape: an amount in dollars). */
const ChangedValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * A correction or void of a saved gift, from its history: when, whether the event hub made it
 * (its person, or a station's request), which station asked, and each field that changed.
 */
export const DonationChange = z
  .object({
    action: z.enum(['corrected', 'voided']),
    at: z.string(),
    atHub: z.boolean(),
    stationId: z.string().nullable(),
    changes: z.array(z.object({ field: z.string(), before: ChangedValue, after: ChangedValue })),
  })
  .meta({ id: 'DonationChange' });
export type DonationChange = z.infer<typeof DonationChange>;

/** Extension: the whole donation, as the app shows it (GET /v1/donations/:id). */
export const DonationDetail = z
  .object({
    id: z.string(),
    contactId: z.string(),
    contactName: z.string(),
    donationAmount: z.number(),
    donationDate: z.string(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    status: z.enum(DONATION_STATUSES),
    campaignId: z.string().nullable(),
    campaignName: z.string().nullable(),
    committeeId: z.string().nullable(),
    donationAccountId: z.string().nullable(),
    electionType: z.enum(ELECTION_TYPES),
    electionYear: z.number().int(),
    onBehalfOfContactId: z.string().nullable(),
    /** The person credited (soft credit), by name (GiftDesk extension; null when none). */
    onBehalfOfName: z.string().nullable(),
    facilitatedByContactId: z.string().nullable(),
    /** The host who raised it, by name (GiftDesk extension; null when none). */
    facilitatedByName: z.string().nullable(),
    isAnonymous: z.boolean(),
    isRecurring: z.boolean(),
    thankYouSent: z.boolean(),
    thankYouSentDate: z.string().nullable(),
    notes: z.string().nullable(),
    flagged: z.boolean(),
    sync: DonationSync,
    /** Its corrections and void after it was saved, oldest first (its history's). */
    changes: z.array(DonationChange),
    /** The gift-entry batch it was typed in (GiftDesk extension; null outside a batch). */
    batchId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'DonationDetail' });
export type DonationDetail = z.infer<typeof DonationDetail>;
