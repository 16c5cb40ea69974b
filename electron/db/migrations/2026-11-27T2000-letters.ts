/**
 * Letters, receipts and year-end statements: what an account's letters say, and every print
 * run with exactly the gifts it covered. Local bookkeeping: never in the outbox (the marks a
 * run sets on gifts are, through the gifts' own change log). Frozen once shipped.
 *
 * - `letter_settings`: one row per account once edited: the organisation's kind (a charity's
 *   letters carry a written acknowledgment; a political committee's say contributions are not
 *   tax deductible), its name and address, and who signs.
 * - `letter_templates`: an account's own wording per kind of document (receipt, thank-you,
 *   year-end); a kind with no row uses the default for the organisation's kind.
 * - `letter_runs`: one print run: its kind, the choice it was made from (JSON), how far
 *   rendering got, the PDF it wrote (a path inside the data folder) and when it was marked sent.
 * - `letter_run_gifts`: the gifts a run covered, so "mark as sent" marks exactly those.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-27T2000-letters';

export function migration(engine: Engine): Migration {
  const isSqlite = engine === 'sqlite';
  const bigint = isSqlite ? 'integer' : 'bigint';
  const ts = isSqlite ? 'text' : 'timestamptz';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('letter_settings')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('org_kind', 'text', (c) => c.notNull().defaultTo('charity'))
        .addColumn('organization_name', 'text')
        .addColumn('organization_address', 'text')
        .addColumn('signer_name', 'text')
        .addColumn('signer_title', 'text')
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('letter_templates')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('heading', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('letter_templates_pk', ['account_id', 'kind'])
        .execute();
      await db.schema
        .createTable('letter_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('filters', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('documents', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('rendered', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('gifts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('total_cents', bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('file', 'text')
        .addColumn('error', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('finished_at', ts)
        .addColumn('marked_sent_at', ts)
        .execute();
      await db.schema
        .createIndex('letter_runs_account')
        .on('letter_runs')
        .columns(['account_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('letter_run_gifts')
        .addColumn('run_id', 'text', (c) => c.notNull().references('letter_runs.id').onDelete('cascade'))
        .addColumn('donation_id', 'text', (c) => c.notNull().references('donations.id').onDelete('cascade'))
        .addColumn('contact_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('letter_run_gifts_pk', ['run_id', 'donation_id'])
        .execute();
    },
  };
}
