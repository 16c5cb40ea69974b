/**
 * Exactly once across process deaths and between processes:
 * - kill -9 of a syncing child process at random points (as a request reaches HQ, between
 *   HQ's commit and its answer, or at a random moment), restart on the same SQLite file,
 *   finish — HQ still has every record exactly once;
 * - two engines on one database (two processes would be the app and `giftdesk serve`): the
 *   lease lets one push; no record is ever POSTed twice.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { createSyncEngine } from '../../electron/sync/engine.ts';
import { forwardAll, type FaultAction } from './fault-proxy.ts';
import { createRng, testSeeds, withSeed } from './random.ts';
import { checkHqMatchesLocal, startHq, startRig, syncToCompletion, testKeys, type HqSide, type SyncRig } from './rig.ts';
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
}

function spawnEngine(rig: SyncRig, holder: string): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, rig.local.dataDir, rig.local.accountId, holder, String(LEASE_MS), String(TIMEOUT_MS)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const lines: Record<string, unknown>[] = [];
  readline.createInterface({ input: proc.stdout! }).on('line', (l) => {
    try {
      lines.push(JSON.parse(l) as Record<string, unknown>);
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
  return { proc, exited, lines };
}

/** Each seed restarts the syncing process three times (and waits out a lease each time): a few seeds only. */
const KILL_SEEDS = testSeeds().slice(0, Number(process.env.GIFTDESK_KILL_SEEDS ?? (process.env.CI ? 4 : 2)));

describe(`kill -9 of a syncing process at random points (${KILL_SEEDS.length} seeds)`, () => {
  it.each(KILL_SEEDS)('seed %i: restarted, it finishes with every record at HQ exactly once', async (seed) => {
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
              ? setTimeout(() => {
                  killNow();
                  kinds.push('at a random moment');
                }, rng.int(200, 1500))
              : null;
          const end = await child.exited;
          if (timer) clearTimeout(timer);
          if (end.code === 0) break;
          expect(end.signal, `engine child failed: ${JSON.stringify(child.lines.slice(-3))}`).toBe('SIGKILL');
          expect(generation).toBeLessThan(12);
          // The dead holder's lease must run out before another process may push.
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
  });
});

describe('two engines on one database', () => {
  it('only the lease holder pushes: no record is POSTed twice, HQ matches', async () => {
    await withSeed(4242, FILE, async (rng) => {
      const rig = await startRig({ hqSide: hq });
      const second = await openStore({ dataDir: rig.local.dataDir });
      const a = createSyncEngine({ store: rig.local.store, keys: testKeys, makeClient: rig.makeClient, holderId: 'eng_app', leaseMs: 5000 });
      const b = createSyncEngine({ store: second, keys: testKeys, makeClient: rig.makeClient, holderId: 'eng_serve', leaseMs: 5000 });
      const start = rig.proxy.records.length;
      try {
        const w = newWorkload();
        const passes: Promise<unknown>[] = [];
        for (let i = 0; i < 80; i++) {
          await randomWrite(rig.local, rng, w);
          if (i % 7 === 0) passes.push(a.runPass({ accountId: rig.local.accountId }), b.runPass({ accountId: rig.local.accountId }));
        }
        await Promise.all(passes);
        const results = await Promise.all([a.runPass({ accountId: rig.local.accountId }), b.runPass({ accountId: rig.local.accountId })]);
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
