/**
 * What a station reports of itself to its hub (POST /hub/report) and the hub's close-out of the
 * night (GET /hub/close-out): per station, what the hub holds and what the station said, its
 * batches' counts, and the deposit's checks and cash.
 */
import { z } from 'zod';
import { PAYMENT_METHODS } from '../enums.ts';
import { MAX_DOLLARS } from '../money.ts';
import { typeError } from './common.ts';

const dollars = z.number().min(-MAX_DOLLARS).max(MAX_DOLLARS);
const countOf = z.number().int().min(0);
const shortText = (max: number) => z.string({ error: typeError('must be a string') }).max(max);

/** A batch count as the station recorded it, reported with the station's name for the batch. */
export const ReportedBatchCount = z
  .object({
    batchId: shortText(64).min(1),
    batchName: shortText(200),
    countedBy: shortText(200),
    countedAt: shortText(40),
    note: shortText(1000).nullable(),
    enteredCount: countOf,
    enteredTotal: dollars,
    countedTotal: dollars,
    /** Counted − entered (0: it balanced). */
    difference: dollars,
    lines: z
      .array(
        z.object({
          paymentMethod: z.enum(PAYMENT_METHODS),
          enteredCount: countOf,
          enteredTotal: dollars,
          countedCount: countOf.nullable(),
          countedTotal: dollars,
          difference: dollars,
        }),
      )
      .max(PAYMENT_METHODS.length),
  })
  .meta({ id: 'ReportedBatchCount' });

export const HubReportBody = z.object({
  /** Gifts this station entered (its own, not those it got from the hub). */
  entered: z.number().int().min(0),
  /** The sequence of its newest change. */
  lastSeq: z.number().int().min(0),
  /** Changes it has not had confirmed by the hub. */
  waiting: z.number().int().min(0),
  /** Its batches' counts (the newest count of each counted batch). Absent from older stations. */
  batches: z.array(ReportedBatchCount).max(500).optional(),
});

export const MethodTotals = z.record(z.string(), z.object({ gifts: z.number().int(), total: z.number() }));

/**
 * Where a station stands at the close:
 * - `complete`: it reported since the hub last started serving, with nothing waiting, and the
 *   hub holds every gift it said it entered;
 * - `waiting`: its last report (since the start) says changes wait, or the hub holds fewer gifts
 *   than it entered;
 * - `not_reported`: no report since the hub last started serving (a report from before proves
 *   nothing of what was typed while the hub was away);
 * - `revoked`: removed from the event; what it typed after `revokedAt` is not known here.
 */
export const CLOSE_OUT_STATES = ['complete', 'waiting', 'not_reported', 'revoked'] as const;

export const CloseOutStation = z.object({
  id: z.string(),
  name: z.string(),
  gifts: z.number().int(),
  total: z.number(),
  byMethod: MethodTotals,
  /** `state` is `complete`. */
  complete: z.boolean(),
  state: z.enum(CLOSE_OUT_STATES),
  reportedEntered: z.number().int().nullable(),
  reportedLastSeq: z.number().int().nullable(),
  waiting: z.number().int().nullable(),
  /** When its last report came (null: none). */
  reportedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  /** Its batches' counts as it last reported them (the hub's row for itself: none). */
  batches: z.array(ReportedBatchCount),
});

export const CloseOut = z
  .object({
    stations: z.array(CloseOutStation),
    gifts: z.number().int(),
    total: z.number(),
    byMethod: MethodTotals,
    /** Checks for the deposit: donor, amount. */
    checks: z.array(
      z.object({
        donationId: z.string(),
        donor: z.string(),
        amount: z.number(),
        stationId: z.string().nullable(),
        /** Read from the gift's notes ("check 1021"); null when none is written. */
        checkNumber: z.string().nullable(),
      }),
    ),
    cashTotal: z.number(),
    /** When the hub's server last started serving the event (reports before it are not counted). */
    servedAt: z.string().nullable(),
  })
  .meta({ id: 'HubCloseOut' });

export type HubReportBody = z.infer<typeof HubReportBody>;
export type ReportedBatchCount = z.infer<typeof ReportedBatchCount>;
export type CloseOutStation = z.infer<typeof CloseOutStation>;
export type CloseOut = z.infer<typeof CloseOut>;
