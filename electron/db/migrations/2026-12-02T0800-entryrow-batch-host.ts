/**
 * The host a batch's gifts are raised by, kept with the batch (`batches.raised_by_contact_id`):
 * the entry row's "Raised by" stays with the batch when it is opened again, in another window
 * or on another day. Null: no host. Batches made before this migration have none.
 *
 * Frozen once shipped.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0800-entryrow-batch-host';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('batches').addColumn('raised_by_contact_id', 'text').execute();
    },
  };
}
