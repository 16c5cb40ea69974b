/**
 * HQ mode (PostgreSQL): the database server dropping the API's idle connections (a restart,
 * an admin's pg_terminate_backend, a proxy's idle timeout) must not take the API down. pg's
 * pool reports each dropped idle client as an 'error' event; unheard, that event is an
 * uncaught exception (vitest reports it, a real server would exit).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, getContact, makeContact } from '../helpers/api-fixtures.ts';
import { TEST_ENGINE, startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe.runIf(TEST_ENGINE === 'postgres')('when PostgreSQL drops the idle connections', () => {
  it('keeps answering, reads and writes alike', async () => {
    const c = await makeContact(s, { firstName: 'Before', lastName: 'Restart' });
    // several requests at once, so the pool holds several idle connections
    await Promise.all(
      Array.from({ length: 8 }, () => s.request('GET', `/api/v1/contacts?accountId=${s.accountId}`)),
    );
    const others = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(
      s.store.db,
    );
    expect(others.rows[0]!.n).toBeGreaterThan(0);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(
      s.store.db,
    );

    for (let i = 0; i < 10; i++)
      expectStatus(await s.request('GET', `/api/v1/contacts?accountId=${s.accountId}`), 200);
    expectStatus(await s.request('PUT', `/api/v1/contacts/${c.id}`, { lastName: 'Survived' }), 200);
    expect((await getContact(s, c.id)).lastName).toBe('Survived');
  });
});
