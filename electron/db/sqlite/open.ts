/**
 * The embedded engine: one SQLite file through better-sqlite3, WAL, synchronous=FULL,
 * foreign keys on, a busy timeout. Writes are group-committed: requests that arrive while a
 * commit is being synced share the next commit, each inside its own savepoint. This file wires
 * the store from its parts: the file's modes (file-modes.ts), the connection
 * (connection.ts), migrating with a backup first (backup.ts), the group commit
 * (group-commit.ts) and contact search (search.ts).
 */
import fs from 'node:fs';
import { createChangeSignal } from '../change-signal.ts';
import type BetterSqlite3 from 'better-sqlite3';
import { type RawBuilder, sql } from 'kysely';
import { applyDonorTotalDeltas } from '../donor-total-deltas.ts';
import type { NamedMigration } from '../migration-types.ts';
import type { Store, TimeUnit } from '../store.ts';
import { migrateWithBackup } from './backup.ts';
import { type ConnectionOptions, connect, kyselyOver } from './connection.ts';
import { ownerOnly } from './file-modes.ts';
import { groupCommit } from './group-commit.ts';
import { sqliteContactSearch } from './search.ts';

export interface SqliteOptions extends ConnectionOptions {
  file: string;
  /** Skip migrations (tests of the migrator itself). */
  migrate?: boolean;
  /** The migrations to apply (tests of the migrator); the app's own list by default. */
  migrations?: readonly NamedMigration[];
}

export async function openSqlite(opts: SqliteOptions): Promise<Store> {
  const existed = fs.existsSync(opts.file) && fs.statSync(opts.file).size > 0;
  ownerOnly(opts.file);
  const raw = connect(opts.file, opts);
  const db = kyselyOver(raw);
  if (opts.migrate !== false) {
    await migrateWithBackup(db, raw, { file: opts.file, existed, migrations: opts.migrations });
  }
  const commits = groupCommit(db, raw);
  const store: Store = {
    engine: 'sqlite',
    changes: createChangeSignal(),
    db,
    location: opts.file,
    // An in-memory database has no file another connection could open.
    ...(opts.file === ':memory:'
      ? {}
      : { readerSpec: () => ({ engine: 'sqlite' as const, file: opts.file }) }),
    write: commits.write,
    search: sqliteContactSearch(db),
    timeBucket(column: string, unit: TimeUnit): RawBuilder<string> {
      // Stored timestamps are canonical ISO text: the bucket is a prefix of it.
      return unit === 'hour'
        ? sql<string>`substr(${sql.ref(column)}, 1, 13) || ':00:00.000Z'`
        : sql<string>`substr(${sql.ref(column)}, 1, 10) || 'T00:00:00.000Z'`;
    },
    async backupTo(file: string): Promise<void> {
      await raw.backup(file);
    },
    async close(): Promise<void> {
      await commits.finish();
      try {
        raw.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // another process may hold the file; the WAL is still complete and safe
      }
      await db.destroy();
    },
  };
  await applyPendingTotals(store, raw, opts.migrate !== false);
  return store;
}

/**
 * The donors' totals of an import killed before its end: added before anyone reads them, when
 * the store was migrated (a file migrated only part of the way, in the migrator's tests, has
 * no such table). On failure the store is closed.
 */
async function applyPendingTotals(
  store: Store,
  raw: BetterSqlite3.Database,
  migrated: boolean,
): Promise<void> {
  const deltasTable = raw
    .prepare("select 1 from sqlite_master where type = 'table' and name = 'donor_total_deltas'")
    .get();
  if (!migrated || deltasTable === undefined) return;
  try {
    await applyDonorTotalDeltas(store);
  } catch (err) {
    await store.close();
    throw err;
  }
}
