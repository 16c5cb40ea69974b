/**
 * The tables of accounts and what hangs off an account itself: its API keys, its people, its running
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
  sessionKind: 'browser' | 'desktop' | 'sign-in' | null;
  /** The process a session key belongs to: `host|pid|random`. */
  sessionOwner: string | null;
  /** The role the key acts in (shared/schemas/roles.ts); 'administrator' for keys made before roles. */
  role: Generated<Role>;
  /** The person a sign-in session belongs to (users.id); null for every other key. */
  userId: string | null;
}

/** A person who signs in with an email and a password (a shared server's staff). */
export interface UsersTable {
  id: string;
  accountId: string;
  /** As typed, trimmed. */
  email: string;
  /** Trimmed and in lower case: unique per account, what a sign-in looks up. */
  emailKey: string;
  name: string;
  role: Role;
  /** `scrypt$N$r$p$salt$hash` (base64url); null until the person sets a password. */
  passwordHash: string | null;
  disabledAt: string | null;
  /** When they last signed in (null: not since 2026-12-02T0750-peoplescreen-last-sign-in). */
  lastSignInAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A one-time link that sets a person's password: only the token's hash is kept. */
export interface UserPasswordTokensTable {
  tokenHash: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** A refused sign-in: where it came from, the email tried (lower case), when. */
export interface SignInFailuresTable {
  address: string;
  emailKey: string;
  at: string;
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
  /** The process running the job (`host|pid|random`); null for jobs from before it was kept. */
  owner: string | null;
  /** The SHA-256 (hex) of the file it read (migration import-file-hash); null from before. */
  fileSha256: string | null;
}

/** One rejected row of an import: its row number in the file and why. */
export interface ImportRejectionsTable {
  importId: string;
  rowNo: number;
  reason: string;
}

/** A rate-limit bucket shared by the servers on one PostgreSQL (server/shared-buckets.ts). */
export interface RateBucketsTable {
  /** The bucket set and the key it counts: `api:key:<keyId>`, `api:ip:<address>`, `station:…`. */
  bucket: string;
  tokens: number;
  /** When `tokens` was counted (Unix milliseconds). */
  atMs: number;
  /** 1 when the last request taken from it passed. */
  allowed: number;
}

/** A one-time link that opens the app in a browser, shared by the servers on one PostgreSQL. */
export interface AppLinksTable {
  /** SHA-256 of the token, hex. */
  tokenHash: string;
  expiresAt: string;
}
