/**
 * Who did what survives a kill -9 on its way to HQ. A laptop's volunteer enters twin $19.99 cash
 * gifts to Łukasz Żółć and the treasurer corrects one; a syncing child process sends the gifts,
 * then their history, which HQ commits while the answer hangs — and the child is killed with
 * kill -9 right then. A new process started at once sends the history again (nothing was written
 * down as sent), and HQ shows each entry once.
 *
 * Real parts: the laptop's SQLite file, HQ a GiftDesk server over HTTP behind the fault proxy,
 * the engine in its own process (engine-child.ts), killed with SIGKILL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { actingAs } from '../../electron/domain/context.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { correctDonation, createDonation } from '../../electron/domain/donations/index.ts';
import { rawRequest } from '../helpers/server.ts';
import { type SyncRig, startRig } from './rig.ts';

const CHILD = path.resolve('test/sync/engine-child.ts');
const TIMEOUT_MS = 1500;
let rig: SyncRig;

function spawnEngine(): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', 'tsx', CHILD, rig.local.dataDir, rig.local.accountId, 'auto', '1200', String(TIMEOUT_MS)],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
}

const person = (name: string) => ({ userId: null, keyId: null, name, stationId: null, stationName: null });
const historyPosts = () => rig.proxy.records.filter((r) => r.path.startsWith('/api/v1/history'));

beforeAll(async () => {
  let hung = false;
  rig = await startRig({
    timeoutMs: TIMEOUT_MS,
    // The first send of the history: HQ commits it, and the answer never comes.
    rule: (req) => {
      if (!req.path.startsWith('/api/v1/history') || hung) return { kind: 'forward' };
      hung = true;
      return { kind: 'hangAfterCommit' };
    },
  });
});
afterAll(async () => {
  await rig?.close();
});

it('sends the history again after a kill -9 that followed HQ’s commit, and HQ holds each entry once', async () => {
  const { ctx, accountId, campaignId } = rig.local;
  const vera = actingAs(ctx, person('Vera Volunteer'));
  const donor = await createContact(vera, { accountId, firstName: 'Łukasz', lastName: 'Żółć' });
  const gift = { accountId, contactId: donor.id, donationAmount: 19.99, donationDate: '2026-12-01' };
  const first = await createDonation(vera, { ...gift, paymentMethod: 'cash', campaignId });
  await createDonation(vera, { ...gift, paymentMethod: 'cash', campaignId });
  await correctDonation(actingAs(ctx, person('Tess Treasurer')), accountId, first.id, {
    donationAmount: 29.99,
  });

  const child = spawnEngine();
  await expect
    .poll(() => historyPosts().some((r) => r.forwarded), { timeout: 30_000, interval: 10 })
    .toBe(true);
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));

  const again = spawnEngine();
  const code = await new Promise((resolve) => again.once('exit', resolve));
  expect(code).toBe(0);
  expect(historyPosts().length).toBe(2);

  const link = await rig.local.store.db
    .selectFrom('syncLinks')
    .select('remoteId')
    .where('entityType', '=', 'donation')
    .where('localId', '=', first.id)
    .executeTakeFirstOrThrow();
  const r = await rawRequest(
    `${rig.remote.url}/api/v1/donations/${link.remoteId}/history?accountId=${rig.hq.accountId}`,
    'GET',
    undefined,
    { 'x-api-key': rig.hq.keyId, authorization: `Bearer ${rig.hq.secret}` },
  );
  const h = r.body as {
    entered: { by: { label: string } };
    data: Array<{ action: string; by: { label: string }; changes: unknown[] }>;
  };
  expect(h.entered.by.label).toBe('Vera Volunteer');
  expect(h.data.map((e) => `${e.action} ${e.by.label}`)).toEqual(['corrected Tess Treasurer']);
  expect(h.data[0]!.changes).toContainEqual({ field: 'donationAmount', before: 19.99, after: 29.99 });
  const rows = await rig.remote.store.db
    .selectFrom('donationHistory')
    .innerJoin('donations', 'donations.id', 'donationHistory.donationId')
    .select('donationHistory.action')
    .where('donations.accountId', '=', rig.hq.accountId)
    .execute();
  expect(rows.map((x) => x.action).sort()).toEqual(['corrected', 'entered', 'entered']);
});
