/**
 * The dashboard's "entered today" figures (GET /api/v1/stats/donations?basis=entered) read
 * only today's gifts through (account_id, created_at) instead of scanning the account's.
 * Appends at the index's right edge (created_at only grows), so writes barely notice it.
 * Frozen once shipped.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-24T1730-donations-entered-index';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('donations_account_created')
        .on('donations')
        .columns(['account_id', 'created_at'])
        .execute();
    },
  };
}
