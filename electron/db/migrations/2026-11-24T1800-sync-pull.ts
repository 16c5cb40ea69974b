/**
 * Pulls from HQ (electron/sync/pull/pull.ts): one row per run, with its progress (pages done of
 * pages total), where to resume after a crash, its counts and its outcome. A heartbeat lets a
 * second process see that a run is alive (and not start another) or that it died (and resume
 * it). Frozen once shipped.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-24T1800-sync-pull';

export function migration(engine: Engine): Migration {
  const ts = engine === 'sqlite' ? 'text' : 'timestamptz';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sync_pull_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        // running | done | failed
        .addColumn('status', 'text', (c) => c.notNull())
        // contacts | reference (what it is doing now)
        .addColumn('phase', 'text', (c) => c.notNull())
        .addColumn('pages_done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('pages_total', 'integer')
        // the offset of the next contact page to read (resume point)
        .addColumn('next_offset', 'integer', (c) => c.notNull().defaultTo(0))
        // JSON object of counts: created, updated, linked, kept, unchanged, skipped, …
        .addColumn('counts', 'text', (c) => c.notNull())
        // JSON array of notes for the user (a record HQ sent that could not be stored, …)
        .addColumn('notes', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('started_at', ts, (c) => c.notNull())
        .addColumn('heartbeat_at', ts, (c) => c.notNull())
        .addColumn('finished_at', ts)
        .execute();
      await db.schema
        .createIndex('sync_pull_runs_account')
        .on('sync_pull_runs')
        .columns(['account_id', 'started_at'])
        .execute();
    },
  };
}
