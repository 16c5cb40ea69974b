/**
 * Bulk imports keep their rejected rows in a table of their own (one row each, appended
 * chunk by chunk in the chunk's own transaction) and their counts beside their progress,
 * so a progress poll never reads or rewrites a growing JSON list. Frozen once shipped.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-22T1000-import-progress';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const s = db.schema;
      await s
        .alterTable('imports')
        .addColumn('rejected_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await s
        .alterTable('imports')
        .addColumn('skipped_rows', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await s
        .createTable('import_rejections')
        .addColumn('import_id', 'text', (c) => c.notNull().references('imports.id').onDelete('cascade'))
        .addColumn('row_no', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('import_rejections_pk', ['import_id', 'row_no'])
        .execute();
    },
  };
}
