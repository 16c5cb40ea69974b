/**
 * Which engine a start uses: PostgreSQL when a postgres:// URL is given (HQ mode), else the
 * embedded SQLite file in the data folder; each engine's own opening is in its folder.
 */
import { databaseFile } from '../paths.ts';
import type { NamedMigration } from './migration-types.ts';
import { openPostgres } from './postgres/open.ts';
import { openSqlite } from './sqlite/open.ts';
import type { Store } from './store.ts';

export interface OpenOptions {
  dataDir: string;
  /** postgres://… (HQ mode); when absent the embedded SQLite file in dataDir is used. */
  databaseUrl?: string;
  /** SQLite's page cache for this connection, MiB (a bulk import keeps the pages it updates). */
  cacheMiB?: number;
  /** SQLite's WAL size before it is copied into the database (see SqliteOptions). */
  walCheckpointMiB?: number;
  /** SQLite only; FULL (the default) syncs every commit. Tests whose subject is not durability may use NORMAL. */
  synchronous?: 'FULL' | 'NORMAL';
  /** SQLite only: the migrations to apply (tests of a failing one); the app's own list by default. */
  migrations?: readonly NamedMigration[];
}

/** Opens the store the options name and brings its schema up to date. */
export async function openStore(opts: OpenOptions): Promise<Store> {
  if (opts.databaseUrl) {
    if (!/^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
      throw new Error('--database-url must be a postgres:// URL');
    }
    return openPostgres({ url: opts.databaseUrl });
  }
  return openSqlite({
    file: databaseFile(opts.dataDir),
    cacheMiB: opts.cacheMiB,
    walCheckpointMiB: opts.walCheckpointMiB,
    ...(opts.synchronous ? { synchronous: opts.synchronous } : {}),
    ...(opts.migrations ? { migrations: opts.migrations } : {}),
  });
}
