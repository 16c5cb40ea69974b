/**
 * A batch started from a window keeps the key the window minted for that try
 * (`batches.entry_key`), unique in its account: the same start tried again after its answer
 * was lost (a station's link to its hub that dropped once the batch was made) answers the batch
 * made the first time instead of making a second one, whose expected total the close-out would
 * show as short. Null for a batch started without a key (a script, or from before this).
 * Frozen once shipped.
 */
import type { Kysely } from 'kysely';
import type { Migration } from '../migration-types.ts';

export const name = '2026-12-05T1230-batch-entry-key';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('batches').addColumn('entry_key', 'text').execute();
      // Null keys are distinct on both engines: a batch without a key never collides.
      await db.schema
        .createIndex('batches_entry_key')
        .on('batches')
        .columns(['account_id', 'entry_key'])
        .unique()
        .execute();
    },
  };
}
