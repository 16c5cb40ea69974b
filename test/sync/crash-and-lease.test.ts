/**
 * Exactly once across process deaths and between processes:
 * - kill -9 of a syncing child process at random points (as a request reaches HQ, between
 *   HQ's commit and its answer, or at a random moment), restart on the same SQLite file,
 *   finish — HQ still has every record exactly once;
 * - two engines on one database (two processes would be the app and `giftdesk serve`): the
 *   lease lets one push; no record is ever POSTed twice;
 * - the takeover rule (lease.ts): a holder whose process on this machine is gone is taken over
 *   at once; a live one, another machine's, or a hand-set id only after its lease expired;
 * - kill -9 with the production holder id, restarted at once: the new process pushes at once
 *   (long before the lease would expire), and the record that was in flight — its POST reaching
 *   HQ only after the death — is looked for only after the dead process's deadline, so it
 *   lands exactly once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { acquireLease, hostKey, parseHolder, processHolderId } from '../../electron/sync/outbox/lease.ts';
import { tempDir } from '../helpers/server.ts';
import { forwardAll, type FaultAction } from './fault-proxy.ts';
import { createRng, testSeeds, withSeed } from './random.ts';
import {
  checkHqMatchesLocal,
  startHq,
  startRig,
  syncToCompletion,
  testKeys,
  type HqSide,
  type SyncRig,
} from './rig.ts';
import { newWorkload, randomWrite } from './workload.ts';

const FILE = 'test/sync/crash-and-lease.test.ts';
const CHILD = path.resolve('test/sync/engine-child.ts');
const LEASE_MS = 1200;
const TIMEOUT_MS = 800;

let hq: HqSide;
beforeAll(async () => {
  hq = await startHq();
});
afterAll(async () => {
  await hq?.close();
});

interface Child {
  proc: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  lines: Record<string, unknown>[];
  /** Resolves when the engine is created (its first pass is next). */
  started: Promise<void>;
}

function spawnEngine(rig: SyncRig, holder: string, leaseMs = LEASE_MS, timeoutMs = TIMEOUT_MS): Child {
  const proc = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      CHILD,
      rig.local.dataDir,
      rig.local.accountId,
      holder,
      String(leaseMs),
      String(timeoutMs),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  const lines: Record<string, unknown>[] = [];
  let onStarted = () => {};
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  readline.createInterface({ input: proc.stdout! }).on('line', (l) => {
    try {
      const line = JSON.parse(l) as Record<string, unknown>;
      lines.push(line);
      if ('started' in line) onStarted();
    } catch {
      /* not ours */
    }
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => {
      if (code && code !== 0) console.error(`engine child ${holder} exited ${code}: ${stderr.slice(-2000)}`);
      resolve({ code, signal });
    }),
  );
  return { proc, exited, lines, started };
}

/** Each seed restarts the syncing process three times (and waits out a lease each time): a few seeds only. */
const KILL_SEEDS = testSeeds().slice(0, Number(process.env.GIFTDESK_KILL_SEEDS ?? (process.env.CI ? 4 : 2)));

describe(`kill -9 of a syncing process at random points (${KILL_SEEDS.length} seeds, HQ ${process.env.GIFTDESK_TEST_HQ === 'spec-only' ? 'with the donor API alone' : 'GiftDesk'})`, () => {
  it.each(KILL_SEEDS)(
    'seed %i: restarted, it finishes with every record at HQ exactly once',
    async (seed) => {
      await withSeed(seed, FILE, async (rng) => {
        const rig = await startRig({ hqSide: hq });
        try {
          const w = newWorkload();
          for (let i = 0; i < 60; i++) await randomWrite(rig.local, rng, w);
          let killed = 0;
          let child: Child | null = null;
          let generation = 0;
          const killNow = () => {
            if (child && child.proc.exitCode === null && child.proc.signalCode === null) {
              child.proc.kill('SIGKILL');
              killed++;
            }
          };
          // The fate of each request: most pass; now and then the syncing process dies — as the
          // request reaches HQ (it is applied after the death), or after HQ committed and before
          // the answer gets back.
          // Kill 1: between HQ's commit and its answer, on a POST picked by the seed.
          // Kill 2: as a later POST reaches HQ (HQ applies it after the sender died).
          // Kill 3: at a random moment of the next run.
          const fate = createRng(seed * 31 + 7);
          const firstAt = fate.int(2, 12);
          let posts = 0;
          const kinds: string[] = [];
          rig.proxy.setRule((r): FaultAction => {
            if (r.method !== 'POST') return { kind: 'forward' };
            posts++;
            if (killed === 0 && posts >= firstAt) {
              return {
                kind: 'forward',
                beforeAnswer: async () => {
                  killNow();
                  kinds.push('after commit, before the answer');
                },
              };
            }
            if (killed === 1 && fate.chance(0.3)) {
              killNow();
              kinds.push('as the request reached HQ');
            }
            return { kind: 'forward' };
          });
          for (;;) {
            child = spawnEngine(rig, `eng_kill_${seed}_${generation++}`);
            // and sometimes at a random moment
            const timer =
              killed === 2
                ? setTimeout(
                    () => {
                      killNow();
                      kinds.push('at a random moment');
                    },
                    rng.int(200, 1500),
                  )
                : null;
            const end = await child.exited;
            if (timer) clearTimeout(timer);
            if (end.code === 0) break;
            expect(end.signal, `engine child failed: ${JSON.stringify(child.lines.slice(-3))}`).toBe(
              'SIGKILL',
            );
            expect(generation).toBeLessThan(12);
            // Hand-set holder ids keep the expiry rule (lease.ts): the dead holder's lease must
            // run out before another process may push. (The production ids are tested below.)
            await new Promise((r) => setTimeout(r, LEASE_MS + 100));
          }
          rig.proxy.setRule(forwardAll);
          const report = await checkHqMatchesLocal(rig);
          expect(report.contacts).toBe(w.contacts.size);
          expect(kinds[0]).toBe('after commit, before the answer');
          expect(killed).toBeGreaterThanOrEqual(2);
        } finally {
          await rig.close();
        }
      });
    },
  );
});

