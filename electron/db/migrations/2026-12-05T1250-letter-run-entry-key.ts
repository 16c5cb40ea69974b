/**
 * A print run started from a window keeps the key the window minted for that try
 * (`letter_runs.entry_key`), unique in its account: the same start tried again after its answer
 * was lost answers the run made the first time, instead of a second run of the same letters
 * (printed and mailed twice). Null for a run started without a key. Frozen once shipped.
 */
import type { Kysely } from 'kysely';
import type { Migration } from '../migration-types.ts';

export const name = '2026-12-05T1250-letter-run-entry-key';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('letter_runs').addColumn('entry_key', 'text').execute();
      // Null keys are distinct on both engines: a run without a key never collides.
      await db.schema
        .createIndex('letter_runs_entry_key')
        .on('letter_runs')
        .columns(['account_id', 'entry_key'])
        .unique()
        .execute();
    },
  };
}
