/**
 * The embedded engine: one SQLite file through better-sqlite3, WAL, synchronous=FULL,
 * foreign keys on, a busy timeout. Writes are group-committed: requests that arrive while a
 * commit is being synced share the next commit, each inside its own savepoint.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, CompiledQuery, Kysely, SqliteDialect, type RawBuilder, sql } from 'kysely';
import { applyDonorTotalDeltas } from '../donor-total-deltas.ts';
import { isMigrationFailure, migrateToLatest, withBackup } from '../migrate.ts';
import type { NamedMigration } from '../migration-types.ts';
import type { Database } from '../schema.ts';
import type { Db, Store, TimeUnit, WriteMode } from '../store.ts';
import { sqliteContactSearch } from './search.ts';

export interface SqliteOptions {
  file: string;
  /** Skip migrations (tests of the migrator itself). */
  migrate?: boolean;
  /** Milliseconds to wait for another process's write lock. */
  busyTimeoutMs?: number;
  /** Page cache, MiB (64 by default). */
  cacheMiB?: number;
  /**
   * How large the WAL grows before a commit copies it into the database file (SQLite's
   * default: 1000 pages, ~4 MiB). A bulk import's chunks rewrite the same pages (donors'
   * rows, index pages) commit after commit; a larger WAL copies each page once per many
   * commits instead of once per commit. Durability is the same: every commit is synced.
   */
  walCheckpointMiB?: number;
  /** Durability: FULL by default; tests of other things never lower it silently. */
  synchronous?: 'FULL' | 'NORMAL';
  /** The migrations to apply (tests of the migrator); the app's own list by default. */
  migrations?: readonly NamedMigration[];
}

