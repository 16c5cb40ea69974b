/**
 * Shapes of the sync pull and reference-link routes (GiftDesk extensions):
 * POST/GET /sync/pull, GET/POST /sync/links.
 */
import { z } from 'zod';
import { accountIdField, requiredText, typeError } from './common.ts';

export const REFERENCE_KINDS = ['campaign', 'committee', 'donationAccount'] as const;

export const PullCounts = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  linked: z.number().int(),
  kept: z.number().int(),
  unchanged: z.number().int(),
  deferred: z.number().int(),
  deletedHere: z.number().int(),
  rejected: z.number().int(),
  reference: z.number().int(),
});

export const PullRun = z
  .object({
    id: z.string(),
    accountId: z.string(),
    status: z.enum(['running', 'done', 'failed']),
    phase: z.enum(['reference', 'contacts']),
    pagesDone: z.number().int(),
    pagesTotal: z.number().int().nullable(),
    counts: PullCounts,
    notes: z.array(z.string()),
    error: z.string().nullable(),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'SyncPullRun' });
export type PullRun = z.infer<typeof PullRun>;

export const PullStatus = z.object({ run: PullRun.nullable() });
export const PullStartBody = z.object({ accountId: accountIdField });

export const ReferenceLink = z
  .object({
    kind: z.enum(REFERENCE_KINDS),
    localId: z.string(),
    name: z.string(),
    remoteId: z.string().nullable(),
    source: z.string().nullable(),
  })
  .meta({ id: 'SyncReferenceLink' });
export const ReferenceLinkList = z.object({ data: z.array(ReferenceLink) });

export const LinkBody = z.object({
  accountId: accountIdField,
  kind: z.enum(REFERENCE_KINDS, { error: typeError(`must be one of: ${REFERENCE_KINDS.join(', ')}`) }),
  localId: requiredText(64),
  remoteId: requiredText(128),
});
export const LinkResult = z.object({
  kind: z.enum(REFERENCE_KINDS),
  localId: z.string(),
  remoteId: z.string(),
  remoteName: z.string().nullable(),
  replaced: z.string().nullable(),
  /** False when HQ has no route to read committees or donation accounts: stored as entered. */
  checked: z.boolean(),
});
