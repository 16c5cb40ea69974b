/**
 * Who did what: a gift's and a donor's history (GET /donations/{id}/history, GET
 * /contacts/{id}/history), each entry with who made the change, when, which fields, each one
 * before and after, and the reason given; and who entered the gift.
 */
import { z } from 'zod';

/**
 * Who made a change: the person signed in, else the key that made the request (a script's, the
 * app's own window, an event station's), and the event station it came from. `label` says it in
 * words: the person's name, else "Station Table B", else "API key gdk_…".
 */
export const Who = z
  .object({
    userId: z.string().nullable(),
    keyId: z.string().nullable(),
    name: z.string().nullable(),
    stationId: z.string().nullable(),
    stationName: z.string().nullable(),
    label: z.string(),
  })
  .meta({ id: 'Who' });
export type Who = z.infer<typeof Who>;

/** A value before or after a change (an amount in dollars, as the API shows it). */
const HistoryValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const HistoryChange = z.object({ field: z.string(), before: HistoryValue, after: HistoryValue });

/**
 * One change: its kind (`flagged`, `reviewed`, `refunded`, `redesignated`, `corrected`,
 * `voided`, `thanked`; for a donor `created`, `edited`, `merged`), when, who (null: made by
 * GiftDesk itself, or before who was recorded), the reason given (`note`), the fields it
 * changed, and each changed value before and after. `detail` is everything recorded, as stored.
 */
export const HistoryEntry = z.object({
  id: z.string(),
  action: z.string(),
  note: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  at: z.string(),
  by: Who.nullable(),
  fields: z.array(z.string()),
  changes: z.array(HistoryChange),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const DonationHistoryEntry = HistoryEntry.meta({ id: 'DonationHistoryEntry' });
export type DonationHistoryEntry = HistoryEntry;

/** A gift's history: who entered it and when (`by` null: not recorded), then each later change, oldest first. */
export const DonationHistory = z
  .object({
    entered: z.object({ at: z.string(), by: Who.nullable() }),
    data: z.array(DonationHistoryEntry),
  })
  .meta({ id: 'DonationHistory' });
export type DonationHistory = z.infer<typeof DonationHistory>;

/** A donor's history, oldest first. */
export const ContactHistory = z
  .object({ data: z.array(HistoryEntry.meta({ id: 'ContactHistoryEntry' })) })
  .meta({ id: 'ContactHistory' });
export type ContactHistory = z.infer<typeof ContactHistory>;

/** The audit export's columns (`giftdesk audit export`), in order. */
export const AUDIT_COLUMNS = [
  'at',
  'record',
  'recordId',
  'action',
  'who',
  'userId',
  'keyId',
  'station',
  'fields',
  'changes',
  'reason',
] as const;
