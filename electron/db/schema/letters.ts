/**
 * Letters, receipts and year-end statements (migrations 2026-11-27T2000-letters and
 * 2026-11-27T2120-letter-run-owner, 2026-12-03T0700-letter-run-parts, 2026-12-03T1330-letter-run-donors).
 */
import type { ColumnType } from 'kysely';
import type { LetterKind, LetterRunStatus, OrgKind } from '#shared/schemas/letters.ts';

/** What an account's letters say of the organisation, once edited (else the defaults). */
export interface LetterSettingsTable {
  accountId: string;
  orgKind: ColumnType<OrgKind, OrgKind | undefined, OrgKind>;
  organizationName: string | null;
  organizationAddress: string | null;
  signerName: string | null;
  signerTitle: string | null;
  updatedAt: string;
}

/** An account's own wording for one kind of document. */
export interface LetterTemplatesTable {
  accountId: string;
  kind: LetterKind;
  heading: string;
  body: string;
  updatedAt: string;
}

/** One print run. */
export interface LetterRunsTable {
  id: string;
  accountId: string;
  kind: LetterKind;
  /** JSON of the LetterChoice the run was made from. */
  filters: string;
  status: LetterRunStatus;
  /** Documents in the run (one per donor; one for a receipt). */
  documents: ColumnType<number, number | undefined, number>;
  /** Documents rendered so far (the progress bar). */
  rendered: ColumnType<number, number | undefined, number>;
  gifts: ColumnType<number, number | undefined, number>;
  totalCents: ColumnType<number, number | undefined, number>;
  /** The PDF (the first part's, when in parts), relative to the data folder; null until written. */
  file: string | null;
  /** JSON of the run's PDF files in order (StoredRunPart[]); null before parts were recorded or without a PDF. */
  parts: string | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  markedSentAt: string | null;
  /** The process rendering the run (`host|pid|random`, as a session key's owner); null before it was recorded. */
  owner: string | null;
  /** The key the window minted for the try that started it (migration letter-run-entry-key). */
  entryKey: string | null;
}

/** A gift a run covered. */
export interface LetterRunGiftsTable {
  runId: string;
  donationId: string;
  contactId: string;
}

/** A donor of a run, once, with the name the run orders its letters by. */
export interface LetterRunDonorsTable {
  runId: string;
  contactId: string;
  name: string;
}