describe('two engines on one database', () => {
  it('only the lease holder pushes: no record is POSTed twice, HQ matches', async () => {
    await withSeed(4242, FILE, async (rng) => {
      const rig = await startRig({ hqSide: hq });
      const second = await openStore({ dataDir: rig.local.dataDir });
      const a = createSyncEngine({
        store: rig.local.store,
        keys: testKeys,
        makeClient: rig.makeClient,
        holderId: 'eng_app',
        leaseMs: 5000,
      });
      const b = createSyncEngine({
        store: second,
        keys: testKeys,
        makeClient: rig.makeClient,
        holderId: 'eng_serve',
        leaseMs: 5000,
      });
      const start = rig.proxy.records.length;
      try {
        const w = newWorkload();
        const passes: Promise<unknown>[] = [];
        for (let i = 0; i < 80; i++) {
          await randomWrite(rig.local, rng, w);
          if (i % 7 === 0)
            passes.push(
              a.runPass({ accountId: rig.local.accountId }),
              b.runPass({ accountId: rig.local.accountId }),
            );
        }
        await Promise.all(passes);
        const results = await Promise.all([
          a.runPass({ accountId: rig.local.accountId }),
          b.runPass({ accountId: rig.local.accountId }),
        ]);
        expect(results.filter((r) => (r as { ran: boolean }).ran).length).toBeLessThanOrEqual(1);
        await syncToCompletion(a, rig);
        await checkHqMatchesLocal(rig);
        // Every create reached HQ once: one POST per gd: identity.
        const posts = rig.proxy.records.slice(start).filter((r) => r.method === 'POST' && r.forwarded);
        const refs = posts.map((r) => /gd:((?:cnt|don)_[0-9A-Za-z]+)/.exec(r.body)?.[1] ?? `?${r.index}`);
        const twice = refs.filter((x, i) => refs.indexOf(x) !== i);
        expect(twice).toEqual([]);
      } finally {
        await a.stop();
        await b.stop();
        await second.close();
        await rig.close();
      }
    });
  });
});

