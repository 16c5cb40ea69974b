/**
 * HQ mode: the same Store over PostgreSQL through Kysely's pg dialect. Money stays integer
 * cents (bigint, read back as numbers: every amount fits in 2^53), timestamps are timestamptz
 * read back as ISO 8601 UTC strings, so the domain sees exactly what it sees on SQLite.
 * Server processes are stateless: several can serve one database. This file opens the pool
 * and makes the store; its contact search is search.ts.
 */
import { CamelCasePlugin, Kysely, PostgresDialect, type RawBuilder, sql } from 'kysely';
import { createChangeSignal } from '../change-signal.ts';
import pg from 'pg';
import { createChangeChannel } from './change-channel.ts';
import { namedStatementPool } from './named-statements.ts';
import { migrateToLatest } from '../migrate.ts';
import type { Database } from '../schema.ts';
import type { Db, Store, TimeUnit } from '../store.ts';
import { postgresContactSearch } from './search.ts';

const OID = { int8: 20, numeric: 1700, timestamptz: 1184, timestamp: 1114 } as const;

/** timestamptz text (session TimeZone is UTC) → `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
export function pgTimestampToIso(value: string): string {
  const normalised = value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  return new Date(normalised).toISOString();
}

const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === OID.int8 || oid === OID.numeric) return (v: string) => Number(v);
    if (oid === OID.timestamptz || oid === OID.timestamp) return pgTimestampToIso;
    return pg.types.getTypeParser(oid, format ?? 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** The URL without its password, for logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparseable url)';
  }
}

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock

export interface PostgresOptions {
  url: string;
  poolSize?: number;
  migrate?: boolean;
  /**
   * Send the request path's few marked statements as named prepared statements
   * (named-statements.ts). Default: on, unless GIFTDESK_PG_NAMED_STATEMENTS=off.
   */
  namedStatements?: boolean;
}

/**
 * A read-only handle of one connection, for a worker thread (reader.ts): the same types and
 * names as the store's, no migrations, no change channel, no named statements.
 */
export function openPostgresReader(url: string): { db: Db; close(): Promise<void> } {
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    types: typeParsers,
    options: '-c TimeZone=UTC -c default_transaction_read_only=on',
  });
  pool.on('error', () => undefined);
  const db: Db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
  return { db, close: () => db.destroy() };
}

export async function openPostgres(opts: PostgresOptions): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.poolSize ?? 10,
    types: typeParsers,
    options: '-c TimeZone=UTC',
  });
  // An idle connection the server drops (restart, admin shutdown, a network blip) makes the
  // pool emit 'error'; pg discards that client and opens a new one for the next query. With
  // no listener the event would be an uncaught exception and take the whole server down.
  pool.on('error', () => undefined);
  const named = namedStatementPool(pool, {
    enabled: opts.namedStatements ?? process.env.GIFTDESK_PG_NAMED_STATEMENTS !== 'off',
    onRefused: (code) =>
      process.emitWarning(
        `PostgreSQL (or a pooler in front of it) refused a named prepared statement (${code}); this server sends every statement unnamed from now on`,
      ),
  });
  const db: Db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: named }),
    plugins: [new CamelCasePlugin()],
  });
  try {
    await sql`select 1`.execute(db);
    if (opts.migrate !== false)
      await migrateToLatest(db as unknown as Kysely<unknown>, { engine: 'postgres' });
  } catch (err) {
    await db.destroy();
    throw err;
  }
  let closed = false;
  // The other servers on this database hear of this one's writes, and it of theirs.
  const channel = createChangeChannel({ url: opts.url, pool });
  const changes = createChangeSignal({ publish: (note) => channel.publish(note) });
  await channel.listen(changes);

  return {
    engine: 'postgres',
    db,
    changes,
    location: redactUrl(opts.url),
    readerSpec: () => ({ engine: 'postgres', url: opts.url }),
    async write<T>(fn: (trx: Db) => Promise<T>): Promise<T> {
      if (closed) throw new Error('database is closed');
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction().execute(fn);
        } catch (err) {
          const code = (err as { code?: unknown }).code;
          if (attempt < 5 && typeof code === 'string' && RETRYABLE.has(code)) continue;
          throw err;
        }
      }
    },
    search: postgresContactSearch(db),
    timeBucket(column: string, unit: TimeUnit): RawBuilder<string> {
      // timestamptz, truncated in UTC; read back as canonical ISO text by the type parser.
      return unit === 'hour'
        ? sql<string>`date_trunc('hour', ${sql.ref(column)}, 'UTC')`
        : sql<string>`date_trunc('day', ${sql.ref(column)}, 'UTC')`;
    },
    async backupTo(): Promise<void> {
      throw new Error('Back up a PostgreSQL database with pg_dump (see docs/hq.md, "Running HQ")');
    },
    async close(): Promise<void> {
      closed = true;
      await channel.close();
      await db.destroy();
    },
  };
}
