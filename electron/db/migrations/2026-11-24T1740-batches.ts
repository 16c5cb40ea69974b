/**
 * Gift-entry batches: a named stack of gifts (the checks of one table, one evening's cash)
 * with its defaults and the count and total the volunteer expects, so the app can say when
 * they do not match. A donation may belong to one batch (`donations.batch_id`, set at
 * create). Batches are local bookkeeping: HQ never sees them. Frozen once shipped.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-24T1740-batches';

export function migration(engine: Engine): Migration {
  const isSqlite = engine === 'sqlite';
  const bigint = isSqlite ? 'integer' : 'bigint';
  const ts = isSqlite ? 'text' : 'timestamptz';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('batches')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('campaign_id', 'text', (c) => c.references('campaigns.id'))
        .addColumn('committee_id', 'text', (c) => c.references('committees.id'))
        .addColumn('donation_account_id', 'text', (c) => c.references('donation_accounts.id'))
        .addColumn('payment_method', 'text')
        .addColumn('batch_date', 'text')
        .addColumn('expected_count', 'integer')
        .addColumn('expected_cents', bigint)
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('closed_at', ts)
        .execute();
      await db.schema
        .createIndex('batches_account_created')
        .on('batches')
        .columns(['account_id', 'created_at'])
        .execute();
      // Nullable, no default: metadata only on both engines, whatever the table's size.
      await db.schema
        .alterTable('donations')
        .addColumn('batch_id', 'text', (c) => c.references('batches.id').onDelete('set null'))
        .execute();
      // Partial: gifts outside a batch (imports, scripts) cost the index nothing.
      await db.schema
        .createIndex('donations_batch')
        .on('donations')
        .columns(['batch_id', 'created_at'])
        .where(sql.ref('batch_id'), 'is not', null)
        .execute();
    },
  };
}
