/**
 * Exactly once under random faults, over the fixed seeds (GIFTDESK_SEEDS; 200 in CI): for each
 * seed, hundreds of local writes — contacts created, edited and deleted, gifts entered, and in
 * every seed each event case of workload.ts (twin gifts, namesakes, gifts to a donor created a
 * moment ago, notes staff rewrote at HQ, deletes and edits racing a create on the wire) —
 * interleaved with sync passes in flight, against HQ behind a proxy that drops answers after
 * the commit, resets, hangs, answers 429/500/503 and forward-then-500/503 at random, more often
 * for the requests of records in an event case. Then sync to the end and HQ must equal the
 * local intent (rig.ts: checkHqMatchesLocal): no duplicate, no loss, the last local value of
 * every field, every delete done, nothing in flight.
 * A failure names its seed: `GIFTDESK_SEED=n npx vitest run test/sync/exactly-once`.
 *
 * Coverage: each faulted request is counted by its fault kind and the event cases of the
 * records it concerns; a file that runs at least COVERAGE_SEEDS seeds asserts every kind of
 * COVERED_KINDS hit every case at least once (and prints the matrix; fewer seeds only print it).
 * Cost: each file prints the requests HQ received per synced change (every request through the
 * proxy, reads and retries included, ÷ the local change-log rows meant for HQ; edits made
 * between two passes go as one request, as in the app) and, from COVERAGE_SEEDS seeds, asserts
 * it under MAX_REQUESTS_PER_CHANGE.
 *
 * The seeds are split over two test files (exactly-once-{1,2}.test.ts, odd and even seeds) so
 * that vitest runs them on both cores. Within a file, CONCURRENT seeds run at once, each with an
 * HQ and fault proxy of its own: a seed spends most of its time waiting (deadlines, backoffs,
 * fsync), about a third of it computing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clock, systemClock } from '../../electron/sync/net/clock.ts';
import { findRemoteContactByEmail } from '../../electron/sync/push/email-match.ts';
import type { ContactMatcher } from '../../electron/sync/push/engine.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { seededFaultDraws, type FaultKind, type FaultMix } from './fault-proxy.ts';
import { testSeeds, withSeed } from './random.ts';
import {
  checkHqMatchesLocal,
  startHq,
  startRig,
  syncedChanges,
  syncToCompletion,
  testKeys,
  type HqSide,
} from './rig.ts';
import {
  CASES,
  completeCases,
  completeStaffEdit,
  newWorkload,
  randomWrite,
  type EventCase,
} from './workload.ts';
import { eventRule } from './workload-faults.ts';

const FILE = 'test/sync/exactly-once';
/**
 * Writes per seed: "hundreds", but small enough that 200 seeds fit in a few minutes (90 since
 * every seed holds every event case of workload.ts, whose reconciles cost more requests).
 */
const WRITES = Number(process.env.GIFTDESK_SYNC_WRITES ?? 90);
/** Passes with faults after the writes; then HQ is reachable again so every run ends. */
const FAULTY_PASSES = Number(process.env.GIFTDESK_SYNC_FAULTY_PASSES ?? 4);

const MIX: FaultMix = {
  forward: 64,
  slow: 4,
  dropAfterCommit: 8,
  resetBeforeForward: 6,
  status500: 4,
  status503: 3,
  forwardThen503: 5,
  status429: 4,
  status429NoHint: 2,
};

/** For the requests of records in an event case: every kind (500 after HQ applied it too), at about MIX's rate (hangs: see hangCaseOf). */
const CASE_MIX: FaultMix = {
  forward: 64,
  slow: 3,
  dropAfterCommit: 5,
  resetBeforeForward: 5,
  status500: 1,
  status500AfterCommit: 5,
  status503: 5,
  forwardThen503: 2,
  status429: 4,
  status429NoHint: 3,
};

/** The client's deadline here: a hang lasts this long (the rig's default is 1500 ms). */
const DEADLINE_MS = 600;
/**
 * One seed in four hangs one request (the first of a record in its case; the cases take
 * turns over the seeds, odd and even alike): enough that each case meets a hang in a file's
 * 100 seeds, few enough that the suite's time stays about what it was.
 */
function hangCaseOf(seed: number): EventCase | undefined {
  const k = Math.floor(seed / 2);
  return k % 4 === 0 ? CASES[Math.floor(k / 4) % CASES.length] : undefined;
}
/**
 * The app matches a new contact to HQ's by email (serve.ts); every other seed does, odd and
 * even alike (each match is a search at HQ more per contact with an email).
 */
const emailMatchOn = (seed: number) => Math.floor(seed / 2) % 2 === 1;

/** The app's email match (email-match.ts: matchContactByEmail), its retry pauses shortened as the rig's pacer's are. */
const fastClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => systemClock.sleep(Math.min(ms, 20), signal),
};
const matchContact: ContactMatcher = async ({ client, remoteAccountId, email }) => {
  const r = await findRemoteContactByEmail(client, remoteAccountId, email, { attempts: 2, clock: fastClock });
  if (r.kind === 'failed') throw new Error(r.message);
  return r.kind === 'found' ? r.remoteId : null;
};

