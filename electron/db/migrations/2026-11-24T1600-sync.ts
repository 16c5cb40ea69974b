/**
 * Sync to HQ: the state the push engine, pull and the app share. Frozen once shipped.
 *
 * - change_log (the outbox, written by every domain write) gains two columns:
 *   `synced_at` — when the change was done with (pushed, or coalesced into nothing, or not
 *   pushable by nature); null while it still has to go. `attempt_id` — the push attempt the
 *   change went into; set in the database before the request leaves. Only the changes
 *   carrying an attempt's id are marked done when that attempt is applied.
 * - sync_remotes: the HQ a local account pushes to (one per account): URL, key id, the secret
 *   encrypted (secret-box.ts; never the plain secret), the remote account id, rate, schedule,
 *   and what the app shows (last success, last error, pause, current rate, done count).
 * - sync_links: the id map. A local record (contact, donation, campaign, committee, donation
 *   account) ↔ its id at HQ. Written in the same transaction as the answer that told us the
 *   remote id (push), or by pull / email match / the user (reference data).
 * - sync_items: one row per pushed record (contact or donation) with its push state: idle,
 *   in_flight (a request may be out), unknown (the outcome is not known: reconcile before
 *   anything else), attention (parked for a person, with the reason). Also the backoff
 *   timer, the request body of the attempt (what reconciliation looks for) and, for contacts,
 *   the state HQ has as of the last applied push (the base of C1 diffs).
 * - sync_lease: one row per database: the engine process allowed to push (holder, expiry).
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-24T1600-sync';

export function migration(engine: Engine): Migration {
  const isSqlite = engine === 'sqlite';
  const ts = isSqlite ? 'text' : 'timestamptz';
  const bigint = isSqlite ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<unknown>) {
      const s = db.schema;
      await s.alterTable('change_log').addColumn('synced_at', ts).execute();
      await s.alterTable('change_log').addColumn('attempt_id', 'text').execute();
      // The queue: what is still to push (push = 1, not done), per account, in order. Small once drained.
      await s
        .createIndex('change_log_unsynced')
        .on('change_log')
        .columns(['account_id', 'seq'])
        .where((eb) => eb.and([eb(sql.ref('push'), '=', 1), eb(sql.ref('synced_at'), 'is', null)]))
        .execute();

      await s
        .createTable('sync_remotes')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('base_url', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('remote_account_id', 'text', (c) => c.notNull())
        .addColumn('rate_per_second', isSqlite ? 'real' : 'double precision', (c) => c.notNull().defaultTo(5))
        .addColumn('schedule_seconds', 'integer', (c) => c.notNull().defaultTo(60))
        .addColumn('email_match', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('last_success_at', ts)
        .addColumn('last_attempt_at', ts)
        .addColumn('last_error', 'text')
        .addColumn('paused_until', ts)
        .addColumn('current_rate', isSqlite ? 'real' : 'double precision')
        .addColumn('done_count', bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();

      await s
        .createTable('sync_links')
        .addColumn('entity_type', 'text', (c) => c.notNull())
        .addColumn('local_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('remote_id', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('linked_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('sync_links_pk', ['entity_type', 'local_id'])
        .addUniqueConstraint('sync_links_remote', ['account_id', 'entity_type', 'remote_id'])
        .execute();

      await s
        .createTable('sync_items')
        .addColumn('entity_type', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('lane_id', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('op', 'text')
        .addColumn('attempt_id', 'text')
        .addColumn('attempt_at', ts)
        .addColumn('attempt_body', 'text')
        .addColumn('first_attempt_at', ts)
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_try_at', ts)
        .addColumn('last_error', 'text')
        .addColumn('attention_code', 'text')
        .addColumn('attention_reason', 'text')
        .addColumn('attention_status', 'integer')
        .addColumn('attention_at', ts)
        .addColumn('pushed_state', 'text')
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('sync_items_pk', ['entity_type', 'entity_id'])
        .execute();
      await s
        .createIndex('sync_items_account_state')
        .on('sync_items')
        .columns(['account_id', 'state'])
        .execute();
      await s.createIndex('sync_items_lane').on('sync_items').columns(['lane_id']).execute();

      await s
        .createTable('sync_lease')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('acquired_at', ts, (c) => c.notNull())
        .addColumn('renewed_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .execute();
    },
  };
}
