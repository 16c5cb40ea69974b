/**
 * An import keeps the SHA-256 of the file it read (`imports.file_sha256`): the same file sent
 * again, when its rows carry no externalId to be recognised by, would add every row a second
 * time (every gift twice in the donors' totals and at HQ), so the import route asks first.
 * Null for imports from before this. Frozen once shipped.
 */
import type { Kysely } from 'kysely';
import type { Migration } from '../migration-types.ts';

export const name = '2026-12-05T1240-import-file-hash';

export function migration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('imports').addColumn('file_sha256', 'text').execute();
      await db.schema
        .createIndex('imports_file_sha256')
        .on('imports')
        .columns(['account_id', 'file_sha256'])
        .execute();
    },
  };
}
