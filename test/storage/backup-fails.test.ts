/**
 * The backup taken before a migration cannot be written (the disk fills up while it is
 * written; a file-size limit on the child process stands in for the full disk): no partial
 * backup is left behind, the database is not migrated, and the message says that the backup
 * step failed, where it was being written, and how much space it needs.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../electron/db/sqlite/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createContext } from '../../electron/domain/context.ts';
import { TEST_ENGINE, tempDir } from '../helpers/server.ts';

const dir = tempDir('giftdesk-backup-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.runIf(TEST_ENGINE === 'sqlite' && process.platform !== 'win32')(
  'a pre-migration backup that cannot be written',
  () => {
    it('leaves no partial .bak, changes nothing, and says the backup failed, where, and how much space it needs', async () => {
      const file = path.join(dir, 'giftdesk.sqlite');
      const store = await openSqlite({ file });
      const ctx = createContext(store);
      const { id: accountId } = await createAccount(ctx, 'Friends of the Library');
      // Enough donors (three Robert Browns among them) that the backup outgrows the limit.
      for (let i = 0; i < 400; i++) {
        await createContact(ctx, {
          accountId,
          firstName: i % 100 === 0 ? 'Robert' : `Donor${i}`,
          lastName: i % 100 === 0 ? 'Brown' : 'Smith',
          quickNotes: 'met at the gala; prefers cheques '.repeat(8),
        });
      }
      await store.close();
      const size = fs.statSync(file).size;
      expect(size).toBeGreaterThan(256 * 1024);

      // ulimit -f counts 1 KiB blocks: writes past 128 KiB fail with EFBIG, as on a full disk.
      const out = execFileSync(
        'bash',
        [
          '-c',
          'ulimit -f 128; exec "$0" --import tsx test/storage/backup-child.ts "$1"',
          process.execPath,
          file,
        ],
        { encoding: 'utf8' },
      );
      const result = JSON.parse(out.trim().split('\n').pop()!) as { ok?: true; error?: string };
      expect(result.ok).toBeUndefined();
      const message = result.error ?? '';
      expect(message).toMatch(/backup/i);
      expect(message).toContain(dir); // where
      expect(message).toMatch(/needs about \d+(\.\d+)? MiB/); // how much
      expect(message).toMatch(/nothing was changed/i);

      const leftovers = fs.readdirSync(dir).filter((f) => f.endsWith('.bak'));
      expect(leftovers).toEqual([]);
      const db = new BetterSqlite3(file, { readonly: true });
      try {
        const columns = (db.prepare('pragma table_info(contacts)').all() as Array<{ name: string }>).map(
          (c) => c.name,
        );
        expect(columns).not.toContain('nickname');
        expect(db.prepare('select count(*) as n from contacts').get()).toEqual({ n: 400 });
      } finally {
        db.close();
      }
    });
  },
);
