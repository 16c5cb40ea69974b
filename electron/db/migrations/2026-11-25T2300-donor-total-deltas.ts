/**
 * `donor_total_deltas`: gifts a bulk import (the CLI's, on SQLite) has saved whose donors'
 * lifetime totals and last gift dates are not moved yet. Each chunk writes one row per donor
 * in the chunk's own transaction, beside its gifts, and the import applies them to `contacts`
 * in one pass sorted by donor at its end (electron/db/donor-total-deltas.ts): moving a
 * million donors' rows once instead of once per chunk. A row is applied and deleted in one
 * transaction; rows left by a killed import are applied when the store is next opened.
 * No index and no foreign key: rows are only appended, then read whole. Frozen once shipped.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-25T2300-donor-total-deltas';

export function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('donor_total_deltas')
        .addColumn('contact_id', 'text', (c) => c.notNull())
        .addColumn('cents', engine === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
        .addColumn('latest_date', engine === 'postgres' ? 'timestamptz' : 'text', (c) => c.notNull())
        .execute();
    },
  };
}
