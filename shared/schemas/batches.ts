/**
 * Gift-entry batches (GiftDesk extension): a named stack of gifts with its defaults and the
 * count and total the volunteer expects. A gift joins a batch when it is created
 * (`batchId` on POST /v1/donations). Batches stay local: HQ never sees them.
 */
import { z } from 'zod';
import { PAYMENT_METHODS } from '../enums.ts';
import {
  accountIdField,
  dateOnly,
  entryKeyField,
  limitDollars,
  pagingQuery,
  requiredText,
  typeError,
} from './common.ts';
import { DonationCreateBody, DonationDetail } from './donations.ts';
import { SyncStatus } from './sync.ts';

const refId = z
  .string({ error: typeError('must be a string') })
  .trim()
  .max(64)
  .nullish();
const expectedCount = z
  .number({ error: typeError('must be a whole number') })
  .int({ error: 'must be a whole number' })
  .min(0, { error: 'must be zero or more' })
  .max(1_000_000, { error: 'must be at most 1000000' })
  .nullish();

export const Batch = z
  .object({
    id: z.string(),
    name: z.string(),
    campaignId: z.string().nullable(),
    committeeId: z.string().nullable(),
    donationAccountId: z.string().nullable(),
    paymentMethod: z.enum(PAYMENT_METHODS).nullable(),
    /** YYYY-MM-DD: the default gift date. */
    batchDate: z.string().nullable(),
    expectedCount: z.number().int().nullable(),
    expectedTotal: z.number().nullable(),
    /** The host ("raised by") the entry row starts each gift with; null: none. */
    raisedByContactId: z.string().nullable(),
    /** Completed gifts in the batch and their sum (decimal dollars). */
    count: z.number().int(),
    total: z.number(),
    closedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'Batch' });
export type Batch = z.infer<typeof Batch>;

const batchFields = {
  campaignId: refId,
  committeeId: refId,
  donationAccountId: refId,
  paymentMethod: z
    .enum(PAYMENT_METHODS, { error: `must be one of: ${PAYMENT_METHODS.join(', ')}` })
    .nullish(),
  batchDate: dateOnly.nullish(),
  expectedCount,
  expectedTotal: limitDollars,
  raisedByContactId: refId,
};

/**
 * A batch to start, and the key the window minted for this try (entryKeyField): the same key
 * again is the same batch, so a start made again after its answer was lost makes no second one.
 */
export const BatchCreate = z.object({
  accountId: accountIdField,
  name: requiredText(200),
  ...batchFields,
  entryKey: entryKeyField,
});
export type BatchCreate = z.infer<typeof BatchCreate>;

/** Only the fields sent change; null clears one. `closed: true` closes the batch to new gifts. */
export const BatchUpdate = z.object({
  accountId: accountIdField.optional(),
  name: requiredText(200).optional(),
  ...batchFields,
  closed: z.boolean({ error: 'must be true or false' }).optional(),
});
export type BatchUpdate = z.infer<typeof BatchUpdate>;

export const BatchListQuery = z.object({ accountId: accountIdField, ...pagingQuery });
export const BatchList = z.object({
  data: z.array(Batch),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

export type BatchListPage = z.infer<typeof BatchList>;

export const BatchDonationList = z.object({
  data: z.array(DonationDetail),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

/**
 * A gift typed in a batch (POST /v1/batches/:id/donations): the gift, and the key the window
 * minted for it (entryKeyField). The same key again is the same gift: a save made again
 * after its answer was lost (a hub's Wi-Fi that dropped once the gift was in) answers the gift
 * saved the first time, and writes nothing.
 */
export const BatchGiftBody = DonationCreateBody.extend({ entryKey: entryKeyField }).meta({
  id: 'BatchGiftCreate',
});
export type BatchGiftBody = z.infer<typeof BatchGiftBody>;

/**
 * A gift saved in a batch: the gift in full, the batch with its new count and total, and the
 * sync status the save changed (its waiting count) — what gift entry shows, so it reads
 * nothing after a save. `alreadySaved`: the row's key named a gift saved before (nothing
 * was written; the gift is that one, as it is now).
 */
export const BatchGiftSaved = z
  .object({ donation: DonationDetail, batch: Batch, sync: SyncStatus, alreadySaved: z.boolean() })
  .meta({ id: 'BatchGiftSaved' });
export type BatchGiftSaved = z.infer<typeof BatchGiftSaved>;
