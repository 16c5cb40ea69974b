/**
 * Background imports and stops: a server shut down mid-import records the job as stopped with
 * exactly the rows it saved counted, and the same file imported again finishes the job
 * without doubling anything; a job cut off by a crash shows as failed when GiftDesk starts
 * again; the in-thread runner (PostgreSQL's, and the fallback) gives the same result. Run on
 * SQLite and again on PostgreSQL (test/run-postgres.mjs), where the stopped server's database is
 * reopened from its URL.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { createContext } from '../../electron/domain/context.ts';
import { createImportJob, getImportJob } from '../../electron/domain/import-export/imports.ts';
import { runImportJob } from '../../electron/server/imports/jobs.ts';
import { type RunningServer, startServer } from '../../electron/server/serve.ts';
import { type TestServer, rawRequest, startTestServer } from '../helpers/server.ts';
import { type Org, csvFile, importFile, makeOrg } from './fixtures.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function orgWithDonors(donors: number): Promise<{ s: TestServer; org: Org }> {
  const s = await startTestServer();
  cleanups.push(() => s.close());
  const org = await makeOrg(s);
  const rows = [['externalId', 'firstName', 'lastName']];
  for (let i = 0; i < donors; i++) rows.push([`c${i}`, `F${i}`, `L${i}`]);
  expect(await importFile(s, csvFile(rows), { kind: 'contacts' })).toMatchObject({ imported: donors });
  return { s, org };
}

function giftsCsv(n: number, donors: number, campaignId: string): string {
  let text = 'externalId,contactExternalId,donationAmount,donationDate,paymentMethod,campaignId\n';
  for (let i = 0; i < n; i++)
    text += `g${i},c${(i * 7919) % donors},${(i % 90) + 10}.25,2025-0${(i % 9) + 1}-1${i % 10},check,${campaignId}\n`;
  return text;
}

async function consistency(s: { store: TestServer['store'] }, accountId: string) {
  const db = s.store.db;
  const gifts = Number(
    (
      await db
        .selectFrom('donations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('accountId', '=', accountId)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const wrongTotals = await db
    .selectFrom('contacts as c')
    .select('c.id')
    .where('c.accountId', '=', accountId)
    .where((eb) =>
      eb(
        'c.totalCents',
        '!=',
        eb.fn.coalesce(
          eb
            .selectFrom('donations as d')
            .select((x) => x.fn.sum<number>('d.amountCents').as('s'))
            .whereRef('d.contactId', '=', 'c.id'),
          eb.lit(0),
        ),
      ),
    )
    .execute();
  const outbox = Number(
    (
      await db
        .selectFrom('changeLog')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('entityType', '=', 'donation')
        .executeTakeFirstOrThrow()
    ).n,
  );
  return { gifts, wrongTotals: wrongTotals.length, outbox };
}

describe('background import jobs', () => {
  it('a server stopped mid-import records what it saved; importing the file again finishes the job', async () => {
    const { s, org } = await orgWithDonors(500);
    const body = giftsCsv(60_000, 500, org.campaignId);
    const posted = await s.request('POST', `/api/v1/imports?accountId=${s.accountId}&kind=donations`, body, {
      'content-type': 'text/csv',
    });
    expect(posted.status).toBe(202);
    for (;;) {
      const r = await s.request('GET', `/api/v1/imports/${posted.body.id}?accountId=${s.accountId}`);
      if (r.body.processedRows > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await s.running.close(); // SIGTERM's path: finish in-flight work, then close the database

    const store = await openStore({
      dataDir: s.dataDir,
      ...(s.databaseUrl ? { databaseUrl: s.databaseUrl } : {}),
    });
    const ctx = createContext(store);
    const job = (await getImportJob(ctx, s.accountId, posted.body.id))!;
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(
      /^stopped: GiftDesk was shutting down\. The rows counted as imported are saved/,
    );
    expect(job.processedRows).toBeLessThan(60_000);
    const saved = await consistency({ store }, s.accountId);
    expect(saved).toEqual({ gifts: job.imported, wrongTotals: 0, outbox: job.imported });

    // GiftDesk again: the same file finishes the job, nothing twice
    const again: RunningServer = await startServer({
      store,
      port: 0,
      rateLimit: { ratePerSecond: 1e6, burst: 1e6 },
    });
    cleanups.push(() => again.close());
    const auth = { 'x-api-key': s.keyId, authorization: `Bearer ${s.secret}` };
    const second = await rawRequest(
      `${again.url}/api/v1/imports?accountId=${s.accountId}&kind=donations`,
      'POST',
      body,
      { ...auth, 'content-type': 'text/csv' },
    );
    expect(second.status).toBe(202);
    let state = second.body;
    while (state.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = (
        await rawRequest(
          `${again.url}/api/v1/imports/${second.body.id}?accountId=${s.accountId}`,
          'GET',
          undefined,
          auth,
        )
      ).body;
    }
    expect(state).toMatchObject({
      status: 'done',
      processedRows: 60_000,
      imported: 60_000 - job.imported,
      skipped: job.imported,
      rejectedCount: 0,
    });
    expect(await consistency({ store }, s.accountId)).toEqual({
      gifts: 60_000,
      wrongTotals: 0,
      outbox: 60_000,
    });
  }, 240_000); // 60,000 rows twice: slow on a loaded 2-core machine

  it('a job cut off by a crash shows as failed once GiftDesk starts again; a CLI import running beside it stays running', async () => {
    const { s } = await orgWithDonors(1);
    const start = () =>
      createImportJob(s.ctx, { accountId: s.accountId, kind: 'contacts', push: true, totalRows: 10 });
    const job = await start();
    expect(job.status).toBe('running');
    // The crashed one's process is gone (kill -9); the other's (this test's: a CLI import) is not.
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await once(child, 'exit');
    await s.store.write((trx) =>
      trx
        .updateTable('imports')
        .set({ owner: `${os.hostname()}|${child.pid}|gone` })
        .where('id', '=', job.id)
        .execute(),
    );
    const beside = await start();
    const other = await startServer({ store: s.store, port: 0 });
    await other.app.close();
    const after = (await getImportJob(s.ctx, s.accountId, job.id))!;
    expect(after.status).toBe('failed');
    expect(after.error).toMatch(/^interrupted: GiftDesk stopped before the import finished/);
    expect((await getImportJob(s.ctx, s.accountId, beside.id))!.status).toBe('running');
  });

  it('runs on the server thread (as on PostgreSQL) with the same outcome', async () => {
    const { s, org } = await orgWithDonors(50);
    const file = csvFile([
      ['externalId', 'contactExternalId', 'donationAmount', 'donationDate', 'paymentMethod', 'campaignId'],
      ...Array.from({ length: 120 }, (_, i) => [
        `t${i}`,
        `c${i % 60}`,
        '5',
        '2025-01-01',
        'cash',
        org.campaignId,
      ]),
    ]);
    const job = await createImportJob(s.ctx, {
      accountId: s.accountId,
      kind: 'donations',
      push: false,
      totalRows: 120,
    });
    const silent = {
      error: () => undefined,
      warn: () => undefined,
      info: () => undefined,
    } as unknown as Parameters<typeof runImportJob>[2];
    await runImportJob(
      s.ctx,
      { jobId: job.id, accountId: s.accountId, kind: 'donations', push: false, file },
      silent,
      'server',
    ).done;
    expect(await getImportJob(s.ctx, s.accountId, job.id)).toMatchObject({
      status: 'done',
      totalRows: 120,
      processedRows: 120,
      imported: 100,
      rejectedCount: 20,
      skipped: 0,
    });
    expect(fs.existsSync(file)).toBe(true); // the caller's file is the caller's to remove
  });
});