/** The fault kinds that must each hit every event case over a file's seeds. */
const COVERED_KINDS: readonly FaultKind[] = [
  'dropAfterCommit',
  'resetBeforeForward',
  'status503',
  'status500AfterCommit',
  'hang',
  'status429',
  'status429NoHint',
];
/** Requests at HQ per synced change a file of at least COVERAGE_SEEDS seeds may take, at MIX's 32% faults. */
const MAX_REQUESTS_PER_CHANGE = 1.4;
/** A file running at least this many seeds (its share of CI's 200) asserts the coverage. */
const COVERAGE_SEEDS = 100;
/** Seeds of a file run at once (GIFTDESK_SYNC_CONCURRENT; 1 runs them one after another). */
const CONCURRENT = Math.max(1, Number(process.env.GIFTDESK_SYNC_CONCURRENT ?? 3));

/** HQs (each a server and its fault proxy) lent to one seed at a time. */
function hqPool(size: number, start: () => Promise<HqSide>) {
  const free: HqSide[] = [];
  const all: HqSide[] = [];
  const waiting: Array<(hq: HqSide) => void> = [];
  return {
    async start(): Promise<void> {
      for (let i = 0; i < size; i++) all.push(await start());
      free.push(...all);
    },
    async use<T>(fn: (hq: HqSide) => Promise<T>): Promise<T> {
      const hq = free.pop() ?? (await new Promise<HqSide>((resolve) => waiting.push(resolve)));
      try {
        return await fn(hq);
      } finally {
        const next = waiting.shift();
        if (next) next(hq);
        else free.push(hq);
      }
    },
    async close(): Promise<void> {
      for (const hq of all) await hq.close();
    },
  };
}

