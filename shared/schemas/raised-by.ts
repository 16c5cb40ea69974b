/**
 * Soft credit and bundling (GiftDesk extension): what each host raised — the gifts whose
 * facilitatedByContactId is that host — in a scope (a date range, a campaign, a batch), and a
 * contact's credits: gifts credited to them (onBehalfOfContactId) while another contact is the
 * legal donor, and what they raised as a host. A credit is never the credited contact's own
 * money: it is not in their totals, nor in their contribution limits.
 */
import { z } from 'zod';
import { accountIdField, anyIsoDateOrTime, typeError } from './common.ts';

const scopeId = z
  .string({ error: typeError('must be a string') })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(64)
  .optional();

export const RaisedByQuery = z.object({
  accountId: accountIdField,
  /** Inclusive; a date-only endDate covers that whole UTC day (as on GET /v1/donations). */
  startDate: anyIsoDateOrTime.optional(),
  endDate: anyIsoDateOrTime.optional(),
  campaignId: scopeId,
  batchId: scopeId,
});
export type RaisedByQuery = z.infer<typeof RaisedByQuery>;

/** What one host raised: completed gifts, their total (dollars) and how many donors gave them. */
export const RaisedTotals = z.object({
  count: z.number().int(),
  total: z.number(),
  donors: z.number().int(),
});
export type RaisedTotals = z.infer<typeof RaisedTotals>;

export const HostRaised = RaisedTotals.extend({
  contactId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  organization: z.string().nullable(),
});
export type HostRaised = z.infer<typeof HostRaised>;

export const RaisedByReport = z
  .object({
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
    campaignId: z.string().nullable(),
    batchId: z.string().nullable(),
    /** Largest total first (then most gifts, then name). */
    hosts: z.array(HostRaised),
  })
  .meta({ id: 'RaisedByReport' });
export type RaisedByReport = z.infer<typeof RaisedByReport>;

/** A gift credited to a contact while another is its legal donor. */
export const SoftCredit = z.object({
  donationId: z.string(),
  donationAmount: z.number(),
  donationDate: z.string(),
  status: z.string(),
  contactId: z.string(),
  donorName: z.string(),
  isRecurring: z.boolean(),
});
export type SoftCredit = z.infer<typeof SoftCredit>;

export const ContactCredits = z
  .object({
    /** Newest first, at most 100; `creditCount` and `creditTotal` (completed only) cover them all. */
    credits: z.array(SoftCredit),
    creditCount: z.number().int(),
    creditTotal: z.number(),
    /** The completed gifts this contact raised as a host (facilitatedByContactId). */
    raised: RaisedTotals,
  })
  .meta({ id: 'ContactCredits' });
export type ContactCredits = z.infer<typeof ContactCredits>;
