/**
 * Balancing a batch: what the person counting the cash box and the checks found, against what
 * was entered, recorded when the batch is closed. Local bookkeeping like the batch itself:
 * never in the outbox, never pushed. Frozen once shipped.
 *
 * - `batch_counts`: one row per count (a batch reopened and closed again is counted again;
 *   the newest is the batch's): who counted, when, their note, and the entered and counted
 *   totals with the difference (counted − entered, in cents; 0 when it balanced).
 * - `batch_count_lines`: per payment method, the count and total entered (as they stood when
 *   the batch was closed) and what was counted (the count where one was typed — cash is
 *   counted as money, not as gifts — and the total).
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-27T1700-batch-count';

export function migration(engine: Engine): Migration {
  const isSqlite = engine === 'sqlite';
  const bigint = isSqlite ? 'integer' : 'bigint';
  const ts = isSqlite ? 'text' : 'timestamptz';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('batch_counts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('batch_id', 'text', (c) => c.notNull().references('batches.id').onDelete('cascade'))
        .addColumn('counted_by', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('entered_count', 'integer', (c) => c.notNull())
        .addColumn('entered_cents', bigint, (c) => c.notNull())
        .addColumn('counted_cents', bigint, (c) => c.notNull())
        .addColumn('difference_cents', bigint, (c) => c.notNull())
        .addColumn('counted_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('batch_counts_batch')
        .on('batch_counts')
        .columns(['batch_id', 'counted_at'])
        .execute();
      await db.schema
        .createTable('batch_count_lines')
        .addColumn('count_id', 'text', (c) => c.notNull().references('batch_counts.id').onDelete('cascade'))
        .addColumn('payment_method', 'text', (c) => c.notNull())
        .addColumn('entered_count', 'integer', (c) => c.notNull())
        .addColumn('entered_cents', bigint, (c) => c.notNull())
        .addColumn('counted_count', 'integer')
        .addColumn('counted_cents', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('batch_count_lines_pk', ['count_id', 'payment_method'])
        .execute();
    },
  };
}