/** `hq`: GiftDesk (creates once per reference) or the donor API alone (`serve --spec-only`). */
export function exactlyOnceSuite(
  part: number,
  parts: number,
  hq: 'giftdesk' | 'spec-only' = 'giftdesk',
): void {
  const all = testSeeds();
  // A replayed seed (GIFTDESK_SEED=n) runs in the first part only.
  const seeds = all.length === 1 ? (part === 0 ? all : []) : all.filter((s) => s % parts === part);
  // Durability is not this suite's subject (kill -9 is crash-and-lease's): commits need not wait for the disk.
  const hqs = hqPool(Math.min(CONCURRENT, Math.max(1, seeds.length)), () =>
    startHq({ synchronous: 'NORMAL', specOnly: hq === 'spec-only' }),
  );
  beforeAll(() => hqs.start());
  afterAll(() => hqs.close());

  describe(`exactly once under random faults, HQ ${hq === 'spec-only' ? 'with the donor API alone' : 'GiftDesk'} (${seeds.length} of ${all.length} seeds, ${WRITES} writes each)`, () => {
    if (seeds.length === 0) it.skip('no seed of this part (a replayed seed runs in part 1)', () => undefined);
    const matrix = new Map<FaultKind, Record<EventCase, number>>();
    /** Each passed seed's requests at HQ (through the proxy) and the local changes they synced. */
    const traffic: Array<{ seed: number; requests: number; writes: number; changes: number }> = [];
    const count = (kind: FaultKind, cases: ReadonlySet<EventCase>) => {
      const row =
        matrix.get(kind) ?? (Object.fromEntries(CASES.map((c) => [c, 0])) as Record<EventCase, number>);
      for (const c of cases) row[c]++;
      matrix.set(kind, row);
    };
    // A seed waiting for a free HQ counts against its timeout: room for a few seeds' time.
    it.concurrent.each(seeds)('seed %i', { timeout: 180_000 }, async (seed) => {
      await hqs.use((hqSide) =>
        withSeed(seed, FILE, async (rng) => {
          const rig = await startRig({ hqSide, synchronous: 'NORMAL', timeoutMs: DEADLINE_MS });
          const engine = createSyncEngine({
            store: rig.local.store,
            keys: testKeys,
            makeClient: rig.makeClient,
            ...(emailMatchOn(seed) ? { matchContact } : {}),
            random: () => rng.next() * 0.002,
            leaseMs: 10_000,
          });
          try {
            const started = Date.now();
            const firstRecord = rig.proxy.records.length;
            const w = newWorkload();
            const faults = { maxLatencyMs: 15, retryAfterSeconds: 0.03 };
            rig.proxy.setRule(
              eventRule(rig, w, seed, {
                draw: seededFaultDraws(seed, MIX, faults),
                caseDraw: seededFaultDraws(seed ^ 0xca5e5, CASE_MIX, faults),
                hangCase: hangCaseOf(seed),
                onFault: count,
              }),
            );
            let pass: Promise<unknown> | null = null;
            const kick = () => {
              if (pass) return;
              pass = engine.runPass({ accountId: rig.local.accountId }).finally(() => {
                pass = null;
              });
            };
            w.kick = kick;
            // staff in HQ's web application (the API has no donation update)
            w.staffEditNotes = async (hqId, notes) => {
              await rig.remote.store.db
                .updateTable('donations')
                .set({ notes })
                .where('id', '=', hqId)
                .execute();
            };
            while (w.writes < WRITES) {
              if (rng.chance(0.25)) kick();
              await randomWrite(rig.local, rng, w);
              if (rng.chance(0.3)) await new Promise((r) => setTimeout(r, rng.int(0, 4)));
            }
            await completeCases(rig.local, rng, w);
            const writesDone = Date.now();
            if (pass) await pass;
            await completeStaffEdit(rig.local, rng, w);
            const healthy = () => ({ kind: 'forward' as const, action: { kind: 'forward' as const } });
            let drained = await syncToCompletion(engine, rig, {
              faultyPasses: FAULTY_PASSES,
              // the events still owed happen in the passes after the faults, however many passes
              // the faults took on this machine
              afterFaults: eventRule(rig, w, seed, { draw: healthy, caseDraw: healthy, onlyOwed: true }),
            });
            if (w.seen.hqEditedNotes === 0) {
              // no gift had reached HQ before the drain: staff edit one now
              await completeStaffEdit(rig.local, rng, w);
              drained = await syncToCompletion(engine, rig, { faultyPasses: 0 });
            }
            const report = await checkHqMatchesLocal(rig, { hqNotes: w.hqNotes });
            expect(report.contacts).toBe(w.contacts.size);
            expect(
              Object.entries(w.seen)
                .filter(([, n]) => n === 0)
                .map(([c]) => c),
              'event cases this seed never produced',
            ).toEqual([]);
            const sent = rig.proxy.records.slice(firstRecord);
            traffic.push({
              seed,
              requests: sent.length,
              writes: sent.filter((r) => r.method !== 'GET').length,
              changes: await syncedChanges(rig),
            });
            if (process.env.GIFTDESK_SYNC_STATS) {
              const byKind: Record<string, number> = {};
              for (const r of sent) {
                const k = `${r.method} ${r.path.split('?')[0]!.replace(/\/(cnt|don)_\w+/, '/:id')}`;
                byKind[k] = (byKind[k] ?? 0) + 1;
              }
              console.log(
                JSON.stringify({
                  seed,
                  ...traffic.at(-1),
                  writesMs: writesDone - started,
                  drainMs: Date.now() - writesDone,
                  passes: drained.passes,
                  ...report,
                  cases: w.seen,
                  requests: byKind,
                }),
              );
            }
          } finally {
            await engine.stop();
            await rig.close();
          }
        }),
      );
    });

    it(`fault kinds × event cases over this file's seeds (asserted from ${COVERAGE_SEEDS} seeds)`, () => {
      const rows = [...matrix.keys()]
        .sort()
        .map(
          (k) =>
            `${k.padEnd(22)} ${CASES.map((c) => String(matrix.get(k)![c]).padStart(c.length)).join(' ')}`,
        );
      console.log(
        `faulted requests by kind and event case, ${seeds.length} seeds:\n${' '.repeat(22)} ${CASES.join(' ')}\n${rows.join('\n')}`,
      );
      if (traffic.length > 0) {
        const sum = (k: 'requests' | 'writes' | 'changes') => traffic.reduce((n, t) => n + t[k], 0);
        const per = (n: number) => (n / sum('changes')).toFixed(3);
        const worst = traffic.reduce((a, b) => (b.requests / b.changes > a.requests / a.changes ? b : a));
        console.log(
          `requests at HQ per synced change, ${traffic.length} seeds: ${per(sum('requests'))} ` +
            `(${sum('requests')} requests for ${sum('changes')} changes; writes ${per(sum('writes'))}, ` +
            `reads ${per(sum('requests') - sum('writes'))}; the most, seed ${worst.seed}: ` +
            `${(worst.requests / worst.changes).toFixed(2)})`,
        );
        // Measured 1.24–1.28 per file over CI's 200 seeds on either kind of HQ (bench/RESULTS.md):
        // a guard with room for a busy machine, that an engine which posts blindly or reads per
        // record instead of per sweep does not pass.
        if (traffic.length >= COVERAGE_SEEDS)
          expect(sum('requests') / sum('changes'), 'requests at HQ per synced change').toBeLessThanOrEqual(
            MAX_REQUESTS_PER_CHANGE,
          );
      }
      if (seeds.length < COVERAGE_SEEDS) return;
      const missing = COVERED_KINDS.flatMap((k) =>
        CASES.filter((c) => (matrix.get(k)?.[c] ?? 0) === 0).map((c) => `${k} × ${c}`),
      );
      expect(missing, 'fault kind × event case never hit').toEqual([]);
    });
  });
}
