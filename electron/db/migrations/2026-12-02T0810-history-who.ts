/**
 * Who did what. Frozen once shipped.
 *
 * - `donations.entered_by_user_id`, `entered_by_key_id`, `entered_by_name`: who entered the gift
 *   — the person signed in (their id and their name as it was then), else the key that made the
 *   request (its id; the name null). The station it was typed at is `station_id` already. Null
 *   for a gift from before this (or from an import with no person).
 * - `batches.created_by_user_id`, `created_by_key_id`: who started the batch (a volunteer sees
 *   their own batches).
 * - `batch_counts.by_user_id`, `by_key_id`, `by_name`: who counted the batch (`counted_by` is
 *   the name typed on the count; these say whose session saved it).
 * - `contact_history`: a donor's later changes, one row per change in the transaction of the
 *   change (created, edited, merged), with who and the fields before and after in `detail`
 *   (JSON), as `donation_history` is for a gift; it goes with the donor when the donor is
 *   deleted (a delete removes everything attached).
 * - An index on `donation_history.created_at` for the audit export's window.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0810-history-who';

export function migration(engine: Engine): Migration {
  const ts = engine === 'sqlite' ? 'text' : 'timestamptz';
  return {
    async up(db: Kysely<unknown>) {
      for (const col of ['entered_by_user_id', 'entered_by_key_id', 'entered_by_name'])
        await db.schema.alterTable('donations').addColumn(col, 'text').execute();
      for (const col of ['created_by_user_id', 'created_by_key_id'])
        await db.schema.alterTable('batches').addColumn(col, 'text').execute();
      for (const col of ['by_user_id', 'by_key_id', 'by_name'])
        await db.schema.alterTable('batch_counts').addColumn(col, 'text').execute();
      await db.schema
        .createTable('contact_history')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('contact_id', 'text', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('detail', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('contact_history_contact')
        .on('contact_history')
        .columns(['contact_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('contact_history_account')
        .on('contact_history')
        .columns(['account_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('donation_history_created')
        .on('donation_history')
        .column('created_at')
        .execute();
    },
  };
}
