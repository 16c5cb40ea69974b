/**
 * Donation statistics (GiftDesk extension) for the dashboard and scripts: the total and
 * count of completed gifts in a scope (a date range, a batch, or both), the same split by
 * campaign and, in an event, by where each gift was entered, and gifts over time by UTC hour
 * or day.
 */
import { z } from 'zod';
import { accountIdField, anyIsoDateOrTime, typeError } from './common.ts';

export const TIME_UNITS = ['hour', 'day'] as const;
export const STATS_BASES = ['donationDate', 'entered'] as const;
/** At most this many points in `overTime` for a requested range. */
export const MAX_TIME_POINTS = 1000;

export const DonationStatsQuery = z.object({
  accountId: accountIdField,
  /** Inclusive; a date-only endDate covers that whole UTC day (as on GET /v1/donations). */
  startDate: anyIsoDateOrTime.optional(),
  endDate: anyIsoDateOrTime.optional(),
  batchId: z
    .string({ error: typeError('must be a string') })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(64)
    .optional(),
  /**
   * The time a gift counts at: `donationDate` (the default) or `entered` (when it was
   * typed: the event room's "tonight", whatever date the gift carries).
   */
  basis: z.enum(STATS_BASES, { error: `must be one of: ${STATS_BASES.join(', ')}` }).optional(),
  /** Default: hour for a range (or, without one, a batch) spanning less than two days, else day. */
  bucket: z.enum(TIME_UNITS, { error: `must be one of: ${TIME_UNITS.join(', ')}` }).optional(),
});
export type DonationStatsQuery = z.infer<typeof DonationStatsQuery>;

const Totals = { count: z.number().int(), total: z.number() };

export const CampaignTotal = z.object({
  campaignId: z.string().nullable(),
  campaignName: z.string().nullable(),
  ...Totals,
});
/**
 * Where gifts were entered, in an event: `here` this GiftDesk (the hub itself, or this
 * station), `hub` the event's hub (seen at a station), `station` another station (its id,
 * and its name when this GiftDesk knows it).
 */
export const STATION_PLACES = ['here', 'hub', 'station'] as const;
export const StationTotal = z.object({
  where: z.enum(STATION_PLACES),
  stationId: z.string().nullable(),
  stationName: z.string().nullable(),
  ...Totals,
});
export const TimePoint = z.object({ start: z.string(), ...Totals });

export const DonationStats = z
  .object({
    /** The scope, as understood: instants (a date-only end is the day's last millisecond). */
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
    batchId: z.string().nullable(),
    basis: z.enum(STATS_BASES),
    ...Totals,
    /** Largest total first; gifts without a campaign under campaignId null. */
    byCampaign: z.array(CampaignTotal),
    /**
     * In an event (this GiftDesk hosts one, or is one of its stations): the gifts by where
     * they were entered, `here` first, then the largest total first. Empty outside an event.
     */
    byStation: z.array(StationTotal),
    /** Every bucket from the range's start to its end (the data's span when no range), zeros included. */
    overTime: z.object({ unit: z.enum(TIME_UNITS), points: z.array(TimePoint) }),
  })
  .meta({ id: 'DonationStats' });
export type DonationStats = z.infer<typeof DonationStats>;
