/**
 * Who did what: a gift's and a donor's history (GET /donations/{id}/history, GET
 * /contacts/{id}/history), each entry with who made the change, when, which fields, each one
 * before and after, and the reason given; and who entered the gift.
 */
import { z } from 'zod';
import { accountIdField, isoDateOrTime } from './common.ts';

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

/**
 * `POST /history` (GiftDesk HQ's extension; push/trail.ts sends it, never to an HQ of the donor
 * API alone): history entries made at an event or on a laptop, carried on to HQ with the records
 * they belong to. Each entry is taken once by its `id` (a second send of it changes nothing),
 * belongs to a gift or donor by HQ's id, and says who made it where it was made: the person's
 * name and the station (`by`; the key only when neither is known). `entered`: who entered the gift.
 */
export const TrailEntry = z.object({
  id: z.string().regex(/^[A-Za-z0-9_.:-]{1,120}$/, { error: 'must be 1 to 120 letters, digits, or _ . : -' }),
  record: z.enum(['donation', 'contact']),
  recordId: z.string().min(1).max(64),
  action: z.string().regex(/^[a-z]{1,40}$/, { error: 'must be 1 to 40 lowercase letters' }),
  at: isoDateOrTime,
  note: z.string().max(2000).nullable(),
  by: z.object({
    name: z.string().max(200).nullable(),
    stationName: z.string().max(200).nullable(),
    keyId: z.string().max(64).nullable(),
  }),
  fields: z.array(z.string().max(120)).max(200),
  changes: z.array(HistoryChange).max(200),
});
export type TrailEntry = z.infer<typeof TrailEntry>;

export const HistoryTrail = z
  .object({ accountId: accountIdField, entries: z.array(TrailEntry).min(1).max(100) })
  .meta({ id: 'HistoryTrail' });
export type HistoryTrail = z.infer<typeof HistoryTrail>;

/** `taken`: entries new here; `known`: taken before (sent again); `unknown`: records HQ has not (deleted). */
export const HistoryTrailResult = z
  .object({ taken: z.number().int(), known: z.number().int(), unknown: z.array(z.string()) })
  .meta({ id: 'HistoryTrailResult' });
export type HistoryTrailResult = z.infer<typeof HistoryTrailResult>;

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