describe('taking the lease over from a process that is gone', () => {
  /** A real process that has exited (and been reaped): its pid names no process. */
  async function deadPid(): Promise<number> {
    const p = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise((r) => p.on('exit', r));
    return p.pid!;
  }

  it('a dead pid on this host is taken at once; a live pid, another host or a hand-set id wait for expiry', async () => {
    const dataDir = tempDir('giftdesk-lease-');
    const store = await openStore({ dataDir });
    try {
      const t0 = Date.now();
      const ttl = 600_000;
      const deadline = 700;
      const me = processHolderId(deadline);
      const gone = await deadPid();
      const cases = [
        { name: 'dead pid, this host', holder: processHolderId(deadline, gone), takenEarly: true },
        {
          name: 'live pid (this very process), this host',
          holder: processHolderId(deadline, process.pid),
          takenEarly: false,
        },
        {
          name: 'dead pid, another host',
          holder: processHolderId(deadline, gone, `${hostKey()}-elsewhere`),
          takenEarly: false,
        },
        { name: 'hand-set holder id', holder: `eng_app_${gone}`, takenEarly: false },
      ];
      for (const c of cases) {
        expect(parseHolder(c.holder) === null, c.name).toBe(c.name === 'hand-set holder id');
        expect(await acquireLease(store, c.holder, t0, ttl), c.name).toEqual({
          fresh: true,
          inFlightSettledAt: null,
        });
        const early = await acquireLease(store, me, t0 + 100, ttl);
        if (c.takenEarly) {
          // What it had in flight waits out its deadline twice from its last renewal (t0).
          expect(early, c.name).toEqual({ fresh: true, inFlightSettledAt: t0 + 2 * deadline });
        } else {
          expect(early, c.name).toBeNull();
          // After expiry, the old rule: taken, nothing left to wait for.
          expect(await acquireLease(store, me, t0 + ttl + 1, ttl), c.name).toEqual({
            fresh: true,
            inFlightSettledAt: null,
          });
        }
        await store.write((trx) => trx.deleteFrom('syncLease').execute());
      }
      // Our own holder is renewed, never "taken over".
      expect(await acquireLease(store, me, t0, ttl)).toEqual({ fresh: true, inFlightSettledAt: null });
      expect(await acquireLease(store, me, t0 + 1, ttl)).toEqual({ fresh: false, inFlightSettledAt: null });
    } finally {
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('restarted at once after kill -9, it pushes long before the lease would expire; the record in flight lands exactly once', async () => {
    // At 20/s the engine runs a few lanes side by side, so most donors are still untouched when
    // it dies (at 1000/s every contact would be in flight at once, leaving nothing to resume).
    const rig = await startRig({ hqSide: hq, ratePerSecond: 20 });
    try {
      const { ctx, accountId, campaignId } = rig.local;
      for (let i = 0; i < 20; i++) {
        const c = await createContact(ctx, { accountId, firstName: 'Restart', lastName: `Donor${i}` });
        await createDonation(ctx, {
          accountId,
          contactId: c.id,
          donationAmount: 40 + i,
          donationDate: '2026-11-24',
          paymentMethod: 'cash',
          campaignId,
        });
      }
      // A lease far longer than this test may run: the restart must not wait for it. The
      // deadline is long enough that the restarted process is up well before the dead one's
      // in-flight record may be looked for (2 × deadline after its last renewal).
      const longLease = 600_000;
      const deadline = 8000;
      const first = spawnEngine(rig, 'auto', longLease, deadline);
      // The 3rd POST: the sender dies as it reaches the proxy; HQ gets it (and applies it) 4 s
      // later, inside the dead sender's deadline. Reconciling it before then would find nothing
      // and post it again: a double.
      let posts = 0;
      let inFlight: { index: number; ref: string } | null = null;
      rig.proxy.setRule((r): FaultAction => {
        if (r.method !== 'POST' || inFlight) return { kind: 'forward' };
        if (++posts < 3) return { kind: 'forward' };
        first.proc.kill('SIGKILL');
        inFlight = { index: r.index, ref: /gd:((?:cnt|don)_[0-9A-Za-z]+)/.exec(r.body)![1]! };
        return { kind: 'forward', delayMs: deadline / 2 };
      });
      const end = await first.exited;
      expect(end.signal).toBe('SIGKILL');
      const dead = await rig.local.store.db.selectFrom('syncLease').selectAll().executeTakeFirstOrThrow();
      expect(parseHolder(dead.holder)?.pid).toBe(first.proc.pid);
      const lastRenewal = Date.parse(dead.renewedAt);

      const second = spawnEngine(rig, 'auto', longLease, deadline);
      // Counted from the new engine's start: requests the dead process had already written to
      // its sockets may still reach the proxy just after the kill.
      await second.started;
      const seen = rig.proxy.records.length;
      expect((await second.exited).code).toBe(0);
      rig.proxy.setRule(forwardAll);
      const after = rig.proxy.records.slice(seen);
      // Sending resumed, and the whole drain ended, long before the dead holder's lease ran out.
      expect(after.length).toBeGreaterThan(0);
      expect(after.every((r) => r.at < Date.parse(dead.expiresAt))).toBe(true);
      // Records that were not in flight went at once: POSTs came before any look at HQ.
      const firstLook = after.findIndex((r) => r.method === 'GET');
      expect(firstLook).toBeGreaterThan(0);
      expect(after.slice(0, firstLook).some((r) => r.method === 'POST')).toBe(true);
      // The in-flight record was looked for only after the dead process's deadline (twice).
      for (const r of after.filter((x) => x.method === 'GET'))
        expect(r.at).toBeGreaterThanOrEqual(lastRenewal + 2 * deadline);
      // HQ got its delayed POST, and nobody posted it again: exactly once.
      const killed = rig.proxy.records[inFlight!.index]!;
      expect(killed.forwarded).toBe(true);
      expect(killed.upstreamStatus).toBe(201);
      const again = rig.proxy.records.filter(
        (r) => r.method === 'POST' && r.forwarded && r.body.includes(`gd:${inFlight!.ref}`),
      );
      expect(again.map((r) => r.index)).toEqual([inFlight!.index]);
      await checkHqMatchesLocal(rig);
    } finally {
      await rig.close();
    }
  }, 180_000);
});
