/**
 * Extension shapes for browsing contacts (beyond the spec's list): summaries with giving
 * totals sortable by name, last gift, total given and creation; a contact's giving history
 * with its totals; and what deleting a contact would take with it.
 */
import { z } from 'zod';
import {
  CONTACT_STATUSES,
  CONTACT_TYPES,
  DONATION_STATUSES,
  ELECTION_TYPES,
  PAYMENT_METHODS,
} from '../enums.ts';
import { accountIdField, pagingQuery, typeError } from './common.ts';

export const CONTACT_SUMMARY_SORT_FIELDS = [
  'name',
  'lastDonationDate',
  'totalDonations',
  'createdAt',
  'relevance',
] as const;
export type ContactSummarySortField = (typeof CONTACT_SUMMARY_SORT_FIELDS)[number];

const enumOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: typeError(`must be one of: ${values.join(', ')}`) });

export const ContactSummaryQuery = z.object({
  accountId: accountIdField,
  search: z.string().max(200, { error: 'must be at most 200 characters' }).optional(),
  sortBy: enumOf(CONTACT_SUMMARY_SORT_FIELDS).optional(),
  sortOrder: enumOf(['asc', 'desc'] as const).optional(),
  /** `false`: the answer leaves out `total` (a caller that never shows it, as the donor box); default `true`. */
  total: enumOf(['true', 'false'] as const).optional(),
  ...pagingQuery,
});
export type ContactSummaryQuery = z.infer<typeof ContactSummaryQuery>;

/** A row of the app's contact list: who, how to reach them, where, and what they gave. */
export const ContactSummary = z
  .object({
    id: z.string(),
    contactType: z.enum(CONTACT_TYPES),
    status: z.enum(CONTACT_STATUSES),
    firstName: z.string(),
    lastName: z.string(),
    organization: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    /** The primary address's city (else the first address's). */
    city: z.string().nullable(),
    tags: z.array(z.string()),
    /** Sum of completed gifts, decimal dollars. */
    totalDonations: z.number(),
    lastDonationDate: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ContactSummary' });
export type ContactSummary = z.infer<typeof ContactSummary>;

export const ContactSummaryList = z.object({
  data: z.array(ContactSummary),
  /** Every match's count; absent only when the request said `total=false`. */
  total: z.number().int().optional(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type ContactSummaryList = z.infer<typeof ContactSummaryList>;

export const ContactDonationsQuery = z.object({ accountId: accountIdField, ...pagingQuery });
export type ContactDonationsQuery = z.infer<typeof ContactDonationsQuery>;

/** One of a contact's gifts, as the contact page lists them. */
export const ContactDonation = z
  .object({
    id: z.string(),
    donationAmount: z.number(),
    donationDate: z.string(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    status: z.enum(DONATION_STATUSES),
    campaignId: z.string().nullable(),
    campaignName: z.string().nullable(),
    committeeId: z.string().nullable(),
    committeeName: z.string().nullable(),
    donationAccountId: z.string().nullable(),
    donationAccountName: z.string().nullable(),
    electionType: z.enum(ELECTION_TYPES),
    electionYear: z.number().int(),
    isAnonymous: z.boolean(),
    isRecurring: z.boolean(),
    thankYouSent: z.boolean(),
    notes: z.string().nullable(),
    /** Over a contribution limit and not yet resolved (D6). */
    flagged: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'ContactDonation' });
export type ContactDonation = z.infer<typeof ContactDonation>;

/** A contact's giving over their whole history (not only the page). */
export const GivingTotals = z.object({
  /** Gifts of every status. */
  donationCount: z.number().int(),
  completedCount: z.number().int(),
  /** Sum of completed gifts (what `totalDonations` on the contact says). */
  totalDonations: z.number(),
  refundedTotal: z.number(),
  disputedTotal: z.number(),
  /** Average and largest completed gift; null when there is none. */
  averageGift: z.number().nullable(),
  largestGift: z.number().nullable(),
  firstDonationDate: z.string().nullable(),
  lastDonationDate: z.string().nullable(),
  /** Completed gifts by calendar year (UTC), oldest first. */
  byYear: z.array(z.object({ year: z.number().int(), total: z.number(), count: z.number().int() })),
});
export type GivingTotals = z.infer<typeof GivingTotals>;

export const ContactDonationList = z.object({
  donations: z.array(ContactDonation),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  totals: GivingTotals,
});
export type ContactDonationList = z.infer<typeof ContactDonationList>;

/** What DELETE /contacts/:id would remove with the contact. */
export const ContactDeletePreview = z
  .object({
    contactId: z.string(),
    contactName: z.string(),
    /** The contact's gifts of every status: all are deleted with the contact. */
    donationCount: z.number().int(),
    /** Their sum, decimal dollars (every status). */
    donationTotal: z.number(),
    /** Of them, the completed ones (what the contact's total shows). */
    completedCount: z.number().int(),
    completedTotal: z.number(),
    /** Other donors' gifts that name this contact as on-behalf-of or facilitator: kept, the link cleared. */
    linkedDonationCount: z.number().int(),
  })
  .meta({ id: 'ContactDeletePreview' });
export type ContactDeletePreview = z.infer<typeof ContactDeletePreview>;
