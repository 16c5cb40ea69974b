/**
 * A fresh database (SQLite, or PostgreSQL with GIFTDESK_TEST_ENGINE) migrated up to just
 * before the named migration, open, and how to apply the rest: for tests of what a
 * migration does to data written before it.
 */
import type { Kysely } from 'kysely';
import { afterEach } from 'vitest';
import { migrateToLatest } from '../../electron/db/migrate.ts';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';
import { openPostgres } from '../../electron/db/postgres/open.ts';
import { openSqlite } from '../../electron/db/sqlite/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { freshDatabase, TEST_ENGINE } from './server.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

export async function beforeMigration(name: string): Promise<{ store: Store; migrate(): Promise<Store> }> {
  const at = MIGRATIONS.findIndex((m) => m.name === name);
  if (at < 0) throw new Error(`no migration ${name}`);
  const before = MIGRATIONS.slice(0, at);
  const fresh = await freshDatabase(TEST_ENGINE);
  if (TEST_ENGINE === 'postgres') {
    const store = await openPostgres({ url: fresh.databaseUrl!, migrate: false });
    await migrateToLatest(store.db as unknown as Kysely<unknown>, { engine: 'postgres', migrations: before });
    cleanups.push(async () => {
      await store.close().catch(() => undefined);
      await fresh.drop();
    });
    return {
      store,
      async migrate() {
        await migrateToLatest(store.db as unknown as Kysely<unknown>, { engine: 'postgres' });
        return store;
      },
    };
  }
  const file = `${fresh.dataDir}/giftdesk.sqlite`;
  const store = await openSqlite({ file, migrations: before });
  cleanups.push(() => fresh.drop());
  return {
    store,
    async migrate() {
      await store.close();
      const after = await openSqlite({ file });
      cleanups.push(() => after.close().catch(() => undefined));
      return after;
    },
  };
}
