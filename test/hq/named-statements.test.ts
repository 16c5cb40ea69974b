/**
 * On PostgreSQL the statements every gift runs (the API key's row, the rate-limit bucket, the
 * gift's lookups and its write) go as named prepared statements, planned once per connection
 * (electron/db/postgres/named-statements.ts). Behind a pooler that loses them (PgBouncer in
 * transaction mode before 1.21) a statement's Bind reaches a connection that never prepared it;
 * the gift must still be taken, once, and the server stop naming. The pooler is played here by
 * `deallocate all` on the server's one connection: node-postgres still believes the statements
 * are prepared and sends only their Bind, as it would through such a pooler.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../electron/db/postgres/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContact } from '../../electron/domain/contacts/create.ts';
import { createContext } from '../../electron/domain/context.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { type RunningServer, startServer } from '../../electron/server/serve.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { TEST_ENGINE, freshDatabase, rawRequest } from '../helpers/server.ts';

const NO_LIMIT = { ratePerSecond: 100_000, burst: 100_000 };

describe.skipIf(TEST_ENGINE !== 'postgres')('named prepared statements on PostgreSQL', () => {
  let drop: () => Promise<void> = async () => undefined;
  let store: Store;
  let server: RunningServer;
  let accountId: string;
  let donorId: string;
  let campaignId: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    const fresh = await freshDatabase('postgres');
    drop = fresh.drop;
    // One connection, so the test reads the server's own session (prepared statements are per session).
    store = await openPostgres({ url: fresh.databaseUrl!, poolSize: 1, namedStatements: true });
    const ctx = createContext(store);
    accountId = (await createAccount(ctx, 'Łukasz Żółć Foundation')).id;
    const key = await createApiKey(ctx, accountId, 'gift table');
    headers = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
    donorId = (await createContact(ctx, { accountId, firstName: 'Robert', lastName: 'Brown' })).id;
    campaignId = (await createCampaign(ctx, { accountId, name: 'Winter gala' })).id;
    server = await startServer({ store, port: 0, rateLimit: NO_LIMIT });
  });
  afterAll(async () => {
    await server?.close();
    await drop();
  });

  const prepared = async () =>
    (
      await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(store.db)
    ).rows.map((r) => r.name);
  const give = async (notes: string) =>
    expectStatus(
      await rawRequest(
        `${server.url}/api/v1/donations`,
        'POST',
        {
          accountId,
          contactId: donorId,
          campaignId,
          donationAmount: 19.99,
          donationDate: '2026-12-03',
          paymentMethod: 'cash',
          notes,
        },
        headers,
      ),
      201,
    ) as { id: string };
  const stored = async () =>
    (
      await store.db
        .selectFrom('donations')
        .select(['id', 'notes'])
        .where('accountId', '=', accountId)
        .orderBy('createdAt')
        .execute()
    ).map((r) => r.notes);

  it('a gift prepares the key, bucket, lookups and write once on the connection', async () => {
    await give('twin 1');
    const first = await prepared();
    // The key's row, the bucket, the lookups, the write (and nothing of the migrations or setup).
    expect(first.length).toBeGreaterThanOrEqual(4);
    expect(first.every((n) => n.startsWith('gd_'))).toBe(true);
    await give('twin 2');
    expect(await prepared()).toEqual(first);
    expect(await stored()).toEqual(['twin 1', 'twin 2']);
  });

  it('a connection that lost them (a pooler) still takes each gift once, and naming stops', async () => {
    await sql`deallocate all`.execute(store.db);
    const a = await give('after the pooler 1');
    const b = await give('after the pooler 2');
    expect(a.id).not.toBe(b.id);
    expect(await stored()).toEqual(['twin 1', 'twin 2', 'after the pooler 1', 'after the pooler 2']);
    expect(await prepared()).toEqual([]);
    const total = await store.db
      .selectFrom('contacts')
      .select('totalCents')
      .where('id', '=', donorId)
      .executeTakeFirstOrThrow();
    expect(Number(total.totalCents)).toBe(4 * 1999);
  });
});
