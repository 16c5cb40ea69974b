/**
 * Who did what, carried on to a GiftDesk HQ. Frozen once shipped.
 *
 * `sync_trail_sent`: the history entries this GiftDesk has handed to its HQ (push/trail.ts), one
 * row per entry once HQ confirmed it: a row of `donation_history` or `contact_history` by its id,
 * or who entered a gift, `entered:<donation id>`. An entry without a row here still goes; HQ takes
 * each entry once by its id, so one sent again after an answer that never came changes nothing.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0830-hist-trail-sent';

export function migration(engine: Engine): Migration {
  const ts = engine === 'sqlite' ? 'text' : 'timestamptz';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sync_trail_sent')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('entry_id', 'text', (c) => c.notNull())
        .addColumn('sent_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('sync_trail_sent_pk', ['account_id', 'entry_id'])
        .execute();
    },
  };
}
