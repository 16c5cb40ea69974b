/**
 * The tables of gifts and what they are given to: campaigns, committees, donation accounts
 * and elections (the reference data), the gifts, their entry batches, limit flags and
 * history, and a bulk import's gifts not yet in their donors' totals. Part of the one
 * description of the tables (../schema.ts); camelCase here, snake_case in the database.
 */
import type { DonationStatus, ElectionType, FlagState, LimitKind, PaymentMethod } from '#shared/enums.ts';
import type { ColumnType } from 'kysely';
import type { Flag01 } from './columns.ts';

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
  /** The event station it was entered at (null: here, or outside any event). */
  stationId: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who entered it: the person signed in (null: a key with no person, or from before this). */
  enteredByUserId: ColumnType<string | null, string | null | undefined, string | null>;
  /** The key that made the request that entered it. */
  enteredByKeyId: ColumnType<string | null, string | null | undefined, string | null>;
  /** The person's name when they entered it. */
  enteredByName: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** The host its gifts are raised by, kept for the entry row (migration entryrow-batch-host). */
  raisedByContactId: string | null;
  createdAt: string;
  closedAt: string | null;
  /** Who started it: the person signed in (null: a key with no person, or from before this). */
  createdByUserId: string | null;
  /** The key that started it. */
  createdByKeyId: string | null;
  /** The key the window minted for the try that started it (migration batch-entry-key). */
  entryKey: string | null;
}

/** A batch's count at its close (migration batch-count): who counted, and the difference. */
export interface BatchCountsTable {
  id: string;
  accountId: string;
  batchId: string;
  countedBy: string;
  note: string | null;
  enteredCount: number;
  enteredCents: number;
  countedCents: number;
  /** Counted − entered, in cents (0: it balanced). */
  differenceCents: number;
  countedAt: string;
  /** Whose session saved the count (the person; the key; the person's name then). */
  byUserId: string | null;
  byKeyId: string | null;
  byName: string | null;
}

/** One payment method's line of a count: entered (at the close) against counted. */
export interface BatchCountLinesTable {
  countId: string;
  paymentMethod: PaymentMethod;
  enteredCount: number;
  enteredCents: number;
  /** Null: not counted as items (cash is counted as money). */
  countedCount: number | null;
  countedCents: number;
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

/**
 * A donor's later changes (created, edited, merged), one row per change, written in the
 * transaction of the change; `detail` is JSON with who made it and each field before and after.
 */
export interface ContactHistoryTable {
  id: string;
  accountId: string;
  contactId: string;
  action: string;
  note: string | null;
  detail: string | null;
  createdAt: string;
}

/** A bulk import's gifts not yet in their donor's total (migration donor-total-deltas). */
export interface DonorTotalDeltasTable {
  contactId: string;
  cents: number;
  /** The latest of the gifts' dates. */
  latestDate: string;
}
