/**
 * The one description of GiftDesk's tables, for every engine. Column names are camelCase
 * here and snake_case in the database (Kysely's CamelCasePlugin maps them).
 * Money is integer cents; timestamps are ISO 8601 UTC text (`…Z`); booleans are 0/1
 * integers so both engines store them alike.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type {
  ContactMethod,
  ContactStatus,
  ContactType,
  CustomFieldType,
  DonationStatus,
  ElectionType,
  FlagState,
  Gender,
  LimitKind,
  PaymentMethod,
  SyncAttentionCode,
  SyncConfirmation,
} from '#shared/enums.ts';
import type { ImportKind, ImportStatus } from '#shared/schemas/imports.ts';

type Flag01 = 0 | 1;

export interface AccountsTable {
  id: string;
  name: string;
  defaultElectionType: ElectionType | null;
  defaultElectionYear: number | null;
  createdAt: string;
}

export interface ApiKeysTable {
  id: string;
  accountId: string;
  secretHash: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** null: a permanent key; otherwise the session it was made for (see the migration). */
  sessionKind: 'browser' | 'desktop' | null;
  /** The process a session key belongs to: `host|pid|random`. */
  sessionOwner: string | null;
}

export interface ContactsTable {
  id: string;
  accountId: string;
  contactType: ContactType;
  status: ContactStatus;
  firstName: string;
  lastName: string;
  prefix: string | null;
  middleName: string | null;
  suffix: string | null;
  salutation: string | null;
  formalSalutation: string | null;
  primaryEmail: string | null;
  primaryPhone: string | null;
  organization: string | null;
  title: string | null;
  employer: string | null;
  occupation: string | null;
  industry: string | null;
  spouse: string | null;
  birthDate: string | null;
  gender: Gender | null;
  politicalParty: string | null;
  capacity: string | null;
  quickNotes: string | null;
  source: string | null;
  preferredContactMethod: ContactMethod | null;
  /** JSON array of strings. */
  tags: string;
  /** The email shown in lists and searched: primaryEmail, else the primary email sub-record. */
  email: string | null;
  /** The phone shown in lists: primaryPhone, else the primary phone sub-record. */
  phone: string | null;
  /** Reference from a bulk import, so a re-run adds nothing twice. */
  externalId: string | null;
  /** Sum of completed donations, cents. */
  totalCents: number;
  lastDonationDate: string | null;
  createdAt: string;
  updatedAt: string;
}

interface SubRecord {
  id: string;
  contactId: string;
  position: number;
}
export interface ContactPhonesTable extends SubRecord {
  phoneNumber: string;
  phoneType: string | null;
  isPrimary: Flag01;
}
export interface ContactEmailsTable extends SubRecord {
  emailAddress: string;
  emailType: string | null;
  isPrimary: Flag01;
}
export interface ContactAddressesTable extends SubRecord {
  addressType: string | null;
  street1: string | null;
  street2: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
  isPrimary: Flag01;
}
export interface ContactEducationTable extends SubRecord {
  institution: string;
  degree: string | null;
  fieldOfStudy: string | null;
  graduationYear: number | null;
}
export interface ContactEmploymentTable extends SubRecord {
  employer: string;
  title: string | null;
  occupation: string | null;
  startDate: string | null;
  endDate: string | null;
  isCurrent: Flag01;
}
export interface ContactNotesTable extends SubRecord {
  content: string;
  noteType: string | null;
  createdAt: string;
}

export interface CustomFieldsTable {
  id: string;
  accountId: string;
  name: string;
  /** lower-case name: field names are unique per account, case-insensitively. */
  nameKey: string;
  fieldType: CustomFieldType;
  position: number;
  archivedAt: string | null;
  createdAt: string;
}
export interface CustomFieldOptionsTable {
  id: string;
  fieldId: string;
  name: string;
  position: number;
  retiredAt: string | null;
}
export interface ContactCustomValuesTable {
  contactId: string;
  fieldId: string;
  valueText: string | null;
  valueNumber: number | null;
  optionId: string | null;
}

export interface CampaignsTable {
  id: string;
  accountId: string;
  name: string;
  createdAt: string;
}
export interface CampaignDonationAccountsTable {
  campaignId: string;
  donationAccountId: string;
}
export interface CommitteesTable {
  id: string;
  accountId: string;
  name: string;
  createdAt: string;
}
export interface DonationAccountsTable {
  id: string;
  accountId: string;
  name: string;
  limitPerElectionCents: number | null;
  limitPerCycleCents: number | null;
  limitPerYearCents: number | null;
  limitPerDonorCents: number | null;
  createdAt: string;
}
export interface ElectionsTable {
  id: string;
  accountId: string;
  electionType: ElectionType;
  electionYear: number;
  /** YYYY-MM-DD */
  electionDate: string;
  createdAt: string;
}

