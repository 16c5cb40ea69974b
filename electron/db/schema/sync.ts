/**
 * The tables of sync: the outbox (the change log), the HQ an account pushes to, the id map,
 * each record's push state, the engine's lease, pulls, what is known of HQ's contacts, and
 * the sync references creates were made with. Part of the one description of the tables
 * (../schema.ts); camelCase here, snake_case in the database.
 */
import type { ColumnType, Generated } from 'kysely';
import type { SyncAttentionCode, SyncConfirmation } from '#shared/enums.ts';
import type { Flag01 } from './columns.ts';

/** The outbox: one row per domain write, appended in the write's own transaction. */
export interface ChangeLogTable {
  seq: Generated<number>;
  accountId: string;
  entityType: string;
  entityId: string;
  op: string;
  /** JSON array of the wire field names this change touched (null: the whole record). */
  fields: string | null;
  /** 1 = to be pushed to HQ; 0 = history HQ already has (imports with --no-push). */
  push: Flag01;
  createdAt: string;
  /** Sync: when this change was done with (pushed, coalesced away, or nothing to send); null = still to go. */
  syncedAt: ColumnType<string | null, string | null | undefined, string | null>;
  /** Sync: the push attempt this change went into (set before the request leaves). */
  attemptId: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Sync: the HQ an account pushes to (see migrations/2026-11-24T1600-sync.ts). */
export interface SyncRemotesTable {
  accountId: string;
  baseUrl: string;
  keyId: string;
  /** The API secret, encrypted (electron/sync/remote/secret-box.ts). Never the plain secret. */
  secretSealed: string;
  remoteAccountId: string;
  ratePerSecond: number;
  scheduleSeconds: number;
  /** 1: before creating a contact at HQ, link to an HQ contact with the same primary email. */
  emailMatch: Flag01;
  lastSuccessAt: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
  pausedUntil: string | null;
  currentRate: number | null;
  /** Outbox changes done with (pushed or needing nothing), for the status. */
  doneCount: Generated<number>;
  /** Outbox changes HQ confirmed (applied, or found at HQ): the status's "sent". */
  sentCount: Generated<number>;
  /** The last answer from HQ (under 500, not 401/403). */
  hqAnsweredAt: string | null;
  /** The last request with no answer (network) or a 5xx, and what happened. */
  hqFailedAt: string | null;
  hqFailure: string | null;
  /** The last 401/403: HQ refused the key. */
  hqRefusedAt: string | null;
  /** 'hq': an HQ (any server of the spec); 'hub': an event hub, this GiftDesk being one of its stations. */
  kind: ColumnType<'hq' | 'hub', 'hq' | 'hub' | undefined, 'hq' | 'hub'>;
  /** A hub's certificate fingerprint (`sha256:…`), pinned at join: another certificate is refused. */
  pinnedFingerprint: string | null;
  /** This station's id and name at its hub. */
  stationId: string | null;
  stationName: string | null;
  /** How far this station has read the hub's change feed. */
  hubCursor: string | null;
  /** When the hub said this station was revoked. */
  revokedAt: string | null;
  /** Gifts whose thank-you marks were kept here only (HQ takes no marks, or the gift is not linked). */
  marksKeptHere: Generated<number>;
  /** When HQ last answered it has no route for thank-you marks (a spec-only HQ); null once it takes one. */
  marksNotTakenAt: string | null;
  /** When HQ was last asked whether it takes thank-you marks, or answered one (at a station: when the hub last said whether its HQ does). */
  marksCheckedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Sync: the id map — a local record and its id at HQ. */
export interface SyncLinksTable {
  /** contact | donation | campaign | committee | donationAccount */
  entityType: string;
  localId: string;
  accountId: string;
  remoteId: string;
  /** pushed (HQ answered a create) | found (reconciliation) | email (email match) | pulled | manual */
  source: string;
  linkedAt: string;
}

/** Sync: a history entry HQ confirmed (push/trail.ts): a history row's id, or `entered:<donation id>`. */
export interface SyncTrailSentTable {
  accountId: string;
  entryId: string;
  sentAt: string;
}

/** Sync: the push state of one record (contact or donation). */
export interface SyncItemsTable {
  entityType: string;
  entityId: string;
  accountId: string;
  /** The lane: the contact itself, or a donation's donor. Lanes push side by side. */
  laneId: string;
  /** idle | in_flight | unknown | attention */
  state: string;
  /** create | update | delete: the request of the current (or last) attempt. */
  op: string | null;
  attemptId: string | null;
  attemptAt: string | null;
  /** JSON of the request body of the attempt (what reconciliation looks for at HQ). */
  attemptBody: string | null;
  /** When the record was first sent: a donation is read-only locally from then on. */
  firstAttemptAt: string | null;
  /** Failures in a row (5xx, network): the backoff's exponent. */
  failures: number;
  nextTryAt: string | null;
  lastError: string | null;
  /**
   * Why it is parked, or a person's confirmation the engine acts on next (shared/enums.ts).
   * Written only from those sets; read as any text, since a row written by another version of
   * GiftDesk may hold a code this one does not know.
   */
  attentionCode: ColumnType<
    string | null,
    SyncAttentionCode | SyncConfirmation | null,
    SyncAttentionCode | SyncConfirmation | null
  >;
  attentionReason: string | null;
  attentionStatus: number | null;
  attentionAt: string | null;
  /** Contacts: JSON of what HQ has as of the last applied push (the base of C1 diffs). */
  pushedState: string | null;
  updatedAt: string;
  /**
   * Sent again after its upstream was lost (outbox/resend.ts), or created at a hub by a station
   * saying so: it may be at HQ already, created there no earlier than this. Looked for before
   * it is posted. Null otherwise.
   */
  resentSince: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Sync: one engine per database. */
export interface SyncLeaseTable {
  name: string;
  holder: string;
  acquiredAt: string;
  renewedAt: string;
  expiresAt: string;
}

/** One pull from HQ (electron/sync/pull/pull.ts): progress, resume point, counts, outcome. */
export interface SyncPullRunsTable {
  id: string;
  accountId: string;
  status: string;
  phase: string;
  pagesDone: number;
  pagesTotal: number | null;
  nextOffset: number;
  /** JSON object of counts. */
  counts: string;
  /** JSON array of strings for the user. */
  notes: string;
  error: string | null;
  startedAt: string;
  heartbeatAt: string;
  finishedAt: string | null;
}

/** Sync: what this device knows of HQ's contacts, for the email match (email-match.ts). */
export interface SyncDirectoryTable {
  accountId: string;
  remoteAccountId: string;
  /** HQ's createdAt up to which every HQ contact is known here. */
  watermark: string;
  /** When (local clock, ISO) HQ was last read up to now. */
  checkedAt: string;
}

/** Sync: an HQ contact with an email, not linked here when it was seen (email-match.ts). */
export interface SyncHqContactsTable {
  accountId: string;
  remoteId: string;
  emailKey: string;
  createdAt: string;
}

/**
 * The sync reference (`gd:<local id>`, #shared/sync-reference.ts) a gift was created with
 * through the create API: one gift per reference and account, so a second create with it
 * answers that gift (migration sync-reference-unique).
 */
export interface DonationSyncReferencesTable {
  accountId: string;
  reference: string;
  donationId: string;
}

/** The same for contacts (their last `gd:` tag). */
export interface ContactSyncReferencesTable {
  accountId: string;
  reference: string;
  contactId: string;
}

/** A contact reference its sender retired: a create carrying it creates nothing (domain/contacts/retire.ts). */
export interface RetiredContactReferencesTable {
  accountId: string;
  reference: string;
  retiredAt: string;
}
