/**
 * A print run cut short by kill -9 does not stay "rendering" for ever: when a server starts on
 * the same database, a run whose rendering process is gone is failed with what to do (the
 * Letters screen's progress bar ends), and a run still printing in another live process
 * (the `giftdesk letters` command beside the server) is left alone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { type RunningServer, startServer } from '../../electron/server/serve.ts';
import { type ApiResponse, rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let restarted: RunningServer;
let sleeper: ChildProcess;
let get: (path: string) => Promise<ApiResponse>;

/** A process of this machine that has ended: its pid names no running process. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

async function leaveRendering(id: string, owner: string): Promise<void> {
  await s.store.write((trx) =>
    trx
      .insertInto('letterRuns')
      .values({
        id,
        accountId: s.accountId,
        kind: 'thank-you',
        filters: JSON.stringify({ kind: 'thank-you' }),
        status: 'rendering',
        documents: 40,
        rendered: 12,
        gifts: 40,
        totalCents: 400_000,
        createdAt: '2026-11-27T20:00:00.000Z',
        owner,
      })
      .execute(),
  );
}

beforeAll(async () => {
  s = await startTestServer({ engine: 'sqlite' });
  sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
  await once(sleeper, 'spawn');
  const host = os.hostname();
  await leaveRendering('ltr_killed', `${host}|${await deadPid()}|killedRandom`);
  await leaveRendering('ltr_cli', `${host}|${sleeper.pid}|cliRandom`);
  // The first server goes away; a new one starts on the same SQLite file.
  await s.running.close();
  const store = await openStore({ dataDir: s.dataDir });
  restarted = await startServer({
    store,
    port: 0,
    rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
    dataDir: s.dataDir,
  });
  const auth = { 'x-api-key': s.keyId, authorization: `Bearer ${s.secret}` };
  get = (path) => rawRequest(`${restarted.url}${path}`, 'GET', undefined, auth);
});

afterAll(async () => {
  sleeper?.kill();
  await restarted?.close();
  await s?.close();
});

describe('print runs left rendering when a server starts', () => {
  it('fails a run whose rendering process is gone, saying to start it again', async () => {
    const res = await get(`/api/v1/letters/runs/ltr_killed?accountId=${s.accountId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: 'ltr_killed',
      status: 'failed',
      rendered: 12,
      documents: 40,
      pdfUrl: null,
      error: 'GiftDesk stopped while this run was printing: start the run again (no gift was marked sent).',
    });
    expect(res.body.finishedAt).toEqual(expect.any(String));
  });

  it('leaves alone a run still printing in another live process', async () => {
    const res = await get(`/api/v1/letters/runs/ltr_cli?accountId=${s.accountId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: 'ltr_cli', status: 'rendering', rendered: 12, error: null });
    expect(res.body.finishedAt).toBeNull();
  });
});
