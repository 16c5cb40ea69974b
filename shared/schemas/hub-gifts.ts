/**
 * A gift as the event hub's feed carries it to its stations (GET /hub/changes, hub.ts): every
 * value a read could differ on, with its limit flags and history.
 */
import { z } from 'zod';
import { DONATION_STATUSES, ELECTION_TYPES, FLAG_STATES, LIMIT_KINDS } from '../enums.ts';
import { DonationListItem } from './donations.ts';

/** A limit flag of a gift as the hub holds it (its id is the hub's). */
export const HubDonationFlag = z.object({
  id: z.string(),
  limitKind: z.enum(LIMIT_KINDS),
  windowKey: z.string(),
  limitCents: z.number().int(),
  donorTotalCents: z.number().int(),
  state: z.enum(FLAG_STATES),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolutionNote: z.string().nullable(),
});

/** An entry of a gift's history as the hub holds it (`detail`: its JSON text). */
export const HubDonationHistory = z.object({
  id: z.string(),
  action: z.string(),
  note: z.string().nullable(),
  detail: z.string().nullable(),
  createdAt: z.string(),
});

/**
 * A gift as the hub's feed carries it, with every value a read could differ on: the list
 * item (its `createdAt` is when it was entered where it was typed), where it was entered, its
 * reference, the designation, the election, the status, the credit and host, the marks,
 * whether the hub's engine has sent it to HQ, and its flags and history. A station holds the
 * gift with these values.
 */
export const HubDonation = DonationListItem.extend({
  stationId: z.string().nullable(),
  /** Who typed it at that station (the person's name), when one was signed in; absent from an older hub. */
  enteredByName: z.string().nullable().optional(),
  /** The sync reference (`gd:<id>`) of the station that typed it, when it came from one. */
  reference: z.string().nullable(),
  committeeId: z.string().nullable(),
  donationAccountId: z.string().nullable(),
  electionType: z.enum(ELECTION_TYPES).nullable(),
  electionYear: z.number().int().nullable(),
  status: z.enum(DONATION_STATUSES),
  updatedAt: z.string(),
  onBehalfOfContactId: z.string().nullable(),
  facilitatedByContactId: z.string().nullable(),
  isAnonymous: z.boolean(),
  isRecurring: z.boolean(),
  thankYouSent: z.boolean(),
  thankYouSentDate: z.string().nullable(),
  /** The hub's engine has linked it to HQ: it can only be changed there now. */
  sentToHq: z.boolean(),
  flags: z.array(HubDonationFlag),
  history: z.array(HubDonationHistory),
});

export type HubDonation = z.infer<typeof HubDonation>;
export type HubDonationFlag = z.infer<typeof HubDonationFlag>;
export type HubDonationHistory = z.infer<typeof HubDonationHistory>;