export interface DonationsTable {
  id: string;
  accountId: string;
  contactId: string;
  amountCents: number;
  donationDate: string;
  paymentMethod: PaymentMethod;
  status: DonationStatus;
  campaignId: string | null;
  committeeId: string | null;
  donationAccountId: string | null;
  electionType: ElectionType;
  electionYear: number;
  onBehalfOfContactId: string | null;
  facilitatedByContactId: string | null;
  isAnonymous: Flag01;
  isRecurring: Flag01;
  thankYouSent: Flag01;
  thankYouSentDate: string | null;
  notes: string | null;
  externalId: string | null;
  /** The gift-entry batch it was typed in (local bookkeeping, never pushed). */
  batchId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A gift-entry batch: its defaults, and the count and total the volunteer expects. */
export interface BatchesTable {
  id: string;
  accountId: string;
  name: string;
  campaignId: string | null;
  committeeId: string | null;
  donationAccountId: string | null;
  paymentMethod: PaymentMethod | null;
  /** YYYY-MM-DD: the default gift date. */
  batchDate: string | null;
  expectedCount: number | null;
  expectedCents: number | null;
  createdAt: string;
  closedAt: string | null;
}

export interface LimitFlagsTable {
  id: string;
  accountId: string;
  donationId: string;
  limitKind: LimitKind;
  windowKey: string;
  limitCents: number;
  donorTotalCents: number;
  state: FlagState;
  createdAt: string;
  resolvedAt: string | null;
  resolutionNote: string | null;
}

export interface DonationHistoryTable {
  id: string;
  donationId: string;
  action: string;
  note: string | null;
  /** JSON object with the action's particulars. */
  detail: string | null;
  createdAt: string;
}

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
}

/** Sync: one engine per database. */
export interface SyncLeaseTable {
  name: string;
  holder: string;
  acquiredAt: string;
  renewedAt: string;
  expiresAt: string;
}

/** An account's running counts, spread over a few slots (a read sums them). */
export interface AccountCounterSlotsTable {
  accountId: string;
  slot: number;
  contacts: number;
  donations: number;
}

export interface ImportsTable {
  id: string;
  accountId: string;
  kind: ImportKind;
  status: ImportStatus;
  totalRows: number;
  processedRows: number;
  importedRows: number;
  /** JSON array of {row, reason}: unused since import_rejections holds them ('[]'). */
  rejected: string;
  push: Flag01;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  rejectedCount: Generated<number>;
  /** Rows whose externalId was imported before (a re-run): neither imported nor rejected. */
  skippedRows: Generated<number>;
}

/** One rejected row of an import: its row number in the file and why. */
export interface ImportRejectionsTable {
  importId: string;
  rowNo: number;
  reason: string;
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

/** A bulk import's gifts not yet in their donor's total (migration donor-total-deltas). */
export interface DonorTotalDeltasTable {
  contactId: string;
  cents: number;
  /** The latest of the gifts' dates. */
  latestDate: string;
}

export interface Database {
  accounts: AccountsTable;
  apiKeys: ApiKeysTable;
  contacts: ContactsTable;
  contactPhones: ContactPhonesTable;
  contactEmails: ContactEmailsTable;
  contactAddresses: ContactAddressesTable;
  contactEducation: ContactEducationTable;
  contactEmployment: ContactEmploymentTable;
  contactNotes: ContactNotesTable;
  customFields: CustomFieldsTable;
  customFieldOptions: CustomFieldOptionsTable;
  contactCustomValues: ContactCustomValuesTable;
  campaigns: CampaignsTable;
  campaignDonationAccounts: CampaignDonationAccountsTable;
  committees: CommitteesTable;
  donationAccounts: DonationAccountsTable;
  elections: ElectionsTable;
  donations: DonationsTable;
  batches: BatchesTable;
  limitFlags: LimitFlagsTable;
  donationHistory: DonationHistoryTable;
  changeLog: ChangeLogTable;
  accountCounterSlots: AccountCounterSlotsTable;
  imports: ImportsTable;
  importRejections: ImportRejectionsTable;
  syncRemotes: SyncRemotesTable;
  syncLinks: SyncLinksTable;
  syncItems: SyncItemsTable;
  syncLease: SyncLeaseTable;
  syncPullRuns: SyncPullRunsTable;
  syncDirectory: SyncDirectoryTable;
  syncHqContacts: SyncHqContactsTable;
  donationSyncReferences: DonationSyncReferencesTable;
  contactSyncReferences: ContactSyncReferencesTable;
  donorTotalDeltas: DonorTotalDeltasTable;
}

export type ContactRow = Selectable<ContactsTable>;
export type NewContact = Insertable<ContactsTable>;
export type ContactPatch = Updateable<ContactsTable>;
export type DonationRow = Selectable<DonationsTable>;
export type NewDonation = Insertable<DonationsTable>;
export type DonationAccountRow = Selectable<DonationAccountsTable>;
export type CustomFieldRow = Selectable<CustomFieldsTable>;
export type CustomFieldOptionRow = Selectable<CustomFieldOptionsTable>;
export type Timestamp = ColumnType<string, string, string>;
