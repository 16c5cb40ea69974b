/**
 * The tables of accounts and what hangs off an account itself: its API keys, its running
 * counts, and its imports with their rejected rows. Part of the one description of the tables
 * (../schema.ts); camelCase here, snake_case in the database.
 */
import type { Generated } from 'kysely';
import type { ElectionType } from '#shared/enums.ts';
import type { ImportKind, ImportStatus } from '#shared/schemas/imports.ts';
import type { Role } from '#shared/schemas/roles.ts';
import type { Flag01 } from './columns.ts';

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
  /** The role the key acts in (shared/schemas/roles.ts); 'administrator' for keys made before roles. */
  role: Generated<Role>;
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
