/**
 * Shapes of the sync pull and reference-link routes (GiftDesk extensions):
 * POST/GET /sync/pull, GET/POST /sync/links, GET /sync/links/candidates.
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

/** One of HQ's campaigns (committees, donation accounts), as offered to choose from. */
export const ReferenceCandidate = z
  .object({
    remoteId: z.string(),
    name: z.string(),
    /** The local record linked to it already (it is shown, never suggested; linking it again is refused), or null. */
    linkedTo: z.object({ localId: z.string(), name: z.string() }).nullable(),
  })
  .meta({ id: 'SyncReferenceCandidate' });

/** What HQ lists of one kind: `listed` false when HQ has no list of them (the spec's HQ has none: type HQ's id). */
export const ReferenceKindCandidates = z.object({
  kind: z.enum(REFERENCE_KINDS),
  listed: z.boolean(),
  /** Why there is nothing to choose from, in a sentence (HQ does not list them, or lists none), else null. */
  note: z.string().nullable(),
  /** HQ's records of this kind, by name. */
  hq: z.array(ReferenceCandidate),
});

/** A local record with no HQ id yet, and the HQ record suggested for it (same name, unambiguous), if any. */
export const UnlinkedReference = z.object({
  kind: z.enum(REFERENCE_KINDS),
  localId: z.string(),
  name: z.string(),
  suggestedRemoteId: z.string().nullable(),
  /** Why this suggestion, or why there is none, in a sentence. */
  reason: z.string(),
});

export const ReferenceCandidates = z
  .object({
    /** The kinds that have unlinked local records (HQ is asked only for those). */
    kinds: z.array(ReferenceKindCandidates),
    unlinked: z.array(UnlinkedReference),
  })
  .meta({ id: 'SyncReferenceCandidates' });
export type ReferenceCandidates = z.infer<typeof ReferenceCandidates>;