/** better-sqlite3 prepares a statement per call in Kysely's driver; cache them instead. */
function withStatementCache(raw: BetterSqlite3.Database, size = 500): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return new Proxy(raw, {
    get(target, prop, receiver) {
      if (prop === 'prepare') {
        return (source: string) => {
          let stmt = cache.get(source);
          if (stmt === undefined) {
            stmt = target.prepare(source);
            if (cache.size >= size) cache.delete(cache.keys().next().value as string);
            cache.set(source, stmt);
          }
          return stmt;
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Donor data is for the user who runs GiftDesk only: the data folder 0700, the database file
 * 0600 (SQLite gives its -wal and -shm files the database file's mode), backups 0600. A folder
 * or file made readable to others (an older version, a copy) is tightened. A folder shared by
 * design is left as it is — one with the sticky bit (/tmp, where `--data-dir /tmp` once made
 * every other user's programs fail to reach their own files) or another user's — and the
 * files in it are still 0600. POSIX only: on Windows the per-user app-data folder is private
 * already and modes mean little.
 */
function ownerOnly(file: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const folder = fs.statSync(dir);
  const shared =
    (folder.mode & 0o1000) !== 0 || (process.getuid !== undefined && folder.uid !== process.getuid());
  if (!shared && (folder.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  fs.closeSync(fs.openSync(file, 'a', 0o600)); // created 0600 before SQLite opens it
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((fs.statSync(f).mode & 0o077) !== 0) fs.chmodSync(f, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

const MiB = 1024 * 1024;
const inMiB = (bytes: number): string => (bytes / MiB).toFixed(bytes < 10 * MiB ? 1 : 0);

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

export async function openSqlite(opts: SqliteOptions): Promise<Store> {
  const existed = fs.existsSync(opts.file) && fs.statSync(opts.file).size > 0;
  ownerOnly(opts.file);
  const raw = new BetterSqlite3(opts.file);
  raw.pragma('journal_mode = WAL');
  raw.pragma(`synchronous = ${opts.synchronous ?? 'FULL'}`);
  raw.pragma('foreign_keys = ON');
  raw.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
  raw.pragma(`cache_size = ${-1024 * Math.max(2, Math.round(opts.cacheMiB ?? 64))}`); // KiB: 64 MiB by default
  raw.pragma('temp_store = MEMORY');
  if (opts.walCheckpointMiB !== undefined) {
    const pageSize = Number(raw.pragma('page_size', { simple: true }));
    raw.pragma(
      `wal_autocheckpoint = ${Math.max(1000, Math.round((opts.walCheckpointMiB * 2 ** 20) / pageSize))}`,
    );
  }

  const db: Db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(raw) }),
    plugins: [new CamelCasePlugin()],
  });

  if (opts.migrate !== false) {
    let backup: string | null = null;
    try {
      await migrateToLatest(db as unknown as Kysely<unknown>, {
        engine: 'sqlite',
        migrations: opts.migrations,
        beforeMigrating: (pending) => {
          if (!existed) return;
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

  interface Pending {
    fn: (trx: Db) => Promise<unknown>;
    resolve: (v: unknown) => void;
    reject: (e: unknown) => void;
    bulk: boolean;
  }
  // The group commit's own statements, compiled once (each is run for every write).
  const stmt = {
    begin: CompiledQuery.raw('begin immediate'),
    commit: CompiledQuery.raw('commit'),
    rollback: CompiledQuery.raw('rollback'),
    savepoint: CompiledQuery.raw('savepoint gd_write'),
    release: CompiledQuery.raw('release gd_write'),
    rollbackTo: CompiledQuery.raw('rollback to gd_write'),
  };
  let queue: Pending[] = [];
  let flushing: Promise<void> | null = null;
  let closed = false;

  /** A bulk write: a transaction of its own, no savepoint (all of it or none of it). */
  async function runAlone(item: Pending): Promise<void> {
    let value: unknown;
    try {
      await db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          value = await item.fn(conn);
          await sql`commit`.execute(conn);
        } catch (err) {
          if (raw.inTransaction) await sql`rollback`.execute(conn);
          throw err;
        }
      });
    } catch (err) {
      item.reject(err);
      return;
    }
    item.resolve(value);
  }

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      if (queue[0]!.bulk) {
        await runAlone(queue.shift()!);
        continue;
      }
      // The group: every item up to the next bulk write.
      const cut = queue.findIndex((item) => item.bulk);
      const batch = cut < 0 ? queue : queue.slice(0, cut);
      queue = cut < 0 ? [] : queue.slice(cut);
      const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
      try {
        await db.connection().execute(async (conn) => {
          await conn.executeQuery(stmt.begin);
          try {
            for (const item of batch) {
              await conn.executeQuery(stmt.savepoint);
              try {
                const value = await item.fn(conn);
                await conn.executeQuery(stmt.release);
                outcomes.push({ ok: true, value });
              } catch (error) {
                // Disk full or an I/O error can make SQLite roll the whole transaction back
                // by itself: then nothing in this batch was saved, and every item is told so.
                if (!raw.inTransaction) throw error;
                await conn.executeQuery(stmt.rollbackTo);
                await conn.executeQuery(stmt.release);
                outcomes.push({ ok: false, error });
              }
            }
            await conn.executeQuery(stmt.commit);
          } catch (err) {
            if (raw.inTransaction) await conn.executeQuery(stmt.rollback);
            throw err;
          }
        });
      } catch (err) {
        // The commit itself failed (disk full, I/O error): nothing in the batch was saved.
        for (const item of batch) item.reject(err);
        continue;
      }
      batch.forEach((item, i) => {
        const o = outcomes[i];
        if (o?.ok) item.resolve(o.value);
        else item.reject(o?.error);
      });
    }
  }

  function schedule(): void {
    if (flushing) return;
    flushing = new Promise<void>((done) => setImmediate(done)).then(flush).finally(() => {
      flushing = null;
      if (queue.length > 0) schedule();
    });
  }

  const store: Store = {
    engine: 'sqlite',
    db,
    location: opts.file,
    write<T>(fn: (trx: Db) => Promise<T>, mode?: WriteMode): Promise<T> {
      if (closed) return Promise.reject(new Error('database is closed'));
      return new Promise<T>((resolve, reject) => {
        queue.push({ fn, resolve: resolve as (v: unknown) => void, reject, bulk: mode?.bulk === true });
        schedule();
      });
    },
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
      closed = true;
      while (flushing) await flushing;
      try {
        raw.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // another process may hold the file; the WAL is still complete and safe
      }
      await db.destroy();
    },
  };
  // The donors' totals of an import killed before its end: added before anyone reads them
  // (a file migrated only part of the way, in the migrator's tests, has no such table).
  const deltasTable = raw
    .prepare("select 1 from sqlite_master where type = 'table' and name = 'donor_total_deltas'")
    .get();
  if (opts.migrate !== false && deltasTable !== undefined) {
    try {
      await applyDonorTotalDeltas(store);
    } catch (err) {
      await store.close();
      throw err;
    }
  }
  return store;
}
