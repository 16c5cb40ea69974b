/**
 * Letters of their own (ø, ł, æ, ß, ð, þ, ı, œ) typed as the plain letters a volunteer
 * without a Nordic or Polish keyboard reaches for: "soren odegard" finds Søren Ødegård, as
 * "jose nunez" finds José Núñez. Contacts written before migration search-fold-letters are
 * refilled into SQLite's index by it; contacts written after are folded by its triggers;
 * typing the letters themselves still finds them. PostgreSQL's unaccent folds them already:
 * the same searches give the same answers there (GIFTDESK_TEST_ENGINE=postgres).
 */
import { type Kysely, sql } from 'kysely';
import { expect, it } from 'vitest';
import { listContacts } from '../../electron/domain/contacts/list.ts';
import { createContact } from '../../electron/domain/contacts/create.ts';
import { createContext } from '../../electron/domain/context.ts';
import type { Store } from '../../electron/db/store.ts';
import { beforeMigration } from '../helpers/before-migration.ts';

const OLD: Array<[string, string, string | null]> = [
  ['Søren', 'Ødegård', 'Østfold Røde Kors'],
  ['Łukasz', 'Dębski', null],
  ['Æsa', 'Strauß', 'Straße & Söhne'],
];
const NEW: Array<[string, string, string | null]> = [
  ['Þóra', 'Guðmundsdóttir', null],
  ['Işık', 'Çelik', null],
  ['Chloé', 'Œuvray', null],
];

async function names(store: Store, accountId: string, search: string) {
  const page = await listContacts(createContext(store), { accountId, search, sortBy: 'relevance' });
  return { total: page.total, first: page.data.map((c) => `${c.firstName} ${c.lastName}`) };
}

it('finds names with ø, ł, æ, ß, ð, þ, ı and œ typed as plain letters, written before the migration or after, exact matches first', async () => {
  const { store: before, migrate } = await beforeMigration('2026-11-25T2310-search-fold-letters');
  const db = before.db as unknown as Kysely<unknown>;
  const at = '2026-11-25T23:10:00.000Z';
  await sql`insert into accounts (id, name, created_at) values ('acct_F', 'Fold', ${at})`.execute(db);
  for (const [i, [first, last, org]] of OLD.entries()) {
    await sql`insert into contacts (id, account_id, contact_type, status, first_name, last_name, organization, total_cents, created_at, updated_at)
      values (${`cnt_F${i}`}, 'acct_F', 'INDIVIDUAL', 'ACTIVE', ${first}, ${last}, ${org}, 0, ${at}, ${at})`.execute(
      db,
    );
  }
  // Decoys whose plain spelling starts like the targets'.
  await sql`insert into contacts (id, account_id, contact_type, status, first_name, last_name, total_cents, created_at, updated_at)
    values ('cnt_D1', 'acct_F', 'INDIVIDUAL', 'ACTIVE', 'Sorensen', 'Odegardson', 0, ${at}, ${at}),
           ('cnt_D2', 'acct_F', 'INDIVIDUAL', 'ACTIVE', 'Lukas', 'Debskin', 0, ${at}, ${at})`.execute(db);
  const store = await migrate();
  const ctx = createContext(store);
  for (const [first, last, org] of NEW)
    await createContact(ctx, { accountId: 'acct_F', firstName: first, lastName: last, organization: org });

  // Plain letters: the exact name first, the decoy after it.
  expect(await names(store, 'acct_F', 'soren odegard')).toEqual({
    total: 2,
    first: ['Søren Ødegård', 'Sorensen Odegardson'],
  });
  expect((await names(store, 'acct_F', 'lukasz debski')).first[0]).toBe('Łukasz Dębski');
  expect(await names(store, 'acct_F', 'aesa strauss')).toEqual({ total: 1, first: ['Æsa Strauß'] });
  expect(await names(store, 'acct_F', 'ostfold rode')).toEqual({ total: 1, first: ['Søren Ødegård'] });
  expect(await names(store, 'acct_F', 'strasse')).toEqual({ total: 1, first: ['Æsa Strauß'] });
  expect(await names(store, 'acct_F', 'thora gudmundsdottir')).toEqual({
    total: 1,
    first: ['Þóra Guðmundsdóttir'],
  });
  expect(await names(store, 'acct_F', 'isik celik')).toEqual({ total: 1, first: ['Işık Çelik'] });
  expect(await names(store, 'acct_F', 'chloe oeuv')).toEqual({ total: 1, first: ['Chloé Œuvray'] });
  // The letters themselves, as a volunteer with the keyboard types them.
  expect((await names(store, 'acct_F', 'Søren Ødegård')).first[0]).toBe('Søren Ødegård');
  expect((await names(store, 'acct_F', 'ŁUKASZ')).first).toEqual(['Łukasz Dębski']);
  expect((await names(store, 'acct_F', 'Guð')).first).toEqual(['Þóra Guðmundsdóttir']);

  // A rename is folded by the update trigger.
  const lukasz = (await names(store, 'acct_F', 'lukasz')).first.length;
  expect(lukasz).toBe(1);
  await sql`update contacts set last_name = 'Wałęsa' where id = 'cnt_F1'`.execute(
    store.db as unknown as Kysely<unknown>,
  );
  expect(await names(store, 'acct_F', 'walesa')).toEqual({ total: 1, first: ['Łukasz Wałęsa'] });
  expect((await names(store, 'acct_F', 'debski')).first).toEqual(['Lukas Debskin']);
});
