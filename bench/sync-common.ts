/**
 * What the sync benches share (bench/sync.ts runs them): the result row, HQ behind the fault
 * proxy, the production engine, the pull that comes first, and the workload rounds.
 */
import path from 'node:path';
import { createContact, deleteContact, updateContact } from '../electron/domain/contacts/index.ts';
import { createDonation } from '../electron/domain/donations/index.ts';
import { matchContactByEmail } from '../electron/sync/push/email-match.ts';
import { createSyncEngine } from '../electron/sync/push/engine.ts';
import { defaultClient } from '../electron/sync/push/default-client.ts';
import { pullFromHq } from '../electron/sync/pull/pull.ts';
import { loadRemoteConfig } from '../electron/sync/remote/settings.ts';
import { startTestServer } from '../test/helpers/server.ts';
import { type ProxyRecord, startFaultProxy } from '../test/sync/fault-proxy.ts';
import { type HqSide, type SyncRig, testKeys } from '../test/sync/rig.ts';
export { syncedChanges } from '../test/sync/rig.ts';

export interface SyncRow {
  name: string;
  figure: string;
  reference: string;
  ratio: string;
  goal: string;
  met: string;
}

export interface SyncBenchResult {
  rows: SyncRow[];
  notes: string[];
  /** False when HQ did not match the local intent (a lost or doubled record). */
  ok: boolean;
}

export type Log = (s: string) => void;
export const fmt = (n: number, d = 1) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
export const RATE = 5;
export const CHILD = path.resolve('test/sync/engine-child.ts');

/** BENCH_SYNC_HQ=spec-only: HQ answers the donor API alone (`serve --spec-only`: no create-once, no extension route). */
export const SPEC_ONLY_HQ = process.env.BENCH_SYNC_HQ === 'spec-only';

export async function hqSide(rateLimit?: { ratePerSecond: number; burst: number }): Promise<HqSide> {
  const remote = await startTestServer({
    engine: 'sqlite',
    ...(rateLimit ? { rateLimit } : {}),
    ...(SPEC_ONLY_HQ ? { specOnly: true } : {}),
  });
  const proxy = await startFaultProxy({ target: remote.url });
  return {
    remote,
    proxy,
    async close() {
      await proxy.close();
      await remote.close();
    },
  };
}

/** The production engine for a rig's local file: the settings' rate, burst 1, the production deadline, the email match. */
export function productionEngine(rig: SyncRig) {
  return createSyncEngine({
    store: rig.local.store,
    keys: testKeys,
    makeClient: defaultClient,
    matchContact: matchContactByEmail,
  });
}

/** What the app does before an event: a pull from HQ (reference data and contacts), which also makes the email match's directory fresh. */
export async function pullFirst(rig: SyncRig): Promise<void> {
  const cfg = (await loadRemoteConfig(rig.local.store.db, testKeys, rig.local.accountId))!;
  const run = await pullFromHq({
    ctx: rig.local.ctx,
    remote: defaultClient(cfg),
    accountId: rig.local.accountId,
    remoteAccountId: rig.hq.accountId,
    emailMatch: cfg.emailMatch,
  });
  if (run.status !== 'done') throw new Error(`the pull before the event ${run.status}: ${run.error}`);
}

/**
 * The workload of the requests-per-change figures, in three rounds each synced to the end
 * before the next (so nothing coalesces — coalescing would flatter the figure): `n` donors
 * created, half with an email, each with one gift; then every donor edited once; then a
 * quarter of them created anew and deleted after they reached HQ.
 */
export async function roundsWorkload(
  rig: SyncRig,
  engine: ReturnType<typeof productionEngine>,
  n: number,
  sync: () => Promise<unknown>,
): Promise<void> {
  const { ctx, accountId, campaignId } = rig.local;
  void engine;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const c = await createContact(ctx, {
      accountId,
      firstName: 'Bench',
      lastName: `Donor${i}`,
      ...(i % 2 === 0 ? { primaryEmail: `bench.donor${i}@example.org` } : {}),
    });
    ids.push(c.id);
    await createDonation(ctx, {
      accountId,
      contactId: c.id,
      donationAmount: 10 + (i % 90),
      donationDate: '2026-11-24',
      paymentMethod: 'cash',
      campaignId,
    });
  }
  await sync();
  for (let i = 0; i < n; i++) await updateContact(ctx, accountId, ids[i]!, { organization: `Org ${i}` });
  await sync();
  const gone: string[] = [];
  for (let i = 0; i < Math.ceil(n / 4); i++)
    gone.push((await createContact(ctx, { accountId, firstName: 'Passing', lastName: `Guest${i}` })).id);
  await sync();
  for (const id of gone) await deleteContact(ctx, accountId, id);
  await sync();
}

export const isWrite = (r: ProxyRecord) => r.method !== 'GET';
