/**
 * What several HQ servers on one database share, that a single process kept in memory.
 * Frozen once shipped.
 *
 * - `rate_buckets`: the per-key (or per-address) token buckets of the API's rate limit, one row
 *   per bucket (`bucket`: its set and key, e.g. `api:key:k_…`), its tokens and when they were
 *   counted (`at_ms`, Unix milliseconds). Only PostgreSQL uses it (server/shared-buckets.ts;
 *   SQLite has one server process, which counts in memory). UNLOGGED on PostgreSQL: a bucket is
 *   not worth a WAL write per request, and after a database crash every bucket starting full is
 *   what a restart of one server did before.
 * - `app_links`: the one-time links that open the app in a browser (`serve --ui`), as the
 *   SHA-256 of the token and when it expires: a link printed by one server opens on any
 *   other, once. Only PostgreSQL uses it (server/stored-one-time-tokens.ts).
 * - `imports.owner`: the process running an import (`host|pid|random`, as `letter_runs.owner`),
 *   so that a server starting on PostgreSQL fails only the imports of a process that is gone,
 *   not another live server's. Null for imports from before.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0820-pgstate-shared-state';

export function migration(engine: Engine): Migration {
  const pg = engine === 'postgres';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rate_buckets')
        .$call((t) => (pg ? t.modifyFront(sql`unlogged`) : t))
        .addColumn('bucket', 'text', (c) => c.primaryKey())
        .addColumn('tokens', pg ? 'double precision' : 'real', (c) => c.notNull())
        .addColumn('at_ms', pg ? 'bigint' : 'integer', (c) => c.notNull())
        .addColumn('allowed', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('app_links')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', pg ? 'timestamptz' : 'text', (c) => c.notNull())
        .execute();
      await db.schema.alterTable('imports').addColumn('owner', 'text').execute();
    },
  };
}
