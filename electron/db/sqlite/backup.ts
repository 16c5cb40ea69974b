/**
 * Migrating the SQLite file with a backup first: a file that held data is copied (VACUUM
 * INTO, 0600) before the first pending migration runs, and a migration that fails names the
 * copy. A copy that cannot be written stops the start before anything is migrated.
 */
import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { isMigrationFailure, migrateToLatest, withBackup } from '../migrate.ts';
import type { NamedMigration } from '../migration-types.ts';
import type { Db } from '../store.ts';

const MiB = 1024 * 1024;
const inMiB = (bytes: number): string => (bytes / MiB).toFixed(bytes < 10 * MiB ? 1 : 0);

/**
 * Brings the schema up to date, backing the file up first when it `existed` (held data before
 * this start) and a migration is pending. On failure the handle is closed (the file is as it
 * was before the migration that failed) and the error names the backup when one was taken.
 */
export async function migrateWithBackup(
  db: Db,
  raw: BetterSqlite3.Database,
  opts: { file: string; existed: boolean; migrations?: readonly NamedMigration[] },
): Promise<void> {
  let backup: string | null = null;
  try {
    await migrateToLatest(db as unknown as Kysely<unknown>, {
      engine: 'sqlite',
      migrations: opts.migrations,
      beforeMigrating: (pending) => {
        if (!opts.existed) return;
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        const copy = `${opts.file}.before-${pending[0]}.${stamp}.bak`;
        backupBeforeMigrating(raw, copy);
        backup = copy;
      },
    });
  } catch (err) {
    await db.destroy(); // the file stays as it was; do not leave it open
    throw backup !== null && isMigrationFailure(err) ? withBackup(err, backup) : err;
  }
}

/**
 * The copy taken before a migration (VACUUM INTO: a compact, consistent copy). When it cannot
 * be written (a full disk, a folder that refuses it) the partial file is removed and the
 * error says so: which step, where, and how much room it needs. Nothing was migrated then.
 */
function backupBeforeMigrating(raw: BetterSqlite3.Database, backup: string): void {
  const pageSize = Number(raw.pragma('page_size', { simple: true }));
  const used =
    (Number(raw.pragma('page_count', { simple: true })) -
      Number(raw.pragma('freelist_count', { simple: true }))) *
    pageSize;
  const dir = path.dirname(backup);
  let free: number | null = null;
  try {
    const st = fs.statfsSync(dir);
    free = st.bavail * st.bsize;
  } catch {
    free = null;
  }
  const refuse = (why: string, cause?: unknown): Error =>
    new Error(
      `The backup taken before updating the database failed: ${why}. It was being written to ${backup} and needs about ${inMiB(used)} MiB free in ${dir}` +
        `${free !== null ? ` (${inMiB(free)} MiB free now)` : ''}. Nothing was changed: the database is as it was. Free some space (or move the data folder) and start GiftDesk again.`,
      cause === undefined ? undefined : { cause },
    );
  if (free !== null && free < used) throw refuse('there is not enough free space');
  try {
    // VACUUM INTO takes an empty file: made here, 0600, so the copy is never readable to others.
    fs.closeSync(fs.openSync(backup, 'wx', 0o600));
    raw.prepare('vacuum into ?').run(backup);
  } catch (err) {
    fs.rmSync(backup, { force: true }); // never leave a partial backup that looks like a real one
    throw refuse((err as Error).message, err);
  }
}
