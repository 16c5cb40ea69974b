/**
 * Runs pending migrations, each in a transaction of its own together with its record, so a
 * failure halfway leaves the database exactly as it was before that migration; the error then
 * says which migration failed and what it said (`migration_failed`).
 * (Kysely's Migrator runs SQLite migrations outside a transaction; this one does not.)
 *
 * A database a newer GiftDesk has updated (it records a migration dated after this version's
 * newest) is refused before anything is written (`database_newer`): this version's code does
 * not know the newer schema's rules and could write rows the newer version reads wrongly.
 * A recorded name this version does not know but dated before its newest (a migration renamed
 * before release) is left alone, as before.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, NamedMigration } from './migration-types.ts';
import { MIGRATIONS } from './migrations/index.ts';

const TABLE = 'giftdesk_migrations';
/** The PostgreSQL advisory lock (transaction-scoped) the migrations take turns on. */
const MIGRATION_LOCK = 727274;

export interface MigrateOptions {
  engine: Engine;
  /** Called once, before the first pending migration, when the database already has data. */
  beforeMigrating?: (pending: string[]) => Promise<void> | void;
  /** The migrations to apply (tests of the migrator); the app's own list by default. */
  migrations?: readonly NamedMigration[];
}

export async function pendingMigrations(
  db: Kysely<unknown>,
  migrations: readonly NamedMigration[] = MIGRATIONS,
): Promise<string[]> {
  await sql`create table if not exists ${sql.table(TABLE)} (
      name text primary key, applied_at text not null)`.execute(db);
  const done = await sql<{ name: string }>`select name from ${sql.table(TABLE)}`.execute(db);
  const applied = new Set(done.rows.map((r) => r.name));
  const known = new Set(migrations.map((m) => m.name));
  const newest = migrations.reduce((max, m) => (m.name > max ? m.name : max), '');
  const newer = [...applied].filter((name) => !known.has(name) && name > newest).sort();
  if (newer.length > 0) throw databaseNewer(newer, newest);
  return migrations.filter((m) => !applied.has(m.name)).map((m) => m.name);
}

/** A database updated by a newer GiftDesk than this one. */
function databaseNewer(newer: string[], newest: string): Error & { code: 'database_newer' } {
  return Object.assign(
    new Error(
      `This database was updated by a newer version of GiftDesk: it records the update ${newer.at(-1)}, ` +
        `which this version does not know (its newest is ${newest}). This version does not open it, so that ` +
        'nothing is written the newer version would read wrongly; nothing was changed. Use that newer version ' +
        '(or a later one) with this database.',
    ),
    { code: 'database_newer' as const },
  );
}

export async function migrateToLatest(
  db: Kysely<unknown>,
  { engine, beforeMigrating, migrations = MIGRATIONS }: MigrateOptions,
): Promise<string[]> {
  // Servers started together on a fresh PostgreSQL database: the migrations' own table is made
  // under the same lock as the migrations (two CREATE TABLE IF NOT EXISTS at once can both
  // try to make it, and one then fails on PostgreSQL's catalog).
  if (engine === 'postgres')
    await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
      await sql`create table if not exists ${sql.table(TABLE)} (
          name text primary key, applied_at text not null)`.execute(trx);
    });
  const pending = await pendingMigrations(db, migrations);
  if (pending.length === 0) return [];
  const appliedBefore = migrations.length - pending.length;
  if (appliedBefore > 0 && beforeMigrating) await beforeMigrating(pending);
  const ran: string[] = [];
  for (const m of migrations) {
    if (!pending.includes(m.name)) continue;
    await db.connection().execute(async (conn) => {
      await sql.raw(engine === 'sqlite' ? 'begin immediate' : 'begin').execute(conn);
      try {
        // Every server on the database migrates one step at a time, each step once (`again`).
        if (engine === 'postgres') await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(conn);
        const again = await sql<{ name: string }>`select name from ${sql.table(TABLE)}
            where name = ${m.name}`.execute(conn);
        if (again.rows.length === 0) {
          await m.migration(engine).up(conn);
          await sql`insert into ${sql.table(TABLE)} (name, applied_at)
              values (${m.name}, ${new Date().toISOString()})`.execute(conn);
          ran.push(m.name);
        }
        await sql`commit`.execute(conn);
      } catch (err) {
        await sql`rollback`.execute(conn);
        throw migrationFailed(m.name, ran, err);
      }
    });
  }
  return ran;
}

export type MigrationFailure = Error & {
  code: 'migration_failed';
  /** The step that failed (rolled back). */
  migration: string;
  /** The steps before it in this run, applied. */
  applied: string[];
  /** SQLite: the copy of the file taken before this run. */
  backup?: string;
};

export function isMigrationFailure(err: unknown): err is MigrationFailure {
  return err instanceof Error && 'code' in err && err.code === 'migration_failed';
}

/** The error of a migration that failed and was rolled back; those before it in this run stay applied. */
function migrationFailed(name: string, appliedThisRun: string[], cause: unknown): MigrationFailure {
  const why = cause instanceof Error ? cause.message : String(cause);
  const earlier =
    appliedThisRun.length > 0
      ? ` The update steps before it were applied: ${appliedThisRun.join(', ')}.`
      : '';
  return Object.assign(
    new Error(
      `Updating the database failed at step ${name}: ${why}. That step was undone: the database is as it was before it.${earlier}`,
      { cause },
    ),
    { code: 'migration_failed' as const, migration: name, applied: [...appliedThisRun] },
  );
}

/** The same failure, saying where the copy taken before the update is. */
export function withBackup(err: MigrationFailure, backup: string): MigrationFailure {
  return Object.assign(
    new Error(`${err.message} A copy of the file from before this update is at ${backup}.`, {
      cause: err.cause,
    }),
    { code: err.code, migration: err.migration, applied: err.applied, backup },
  );
}
