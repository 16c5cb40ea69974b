/**
 * Imports with two HQ servers on one PostgreSQL: an import runs in the server that accepted
 * it, and a server starting beside a live one must not fail that one's running import, yet
 * an import whose process is gone (kill -9) must not stay "running" for ever. PostgreSQL only
 * (on SQLite one server serves a data folder; test/import/jobs.test.ts has a CLI import beside it).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { THIS_PROCESS } from '../../electron/domain/accounts/sessions.ts';
import { type RunningServer, startServer } from '../../electron/server/serve.ts';
import { TEST_ENGINE, type TestServer, rawRequest, startTestServer, tempDir } from '../helpers/server.ts';

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

describe.skipIf(TEST_ENGINE !== 'postgres')('imports with two HQ servers on one PostgreSQL', () => {
  let a: TestServer;
  let b: RunningServer;
  const owners: Record<string, string | null> = {};
  beforeAll(async () => {
    a = await startTestServer({ engine: 'postgres' });
    const host = os.hostname();
    owners.imp_killed = `${host}|${await deadPid()}|killedRandom`;
    owners.imp_server_a = THIS_PROCESS; // server A, importing right now
    owners.imp_other_machine = 'hq-2.example.org|4242|otherRandom';
    owners.imp_before_owners = null;
    for (const [id, owner] of Object.entries(owners))
      await a.store.write((trx) =>
        trx
          .insertInto('imports')
          .values({
            id,
            accountId: a.accountId,
            kind: 'donations',
            status: 'running',
            totalRows: 3000,
            processedRows: 1000,
            importedRows: 998,
            rejected: '[]',
            push: 0,
            error: null,
            createdAt: '2026-12-01T09:00:00.000Z',
            finishedAt: null,
            owner,
          })
          .execute(),
      );
    // Server B starts on the same database while A serves.
    const store = await openStore({ dataDir: tempDir(), databaseUrl: a.databaseUrl! });
    b = await startServer({ store, port: 0, rateLimit: { ratePerSecond: 1000, burst: 1000 } });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("fails only the import of a process that is gone; a live server's stays running", async () => {
    const status = async (id: string) => {
      const r = await rawRequest(`${b.url}/api/v1/imports/${id}?accountId=${a.accountId}`, 'GET', undefined, {
        'X-API-Key': a.keyId,
        Authorization: `Bearer ${a.secret}`,
      });
      expect(r.status).toBe(200);
      return r.body as { status: string; error: string | null; imported: number };
    };
    const killed = await status('imp_killed');
    expect(killed.status).toBe('failed');
    expect(killed.error).toMatch(/^interrupted: GiftDesk stopped before the import finished/);
    expect(killed.imported).toBe(998);
    for (const id of ['imp_server_a', 'imp_other_machine', 'imp_before_owners'])
      expect(await status(id)).toMatchObject({ status: 'running', error: null });
  });
});
