/**
 * Thank-you marks and an HQ that does not take them. Frozen once shipped.
 *
 * A gift marked thanked after it reached HQ goes to HQ through GiftDesk's extension route
 * (`POST /donations/thank-you`); an HQ that implements only the donor API has no such route
 * and no donation update at all. Those marks are kept here only, and the sync status says so
 * once for the account instead of parking every gift for a person:
 *
 * - `sync_remotes.marks_kept_here`: how many gifts' marks were kept here only (HQ does not
 *   take marks, or the gift is history HQ has that was never linked to its copy);
 * - `sync_remotes.marks_not_taken_at`: when HQ last answered that it has no such route
 *   (null once HQ takes a mark, or for another HQ).
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-27T2100-thank-you-marks';

export function migration(engine: Engine): Migration {
  const int = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('sync_remotes')
        .addColumn('marks_kept_here', int, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('sync_remotes').addColumn('marks_not_taken_at', 'text').execute();
    },
  };
}
