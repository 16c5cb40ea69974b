/**
 * Donor data is readable by the user who runs GiftDesk only: the data folder is 0700 and the
 * database, its WAL and shared-memory files and the pre-migration backups are 0600, whether
 * they are new or were left readable to others by an older version.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { NamedMigration } from '../../electron/db/migration-types.ts';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';
import { openStore } from '../../electron/db/open.ts';
import { openSqlite } from '../../electron/db/sqlite/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createContext } from '../../electron/domain/context.ts';
import { TEST_ENGINE, tempDir } from '../helpers/server.ts';

const root = tempDir('giftdesk-modes-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const mode = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);

describe.runIf(TEST_ENGINE === 'sqlite' && process.platform !== 'win32')(
  'file modes of the data folder',
  () => {
    it('creates the data folder 0700 and the database, WAL and SHM 0600', async () => {
      const dataDir = path.join(root, 'fresh', 'GiftDesk');
      const store = await openStore({ dataDir });
      const ctx = createContext(store);
      const { id: accountId } = await createAccount(ctx, 'Friends of the Library');
      await createContact(ctx, {
        accountId,
        firstName: 'Robert',
        lastName: 'Brown',
        primaryEmail: 'rb@example.org',
      });
      const db = path.join(dataDir, 'giftdesk.sqlite');
      expect(fs.existsSync(`${db}-wal`)).toBe(true);
      expect({ dir: mode(dataDir), db: mode(db), wal: mode(`${db}-wal`), shm: mode(`${db}-shm`) }).toEqual({
        dir: '700',
        db: '600',
        wal: '600',
        shm: '600',
      });
      await store.close();
    });

    it('leaves a folder shared by design (sticky, as /tmp) as it is; the database in it is still 0600', async () => {
      const shared = path.join(root, 'shared-tmp');
      fs.mkdirSync(shared);
      fs.chmodSync(shared, 0o1777);
      const file = path.join(shared, 'giftdesk.sqlite');
      const store = await openSqlite({ file });
      await store.close();
      expect({ dir: (fs.statSync(shared).mode & 0o7777).toString(8), db: mode(file) }).toEqual({
        dir: '1777',
        db: '600',
      });
    });

    it('tightens a folder and database left readable to others, and writes backups 0600', async () => {
      const dataDir = path.join(root, 'old');
      const file = path.join(dataDir, 'giftdesk.sqlite');
      const first = await openSqlite({ file });
      const ctx = createContext(first);
      const { id: accountId } = await createAccount(ctx, 'Friends of the Library');
      await createContact(ctx, { accountId, firstName: 'Zoe', lastName: 'Nunez' });
      await first.close();
      fs.chmodSync(dataDir, 0o755);
      fs.chmodSync(file, 0o644);

      const next: NamedMigration = {
        name: '2999-01-04T0000-add-nickname',
        migration: () => ({
          async up(db) {
            await sql`alter table contacts add column nickname text`.execute(db);
          },
        }),
      };
      const store = await openSqlite({ file, migrations: [...MIGRATIONS, next] });
      await store.close();
      const backups = fs.readdirSync(dataDir).filter((f) => f.endsWith('.bak'));
      expect(backups).toHaveLength(1);
      expect({ dir: mode(dataDir), db: mode(file), backup: mode(path.join(dataDir, backups[0]!)) }).toEqual({
        dir: '700',
        db: '600',
        backup: '600',
      });
    });
  },
);
