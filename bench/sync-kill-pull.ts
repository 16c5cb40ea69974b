/**
 * The sync benches on a child process and on the directory: resume after kill -9 of a
 * syncing process, and the pull of HQ's contacts against its floor (pages ÷ rate).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import readline from 'node:readline';
import { createContact } from '../electron/domain/contacts/index.ts';
import { createDonation } from '../electron/domain/donations/index.ts';
import { defaultClient, REQUEST_TIMEOUT_MS } from '../electron/sync/push/default-client.ts';
import { LEASE_MS } from '../electron/sync/outbox/lease.ts';
import { pullFromHq, PULL_PAGE_SIZE } from '../electron/sync/pull/pull.ts';
import { loadRemoteConfig } from '../electron/sync/remote/settings.ts';
import { seedContacts } from '../test/helpers/seed-contacts.ts';
import { checkHqMatchesLocal, type SyncRig, startRig, testKeys } from '../test/sync/rig.ts';
import { type SyncBenchResult, type Log, fmt, RATE, CHILD, hqSide } from './sync-common.ts';

interface Child {
  proc: ChildProcess;
  exited: Promise<number | null>;
  startedAt: Promise<number>;
}

function spawnEngine(rig: SyncRig, holder: string): Child {
  const proc = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      CHILD,
      rig.local.dataDir,
      rig.local.accountId,
      holder,
      String(LEASE_MS),
      String(REQUEST_TIMEOUT_MS),
      '100000',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  const startedAt = new Promise<number>((resolve) => {
    readline.createInterface({ input: proc.stdout! }).on('line', (l) => {
      if (l.includes('"started"')) resolve(Date.now());
    });
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, exited, startedAt };
}

export async function benchKillResume(scale: number, log: Log, out: SyncBenchResult): Promise<void> {
  const donors = Math.max(20, Math.round(100 * scale));
  log(`sync: kill -9 of a syncing process, restart, time until sending resumes (lease ${LEASE_MS} ms)`);
  const hq = await hqSide();
  const rig = await startRig({ hqSide: hq, ratePerSecond: RATE });
  try {
    const { ctx, accountId, campaignId } = rig.local;
    for (let i = 0; i < donors; i++) {
      const c = await createContact(ctx, { accountId, firstName: 'Crash', lastName: `Donor${i}` });
      await createDonation(ctx, {
        accountId,
        contactId: c.id,
        donationAmount: 30 + i,
        donationDate: '2026-11-24',
        paymentMethod: 'cash',
        campaignId,
      });
    }
    const first = spawnEngine(rig, 'auto');
    // Killed while requests flow: as the 8th request reaches HQ (it is applied after the death).
    let killedAt = 0;
    const killed = new Promise<void>((resolve) => {
      rig.proxy.setRule((r) => {
        if (r.index >= 7 && killedAt === 0) {
          first.proc.kill('SIGKILL');
          killedAt = Date.now();
          resolve();
        }
        return { kind: 'forward' };
      });
    });
    await killed;
    await first.exited;
    const seen = rig.proxy.records.length;
    const second = spawnEngine(rig, 'auto');
    const spawnedAt = Date.now();
    const startedAt = await second.startedAt;
    const code = await second.exited;
    if (code !== 0) throw new Error(`the restarted engine exited ${code}`);
    const resumedAt = rig.proxy.records[seen]?.at;
    if (resumedAt === undefined) throw new Error('the restarted engine sent nothing');
    await checkHqMatchesLocal(rig);
    const resume = (resumedAt - killedAt) / 1000;
    out.rows.push({
      name: 'kill -9 of the syncing process, restarted at once: time until sending resumes',
      figure: `${fmt(resume, 2)} s from the kill to HQ's next request (process up and engine created ${fmt((startedAt - spawnedAt) / 1000, 2)} s after restart)`,
      reference: `the lease: ${fmt(LEASE_MS / 1000, 0)} s (what a restart waited before the dead holder could be taken over at once)`,
      ratio: (resume / 2).toFixed(2) + '× the goal',
      goal: 'under 2 s',
      met: resume < 2 ? 'yes' : 'no',
    });
    out.notes.push(
      `kill -9: a child process (test/sync/engine-child.ts: the engine with the production lease of ${LEASE_MS / 1000} s and request deadline of ${REQUEST_TIMEOUT_MS / 1000} s) pushing ${donors} donors and their gifts at ${RATE}/s is killed as its 8th request reaches HQ; a new process starts at once on the same SQLite file. Both use the production holder id (host/pid/deadline, lease.ts): the new process sees the holder's process is gone and takes the lease over at once instead of waiting for it to expire, pushes every record that was not in flight at once (the figure), and reconciles what was in flight only after twice the request deadline from the dead holder's last lease renewal (a request it sent may still be running at HQ); then it finishes. HQ matched the local intent afterwards (exactly once).`,
    );
  } catch (e) {
    out.ok = false;
    throw e;
  } finally {
    await rig.close();
    await hq.close();
  }
}

export async function benchPull(scale: number, log: Log, out: SyncBenchResult): Promise<void> {
  const total = Math.max(1000, Math.round(100_000 * scale));
  log(`sync: pull of ${fmt(total, 0)} HQ contacts at ${RATE}/s`);
  const hq = await hqSide();
  const rig = await startRig({ hqSide: hq, ratePerSecond: RATE });
  try {
    await seedContacts(hq.remote.store, rig.hq.accountId, total);
    const cfg = (await loadRemoteConfig(rig.local.store.db, testKeys, rig.local.accountId))!;
    const from = hq.proxy.records.length;
    const t0 = Date.now();
    const run = await pullFromHq({
      ctx: rig.local.ctx,
      remote: defaultClient(cfg),
      accountId: rig.local.accountId,
      remoteAccountId: rig.hq.accountId,
      emailMatch: cfg.emailMatch,
    });
    const seconds = (Date.now() - t0) / 1000;
    if (run.status !== 'done') throw new Error(`pull ${run.status}: ${run.error}`);
    const local = await rig.local.store.db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('accountId', '=', rig.local.accountId)
      .executeTakeFirstOrThrow();
    if (Number(local.n) !== total) throw new Error(`pulled ${local.n} contacts of ${total}`);
    const requests = hq.proxy.records.length - from;
    const pages = Math.ceil(total / PULL_PAGE_SIZE);
    const floor = pages / RATE;
    out.rows.push({
      name: `Pull of ${fmt(total, 0)} HQ contacts at ${RATE} requests/s`,
      figure: `${fmt(seconds)} s (${requests} requests, ${fmt(total / seconds, 0)} contacts/s)`,
      reference: `floor: ${pages} pages ÷ ${RATE}/s = ${fmt(floor)} s`,
      ratio: (seconds / floor).toFixed(2),
      goal: 'report (≤ 1.10 of the floor, my reading)',
      met: seconds / floor <= 1.1 ? 'yes' : 'no',
    });
    out.notes.push(
      `Pull: ${fmt(total, 0)} contacts seeded at HQ, then \`pullFromHq\` (the code behind \`giftdesk sync pull\`) with the production client at ${RATE}/s, reference data first (its reads count too), contacts in pages of ${PULL_PAGE_SIZE}, every one written to the local SQLite file (checked by count). The issue names the floor and no goal; ≤ 1.10 is my reading.`,
    );
  } finally {
    await rig.close();
    await hq.close();
  }
}
