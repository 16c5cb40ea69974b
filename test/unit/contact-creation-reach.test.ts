/**
 * SQLite's latest creation time by account and block of seqs (`contacts_created_by_seq`,
 * migration contact-creation-reach), which tells a newest-first search page it is whole
 * (sqlite/creation-page.ts). What the page relies on: every contact's block has a row, and no
 * row at or after a contact's block is earlier than the contact's creation time. Checked on a
 * database that held contacts before the migration (filled from them), then through the
 * writes that can break it: contacts written out of creation order, a clock years ahead, a
 * creation time moved later, a contact moved to another account, deletions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';
import { name as reachMigration } from '../../electron/db/migrations/2026-12-06T1700-contact-creation-reach.ts';
import { openSqlite } from '../../electron/db/sqlite/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContext } from '../../electron/domain/context.ts';
import { type StatedContact, storeContacts } from '../helpers/seed-contacts.ts';
import { tempDir } from '../helpers/server.ts';

const dir = tempDir();
const file = path.join(dir, 'giftdesk.sqlite');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `n` contacts of namesakes, created a minute apart from `from`. */
const people = (n: number, from: string, first = 'Robert'): StatedContact[] =>
  Array.from({ length: n }, (_, i) => ({
    firstName: i % 3 === 0 ? 'Łukasz' : first,
    lastName: i % 2 === 0 ? 'Brown' : 'Żółć',
    email: `guest${i}@mail.example`,
    createdAt: new Date(Date.parse(from) + i * 60_000).toISOString(),
  }));

/** Contacts the table misses: no row for their block, or a row from it on earlier than them. */
async function uncovered(store: Store): Promise<Array<{ id: string }>> {
  const r = await sql<{ id: string }>`select c.id from contacts c
    where not exists (select 1 from contacts_created_by_seq r
        where r.account_id = c.account_id and r.block = c.seq >> 8)
      or exists (select 1 from contacts_created_by_seq r
        where r.account_id = c.account_id and r.block >= c.seq >> 8 and r.latest < c.created_at)`.execute(
    store.db,
  );
  return r.rows;
}

const rows = async (store: Store) =>
  Number(
    (await sql<{ n: number }>`select count(*) as n from contacts_created_by_seq`.execute(store.db)).rows[0]
      ?.n,
  );

describe('the latest creation time by account and block of seqs (SQLite)', () => {
  let a = '';
  let b = '';

  it('is filled from the contacts a database held before it was added', async () => {
    const before = await openSqlite({
      file,
      migrations: MIGRATIONS.filter((m) => m.name !== reachMigration),
    });
    const ctx = createContext(before);
    a = (await createAccount(ctx, 'Friends of the Library')).id;
    b = (await createAccount(ctx, 'Harbour Trust')).id;
    // Two accounts written in turns, 600 each (several blocks), then a late import of old dates
    // into one and a contact of the other created years ahead.
    for (let i = 0; i < 6; i++) {
      await storeContacts(before, a, people(100, `2024-0${i + 1}-01T00:00:00Z`));
      await storeContacts(before, b, people(100, `2024-0${i + 1}-01T00:00:00Z`, 'Jo'));
    }
    await storeContacts(before, a, people(300, '2019-01-01T00:00:00Z'));
    await storeContacts(before, b, [{ ...people(1, '2031-01-01T00:00:00Z')[0]! }]);
    await before.close();

    const store = await openSqlite({ file });
    try {
      expect(await rows(store)).toBeGreaterThanOrEqual(6);
      expect(await uncovered(store)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('stays whole through writes out of order, a creation time moved later, a contact moved, deletions', async () => {
    const store = await openSqlite({ file });
    try {
      await storeContacts(store, a, people(400, '2025-01-01T00:00:00Z'));
      await storeContacts(store, a, people(50, '2018-05-01T00:00:00Z'));
      await storeContacts(store, b, people(50, '2040-01-01T00:00:00Z'));
      expect(await uncovered(store)).toEqual([]);

      // The first contact written, created later than any other.
      await sql`update contacts set created_at = '2035-01-01T00:00:00.000Z'
        where seq = (select min(seq) from contacts where account_id = ${a})`.execute(store.db);
      expect(await uncovered(store)).toEqual([]);

      // One of b's contacts of the future moved to a, below a's latest rows.
      await sql`update contacts set account_id = ${a}
        where seq = (select max(seq) from contacts where account_id = ${b})`.execute(store.db);
      expect(await uncovered(store)).toEqual([]);

      // Deleted contacts leave their times (stricter, never wrong); the rest stay covered.
      await sql`delete from contacts where seq % 7 = 0`.execute(store.db);
      await storeContacts(store, b, people(30, '2026-01-01T00:00:00Z'));
      expect(await uncovered(store)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
