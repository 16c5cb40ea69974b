/**
 * The values of a gift of the hub's feed that a hand-made page does not care about: not yet
 * changed since it was entered, no credit or host, no marks, not sent to HQ, no flags or
 * history. A test spreads it and names what matters.
 */
import type { HubDonation } from '#shared/schemas/hub.ts';

export const FEED_GIFT_REST: Pick<
  HubDonation,
  | 'updatedAt'
  | 'onBehalfOfContactId'
  | 'facilitatedByContactId'
  | 'isAnonymous'
  | 'isRecurring'
  | 'thankYouSent'
  | 'thankYouSentDate'
  | 'sentToHq'
  | 'flags'
  | 'history'
> = {
  updatedAt: '2026-11-27T19:00:00.000Z',
  onBehalfOfContactId: null,
  facilitatedByContactId: null,
  isAnonymous: false,
  isRecurring: false,
  thankYouSent: false,
  thankYouSentDate: null,
  sentToHq: false,
  flags: [],
  history: [],
};
