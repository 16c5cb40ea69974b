/**
 * Whether HQ takes thank-you marks, asked before the first mark. Frozen once shipped.
 *
 * `sync_remotes.marks_checked_at`: when the engine last asked HQ whether it has the route for
 * thank-you marks (one request with nothing in it), or HQ last answered a mark. With
 * `marks_not_taken_at` it tells an HQ of the donor API alone apart before any gift is marked,
 * so the sync status says so once, from the start. At a station it is when the event hub last
 * said whether its HQ takes marks.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0800-specwords-marks-checked';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sync_remotes').addColumn('marks_checked_at', 'text').execute();
    },
  };
}
