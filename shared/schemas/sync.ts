/** Sync to HQ: the shapes of the sync extension routes (/api/v1/sync/…). */
import { z } from 'zod';
import { SYNC_ATTENTION_CODES, SYNC_CONFIRMATIONS } from '../enums.ts';
import { accountIdField } from './common.ts';

export const SyncEntityType = z.enum(['contact', 'donation'], { error: 'must be contact or donation' });

/** Said of an HQ address that is not an http(s) URL ("not a url", "hq.example.org", "ftp://…"). */
export const HQ_URL_ISSUE =
  'must be a web address starting with http:// or https://, like https://hq.example.org';
export const HQ_URL_CREDENTIALS_ISSUE =
  'must not carry a user name or password (the key goes in keyId and secret)';

/** What is wrong with an HQ address as typed, or null when it will do. */
export function hqUrlIssue(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return HQ_URL_ISSUE;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return HQ_URL_ISSUE;
  if (u.username || u.password) return HQ_URL_CREDENTIALS_ISSUE;
  return null;
}

export const SyncSettingsBody = z
  .object({
    accountId: accountIdField.optional(),
    baseUrl: z
      .string({ error: 'is required' })
      .trim()
      .min(1, { error: 'is required', abort: true })
      .max(500, { error: 'must be at most 500 characters', abort: true })
      .superRefine((v, c) => {
        const issue = hqUrlIssue(v);
        if (issue) c.addIssue({ code: 'custom', message: issue });
      }),
    keyId: z.string().trim().min(1, { error: 'is required' }).max(200),
    /** Required the first time; leave out to keep the stored one. Never returned. */
    secret: z.string().min(1, { error: 'must not be empty' }).max(500).optional(),
    remoteAccountId: z.string().trim().min(1, { error: 'is required' }).max(200),
    ratePerSecond: z
      .number({ error: 'must be a number' })
      .positive({ error: 'must be above 0' })
      .max(1000)
      .optional(),
    scheduleSeconds: z
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(5)
      .max(86_400)
      .optional(),
    emailMatch: z.boolean({ error: 'must be true or false' }).optional(),
    /**
     * Try HQ first (one GET /contacts?limit=1 with this address, key and HQ account; the stored
     * secret when none is sent) and save only when HQ answers and takes the key; otherwise 400
     * `hq_connection_failed` naming the field to check, and nothing is saved. Off by default
     * (scripts may set up sync before the venue has internet); the app's form turns it on.
     */
    testConnection: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .meta({ id: 'SyncSettingsBody' });
export type SyncSettingsBody = z.infer<typeof SyncSettingsBody>;

/** The settings as shown: never the secret (only whether one is stored). */
export const SyncSettings = z
  .object({
    accountId: z.string(),
    baseUrl: z.string(),
    keyId: z.string(),
    remoteAccountId: z.string(),
    ratePerSecond: z.number(),
    scheduleSeconds: z.number(),
    emailMatch: z.boolean(),
    hasSecret: z.boolean(),
  })
  .meta({ id: 'SyncSettings' });

export const SyncFailing = z.object({
  entityType: SyncEntityType,
  entityId: z.string(),
  label: z.string(),
  failures: z.number().int(),
  lastError: z.string().nullable(),
  nextTryAt: z.string().nullable(),
});

/**
 * Why a record was parked (enums.ts, SYNC_ATTENTION_CODES), or `unknown` when what is stored is
 * none of those: no code, or one this version does not know (written by another version).
 */
export const SyncListedAttentionCode = z.enum([...SYNC_ATTENTION_CODES, 'unknown']);
export type SyncListedAttentionCode = z.infer<typeof SyncListedAttentionCode>;

/**
 * What a record's sync state holds of its codes: why it is parked, a person's confirmation the
 * engine acts on next (SYNC_CONFIRMATIONS), or `unknown` as above.
 */
export const SyncRecordCode = z.enum([...SYNC_ATTENTION_CODES, ...SYNC_CONFIRMATIONS, 'unknown']);
export type SyncRecordCode = z.infer<typeof SyncRecordCode>;

export const SyncAttentionItem = z
  .object({
    entityType: SyncEntityType,
    entityId: z.string(),
    label: z.string(),
    code: SyncListedAttentionCode,
    reason: z.string(),
    remoteStatus: z.number().int().nullable(),
    since: z.string().nullable(),
  })
  .meta({ id: 'SyncAttentionItem' });

/**
 * What the requests found of HQ (the header badge says this):
 * - online: HQ answered within the last `onlineWindowSeconds` and nothing failed since;
 * - quiet: HQ's last answer is older than that and nothing failed since (nothing needed sending);
 * - offline: the last request got no answer (or a 5xx, or a redirect) after HQ had answered before;
 * - never: HQ never answered (not tried yet, or every request failed);
 * - paused: HQ asked us to wait (429/503) until `pausedUntil`;
 * - refused: HQ's last answer refused the key (401/403).
 */
export const SyncConnection = z
  .object({
    state: z.enum(['online', 'quiet', 'offline', 'never', 'paused', 'refused']),
    onlineWindowSeconds: z.number().int(),
    /** The last answer from HQ (2xx–4xx but 401/403). */
    lastAnsweredAt: z.string().nullable(),
    /** The last request with no answer, a 5xx or a redirect. */
    lastFailedAt: z.string().nullable(),
    /** What is wrong with the connection (the last failure or refusal), in a coordinator's words. */
    lastFailure: z.string().nullable(),
    /** The last 401/403. */
    refusedAt: z.string().nullable(),
  })
  .meta({ id: 'SyncConnection' });

/** The one sync status: every figure of the badge and of Settings → Sync comes from one answer of this. */
export const SyncStatus = z
  .object({
    configured: z.boolean(),
    /** The server's time of this answer. */
    checkedAt: z.string(),
    /** Changes still to go for records that go on their own (not parked), in a request or not. */
    waiting: z.number().int(),
    /** Of those, changes in a request whose answer is not recorded yet. */
    inFlight: z.number().int(),
    /** Changes still to go not in a request (parked records' included). */
    pending: z.number().int(),
    /** Records parked for a person: the length of `attention`. */
    needsAttention: z.number().int(),
    /** Those records, with the reason (the same list as /sync/attention). */
    attention: z.array(SyncAttentionItem),
    /** Changes HQ confirmed since sync was configured (never a change merged into nothing or discarded). */
    sent: z.number().int(),
    /** Changes done with since sync was configured: sent, merged into nothing or discarded (progress of a pass). */
    done: z.number().int(),
    connection: SyncConnection,
    /** The last pass that ended without a failure (it may have had nothing to send). */
    lastSuccessAt: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    lastError: z.string().nullable(),
    /** HQ asked us to wait (429) until then. */
    pausedUntil: z.string().nullable(),
    /**
     * When the changes waiting go next on their own: the earliest record's backoff, not
     * before HQ's pause ends; with no backoff while HQ does not answer, the next scheduled
     * pass. Null when nothing waits, or when they go with the next pass in a few seconds.
     */
    nextTryAt: z.string().nullable(),
    ratePerSecond: z.number().nullable(),
    /** The rate now (lower than configured while recovering from a 429). */
    currentRate: z.number().nullable(),
    /** A pass is running in this process. */
    running: z.boolean(),
    /** Records that failed three times or more in a row (5xx, network), with the last error. */
    failing: z.array(SyncFailing),
    /** Where the changes go: HQ, or the event hub this GiftDesk is a station of (the words say "Event hub"). */
    remoteKind: z.enum(['hq', 'hub']),
    /** A station its hub removed from the event: when (it sends nothing more). */
    revokedAt: z.string().nullable(),
    /** Gifts marked thanked after they reached HQ whose marks HQ did not take (an HQ of the donor API alone): kept here only. */
    marksKeptHere: z.number().int(),
    /** That, in a sentence for a coordinator; null when every mark reached HQ. */
    marksNote: z.string().nullable(),
  })
  .meta({ id: 'SyncStatus' });
export type SyncStatus = z.infer<typeof SyncStatus>;

export const SyncAttentionList = z.object({ data: z.array(SyncAttentionItem) });

export const SyncItemParams = z.object({ entityType: SyncEntityType, id: z.string().min(1).max(64) });
export const SyncActionBody = z.object({ accountId: accountIdField.optional() });

export const SyncRecordState = z
  .object({
    entityType: SyncEntityType,
    entityId: z.string(),
    /** not_synced (no HQ configured) | not_sent | sending | checking (outcome unknown) | sent | needs_attention | retrying */
    phase: z.enum(['not_synced', 'not_sent', 'sending', 'checking', 'sent', 'needs_attention', 'retrying']),
    remoteId: z.string().nullable(),
    pendingChanges: z.number().int(),
    readOnly: z.boolean(),
    reason: z.string().nullable(),
    attentionCode: SyncRecordCode.nullable(),
    failures: z.number().int(),
    nextTryAt: z.string().nullable(),
    firstAttemptAt: z.string().nullable(),
  })
  .meta({ id: 'SyncRecordState' });

export const SyncRunResult = z
  .object({
    /** False when another process (the app or another `giftdesk serve`) holds the sync lease. */
    ran: z.boolean(),
    requests: z.number().int(),
    parked: z.number().int(),
    failed: z.number().int(),
    stopped: z.string().nullable(),
    status: SyncStatus,
  })
  .meta({ id: 'SyncRunResult' });
