/**
 * Opens a SQLite file with one more migration than the app has (so the pre-migration backup
 * runs), and prints one JSON line: {ok: true} or {error: message}. Run under a file-size
 * limit (ulimit -f) it stands for a disk that fills up during the backup. Args: file.
 */
import { sql } from 'kysely';
import type { NamedMigration } from '../../electron/db/migration-types.ts';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';
import { openSqlite } from '../../electron/db/sqlite/open.ts';

const [file] = process.argv.slice(2) as [string];
const next: NamedMigration = {
  name: '2999-01-03T0000-add-nickname',
  migration: () => ({
    async up(db) {
      await sql`alter table contacts add column nickname text`.execute(db);
    },
  }),
};
try {
  const store = await openSqlite({ file, migrations: [...MIGRATIONS, next] });
  await store.close();
  process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
} catch (err) {
  process.stdout.write(`${JSON.stringify({ error: (err as Error).message })}\n`);
}
