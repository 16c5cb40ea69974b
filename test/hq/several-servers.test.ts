/**
 * Two HQ servers on one PostgreSQL, as two real `giftdesk serve` processes started at the same
 * moment on a fresh database (as two machines behind a load balancer come up after a deploy):
 * every migration runs once, both serve, and a key's rate limit is one limit across both.
 * PostgreSQL only (on SQLite one process serves a data folder).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openStore } from '../../electron/db/open.ts';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext } from '../../electron/domain/context.ts';
import { type ServeChild, isolatedEnv, startServe } from '../helpers/cli.ts';
import { TEST_ENGINE, freshDatabase, rawRequest, tempDir } from '../helpers/server.ts';

describe.skipIf(TEST_ENGINE !== 'postgres')('two HQ server processes on one PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let a: ServeChild;
  let b: ServeChild;
  beforeAll(async () => {
    db = await freshDatabase('postgres');
    const { env } = isolatedEnv();
    // A limit of 3 at once, refilled at one a second: the test's few requests spend it.
    const args = (dir: string) => ['--database-url', db.databaseUrl!, '--data-dir', dir, '--no-sync'];
    const limit = ['--rate', '1', '--burst', '3'];
    [a, b] = await Promise.all([
      startServe([...args(tempDir()), ...limit], env),
      startServe([...args(tempDir()), ...limit], env),
    ]);
  }, 120_000);
  afterAll(async () => {
    for (const s of [a, b]) {
      if (!s) continue;
      s.child.kill('SIGTERM');
      await s.exited;
    }
    await db?.drop();
  });

  it('migrated the fresh database once: each migration recorded once, both servers answering', async () => {
    const c = new pg.Client({ connectionString: db.databaseUrl });
    await c.connect();
    try {
      const { rows } = await c.query<{ name: string; n: string }>(
        'select name, count(*) as n from giftdesk_migrations group by name order by name',
      );
      expect(rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name).sort());
      expect(rows.filter((r) => Number(r.n) !== 1)).toEqual([]);
    } finally {
      await c.end();
    }
    for (const s of [a, b])
      expect((await rawRequest(`${s.url}/api/v1/openapi.json`, 'GET')).status).toBe(200);
  });

  it("counts a key's requests on both servers against one limit: the 429 comes on the second", async () => {
    const store = await openStore({ dataDir: tempDir(), databaseUrl: db.databaseUrl! });
    const ctx = createContext(store);
    const { id: accountId } = await createAccount(ctx, 'Żółć & Brown Foundation');
    const key = await createApiKey(ctx, accountId, 'Robert Brown’s script');
    await store.close();
    const headers = { 'X-API-Key': key.keyId, Authorization: `Bearer ${key.secret}` };
    const list = (s: ServeChild) =>
      rawRequest(`${s.url}/api/v1/contacts?accountId=${accountId}`, 'GET', undefined, headers);
    // The burst of 3, spent on server A (a refill of one a second may add one meanwhile).
    const onA = [await list(a), await list(a), await list(a)];
    expect(onA.map((r) => r.status)).toEqual([200, 200, 200]);
    // Server B has not seen this key, yet its bucket is the one A spent.
    let refused = null;
    for (let i = 0; i < 3 && !refused; i++) {
      const r = await list(b);
      if (r.status === 429) refused = r;
    }
    expect(refused?.status).toBe(429);
    expect(refused?.body.code).toBe('rate_limited');
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // And A, in turn, sees what B spent: still limited.
    expect((await list(a)).status).toBe(429);
    // Another key is not held back by this one's limit, on either server.
    const store2 = await openStore({ dataDir: tempDir(), databaseUrl: db.databaseUrl! });
    const other = await createApiKey(createContext(store2), accountId, 'Robert Brown’s other script');
    await store2.close();
    const r = await rawRequest(`${b.url}/api/v1/contacts?accountId=${accountId}`, 'GET', undefined, {
      'X-API-Key': other.keyId,
      Authorization: `Bearer ${other.secret}`,
    });
    expect(r.status).toBe(200);
  });
});
