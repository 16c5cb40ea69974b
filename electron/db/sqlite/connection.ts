/**
 * A connection to the SQLite file: better-sqlite3 in WAL mode, synchronous=FULL, foreign keys
 * on, a busy timeout, the page cache and WAL size asked for; and the Kysely handle over it,
 * with its prepared statements cached.
 */
import BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../schema.ts';
import type { Db } from '../store.ts';
import { registerWordTier } from './index-words.ts';

export interface ConnectionOptions {
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
}

/** Opens the file and sets the connection's pragmas. */
export function connect(file: string, opts: ConnectionOptions): BetterSqlite3.Database {
  const raw = new BetterSqlite3(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma(`synchronous = ${opts.synchronous ?? 'FULL'}`);
  raw.pragma('foreign_keys = ON');
  raw.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
  raw.pragma(`cache_size = ${-1024 * Math.max(2, Math.round(opts.cacheMiB ?? 64))}`); // KiB: 64 MiB by default
  raw.pragma('temp_store = MEMORY');
  // The search's own SQL function (a contact's tier for a searched word, told from its texts).
  registerWordTier(raw);
  if (opts.walCheckpointMiB !== undefined) {
    const pageSize = Number(raw.pragma('page_size', { simple: true }));
    raw.pragma(
      `wal_autocheckpoint = ${Math.max(1000, Math.round((opts.walCheckpointMiB * 2 ** 20) / pageSize))}`,
    );
  }
  return raw;
}

/** The Kysely handle over the connection: camelCase names, statements cached. */
export function kyselyOver(raw: BetterSqlite3.Database): Db {
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(raw) }),
    plugins: [new CamelCasePlugin()],
  });
}

/**
 * A statement's bound LIMIT written so SQLite does not plan with its value: `limit ?` becomes
 * `limit +?`. SQLite (3.53 here) reads a LIMIT that is a bare parameter while planning
 * (computeLimitRegisters), which marks the statement to be prepared again whenever that
 * parameter is bound, and every run binds it: a search's statements were prepared anew on
 * every call, 0.2–1.2 ms each (`jane smith` by relevance: 1.15 ms of its page statement,
 * 1,000,000 contacts). A unary plus is not a bare parameter, so the plan is made once and the
 * value still bound; the rows are the same. OFFSET is not read so. The rewrite is of the text:
 * it relies on no SQL the app writes holding `limit ?` inside a quoted string, which holds as
 * values are always bound, never written into the text.
 */
export function limitNotPlanned(source: string): string {
  return source.replace(/\b(limit) \?/gi, '$1 +?');
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
            stmt = target.prepare(limitNotPlanned(source));
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
