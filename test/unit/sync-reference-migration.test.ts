/**
 * Migration sync-reference-unique on a database that already holds records with references:
 * each record gets the reference its notes' last line or its last `gd:` tag carries — the SQL
 * rule must agree with the parser (#shared/sync-reference.ts) on messy notes and tags — and
 * where an account holds a reference twice already (a create HQ committed late, before this
 * migration), only the earliest record gets it. Then the unique index holds: a create with a
 * held reference answers the held record. On SQLite, or PostgreSQL with GIFTDESK_TEST_ENGINE.
 */
import { type Kysely, sql } from 'kysely';
import { expect, it } from 'vitest';
import { createContext } from '../../electron/domain/context.ts';
import { createContactOnce } from '../../electron/domain/contacts/index.ts';
import { createDonationOnce } from '../../electron/domain/donations/index.ts';
import { contactReferenceOf, donationReferenceOf } from '#shared/sync-reference.ts';
import { beforeMigration } from '../helpers/before-migration.ts';

const beforeSyncReference = () => beforeMigration('2026-11-25T1940-sync-reference-unique');

/** Messy notes as HQ holds them: references where the sync puts them, and mentions that are not. */
const NOTES: Array<string | null> = [
  null,
  '',
  'gd:don_01JDA000000000000000000001',
  'table 4\ngd:don_01JDA000000000000000000002',
  'table 4\r\n  gd:don_01JDA000000000000000000003 \t',
  'same as gd:don_01JDA000000000000000000004 last year',
  'gd:don_01JDA000000000000000000005\ncard sent',
  'pledge gd:don_01JDA000000000000000000006',
  'xgd:don_01JDA000000000000000000007',
  'gd:gd:don_01JDA000000000000000000008',
  'gd:',
  'GD:don_01JDA000000000000000000009',
  'Crème brûlée\ngd:don_01JDA00000000000000000000A',
  'gd:don_01JDA00000000000000000000B-copy',
  'two\nlines\n\ngd:don_01JDA00000000000000000000C\n',
];
const TAGS: string[][] = [
  [],
  ['gala 2026'],
  ['gd:cnt_01JDC000000000000000000001'],
  ['vip', 'GD:cnt_01JDC000000000000000000002'],
  ['gd:cnt_01JDC000000000000000000003', 'gd:cnt_01JDC000000000000000000004'],
  ['gd: VIP table'],
  ['gd:cnt_01JDC000000000000000000005 x'],
  ['gd:'],
];

it('backfills every reference as the parser reads it, the earliest of duplicates only, then holds it unique', async () => {
  const { store, migrate } = await beforeSyncReference();
  const db = store.db as unknown as Kysely<unknown>;
  const at = (i: number) => new Date(Date.UTC(2026, 10, 24, 19, 42, i)).toISOString();
  for (const a of ['acct_A', 'acct_B'])
    await sql`insert into accounts (id, name, created_at) values (${a}, ${a}, ${at(0)})`.execute(db);
  let n = 0;
  const contact = async (account: string, tags: string[], i: number) => {
    const id = `cnt_T${String(++n).padStart(4, '0')}`;
    await sql`insert into contacts (id, account_id, contact_type, status, first_name, last_name, tags, total_cents, created_at, updated_at)
      values (${id}, ${account}, 'INDIVIDUAL', 'ACTIVE', 'Robert', 'Brown', ${JSON.stringify(tags)}, 0, ${at(i)}, ${at(i)})`.execute(
      db,
    );
    return id;
  };
  const donation = async (account: string, donor: string, notes: string | null, i: number, id: string) => {
    await sql`insert into donations (id, account_id, contact_id, amount_cents, donation_date, payment_method, status, election_type, election_year, notes, created_at, updated_at)
      values (${id}, ${account}, ${donor}, 1999, ${'2026-11-24T19:42:00.000Z'}, 'cash', 'completed', 'general', 2026, ${notes}, ${at(i)}, ${at(i)})`.execute(
      db,
    );
  };
  const want = new Map<string, string | null>();
  // Account A: every messy case once; then each reference again, later (the doubled creates).
  const donors: string[] = [];
  for (const [i, tags] of TAGS.entries()) {
    const id = await contact('acct_A', tags, 10 + i);
    donors.push(id);
    want.set(id, contactReferenceOf(tags));
  }
  for (const [i, tags] of TAGS.entries()) want.set(await contact('acct_A', tags, 40 + i), null);
  // In account B the same references are B's own.
  for (const [i, tags] of TAGS.entries())
    want.set(await contact('acct_B', tags, 20 + i), contactReferenceOf(tags));
  const bDonor = [...want.keys()].at(-1)!;
  for (const [i, notes] of NOTES.entries()) {
    // The later copy first in id order: "earliest" is by creation time, not by id.
    await donation('acct_A', donors[0]!, notes, 50 + i, `don_T${String(i).padStart(3, '0')}b`);
    await donation('acct_A', donors[1]!, notes, 10 + i, `don_T${String(i).padStart(3, '0')}c`);
    await donation('acct_B', bDonor, notes, 30 + i, `don_T${String(i).padStart(3, '0')}d`);
    const ref = donationReferenceOf(notes);
    want.set(`don_T${String(i).padStart(3, '0')}b`, null);
    want.set(`don_T${String(i).padStart(3, '0')}c`, ref);
    want.set(`don_T${String(i).padStart(3, '0')}d`, ref);
  }
  // The parser's reading of the messy cases (what the SQL must agree with).
  expect(NOTES.map(donationReferenceOf).filter((r) => r !== null)).toEqual([
    'gd:don_01JDA000000000000000000001',
    'gd:don_01JDA000000000000000000002',
    'gd:don_01JDA000000000000000000003',
    'gd:don_01JDA00000000000000000000A',
  ]);

  const after = await migrate();
  const got = new Map<string, string | null>([...want.keys()].map((id) => [id, null]));
  for (const r of await after.db.selectFrom('contactSyncReferences').selectAll().execute())
    got.set(r.contactId, r.reference);
  for (const r of await after.db.selectFrom('donationSyncReferences').selectAll().execute())
    got.set(r.donationId, r.reference);
  expect(Object.fromEntries(got)).toEqual(Object.fromEntries(want));

  // Held from now on: the same reference again answers the record that has it.
  const ctx = createContext(after);
  const again = await createDonationOnce(ctx, {
    accountId: 'acct_A',
    contactId: donors[2]!,
    donationAmount: 19.99,
    donationDate: '2026-11-24T19:42:00Z',
    paymentMethod: 'cash',
    notes: 'gd:don_01JDA000000000000000000002',
    donationAccountId: null,
    campaignId: null,
    committeeId: 'x',
  }).catch((e: unknown) => e);
  // committeeId 'x' does not exist: the held reference answers before any lookup.
  expect(again).toMatchObject({ created: false, donation: { id: 'don_T003c' } });
  const c = await createContactOnce(ctx, {
    accountId: 'acct_B',
    firstName: 'Robert',
    lastName: 'Brown',
    tags: ['gd:cnt_01JDC000000000000000000004'],
  });
  expect(c.created).toBe(false);
  expect(c.contact.tags).toEqual(['gd:cnt_01JDC000000000000000000003', 'gd:cnt_01JDC000000000000000000004']);
});
