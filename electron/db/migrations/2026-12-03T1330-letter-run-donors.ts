/**
 * A run's donors, each once, with the name it was put in letter order by. Frozen once shipped.
 *
 * `letter_run_donors`: one row per donor of a run's recorded gifts, written with the gifts
 * (letter_run_gifts), keyed by (run, contact). The name is the one the run sorts by (the
 * contact's full name as the run recorded it), so that the run can read its letter order a page
 * at a time, in several passes, and every pass sees the same names even if a contact is renamed
 * while the run prints. Local bookkeeping, as letter_run_gifts.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-03T1330-letter-run-donors';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('letter_run_donors')
        .addColumn('run_id', 'text', (c) => c.notNull().references('letter_runs.id').onDelete('cascade'))
        .addColumn('contact_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('letter_run_donors_pk', ['run_id', 'contact_id'])
        .execute();
    },
  };
}
