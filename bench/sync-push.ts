/**
 * The sync push benches: requests per synced change (no faults, and with 10% of outcomes
 * unknown, exactly once checked) and throughput against HQ's rate at three latencies.
 */
import { createContact } from '../electron/domain/contacts/index.ts';
import { createDonation } from '../electron/domain/donations/index.ts';
import { type FaultAction, type FaultRule, maxInAnyWindow } from '../test/sync/fault-proxy.ts';
import { createRng } from '../test/sync/random.ts';
import { checkHqMatchesLocal, startRig, syncToCompletion } from '../test/sync/rig.ts';
import {
  type SyncBenchResult,
  type Log,
  fmt,
  RATE,
  hqSide,
  productionEngine,
  SPEC_ONLY_HQ,
  pullFirst,
  syncedChanges,
  roundsWorkload,
  isWrite,
} from './sync-common.ts';

export async function benchRequestsPerChange(scale: number, log: Log, out: SyncBenchResult): Promise<void> {
  const n = Math.max(20, Math.round(400 * scale));
  log(`sync: requests per synced change, no faults (${n} donors)`);
  const hq = await hqSide();
  const rig = await startRig({ hqSide: hq, ratePerSecond: 200 });
  const engine = productionEngine(rig);
  try {
    await pullFirst(rig);
    const from = hq.proxy.records.length;
    await roundsWorkload(rig, engine, n, () =>
      syncToCompletion(engine, rig, { faultyPasses: 1000, maxPasses: 1000 }),
    );
    await checkHqMatchesLocal(rig);
    const recs = hq.proxy.records.slice(from);
    const changes = await syncedChanges(rig);
    const writes = recs.filter(isWrite).length;
    const reads = recs.length - writes;
    const perChange = recs.length / changes;
    out.rows.push({
      name: `Requests per synced change, no faults (${n} donors with a gift each, then edited, ${Math.ceil(n / 4)} more created and deleted)`,
      figure: `${perChange.toFixed(2)} (${recs.length} requests for ${changes} changes: ${writes} writes = ${(writes / changes).toFixed(2)}/change, ${reads} reads)`,
      reference: `1 request per change`,
      ratio: perChange.toFixed(2),
      goal: '1.00',
      met: perChange <= 1.0 + 1e-9 ? 'yes' : 'no',
    });
    out.notes.push(
      `Requests per change, no faults: as the app before an event, the laptop first pulls from HQ (reference data and contacts; those reads come before the counting starts), which leaves the email match's directory fresh (electron/sync/push/email-match.ts: a new contact's email is matched against the HQ contacts this device knows, with one delta read per pass only when the directory is more than 5 minutes old). Then every request is counted at the proxy in front of HQ; a change is a row of the outbox (change log) the engine marked done. ${reads} reads for ${Math.ceil(n / 2)} donors with an email (the production wiring of serve.ts and \`giftdesk sync\`, email match on). HQ matched the local intent afterwards (no duplicate, no loss).`,
    );
  } catch (e) {
    out.ok = false;
    throw e;
  } finally {
    await engine.stop();
    await rig.close();
    await hq.close();
  }
}

export async function benchThroughput(scale: number, log: Log, out: SyncBenchResult): Promise<void> {
  const donors = Math.max(15, Math.round(150 * scale));
  const burst = 2;
  // The last two are diagnostics: the same with HQ's own limiter off (so its headers never say "0 remaining").
  const runs = [
    { latency: 20, enforce: true },
    { latency: 300, enforce: true },
    { latency: 1000, enforce: true },
    { latency: 20, enforce: false },
    { latency: 1000, enforce: false },
  ];
  for (const { latency, enforce } of runs) {
    log(
      `sync: throughput at ${latency} ms latency, ${donors * 2} requests at ${RATE}/s, HQ ${enforce ? 'enforcing' : 'not enforcing'} the rate`,
    );
    const hq = await hqSide(enforce ? { ratePerSecond: RATE, burst } : undefined);
    const half = Math.round(latency / 2);
    const rule: FaultRule = () => ({ kind: 'forward', delayMs: half, latencyMs: latency - half });
    const rig = await startRig({ hqSide: hq, ratePerSecond: RATE, rule });
    const engine = productionEngine(rig);
    try {
      const { ctx, accountId, campaignId } = rig.local;
      for (let i = 0; i < donors; i++) {
        const c = await createContact(ctx, { accountId, firstName: 'Pace', lastName: `Donor${i}` });
        await createDonation(ctx, {
          accountId,
          contactId: c.id,
          donationAmount: 20 + i,
          donationDate: '2026-11-24',
          paymentMethod: 'check',
          campaignId,
        });
      }
      const from = hq.proxy.records.length;
      const t0 = Date.now();
      await syncToCompletion(engine, rig, { faultyPasses: 1000, maxPasses: 1000 });
      const wall = (Date.now() - t0) / 1000;
      await checkHqMatchesLocal(rig);
      const recs = hq.proxy.records.slice(from);
      const times = recs.map((r) => r.at);
      const first = Math.min(...times);
      const last = Math.max(...times);
      const steady = (recs.length - 1) / ((last - first) / 1000);
      const fraction = steady / RATE;
      const limited = recs.filter((r) => r.status === 429 || r.upstreamStatus === 429).length;
      const peak = maxInAnyWindow(times, 1000);
      const met = fraction >= 0.9 && limited === 0 && peak <= RATE + 1;
      out.rows.push({
        name: enforce
          ? `Push throughput at ${RATE}/s, HQ latency ${latency} ms, HQ enforcing ${RATE}/s (burst ${burst})`
          : `… diagnostic: HQ latency ${latency} ms, HQ's own limiter off`,
        figure: `${fmt(steady, 2)} req/s over ${recs.length} requests; ${limited} × 429; at most ${peak} in any 1-s window (whole pass ${fmt(wall)} s, ${fmt(recs.length / wall, 2)} req/s)`,
        reference: `configured rate ${RATE} req/s`,
        ratio: fraction.toFixed(2),
        goal: enforce ? `≥ 0.9, zero 429s, ≤ ${RATE + 1} in any second` : 'diagnostic',
        met: enforce ? (met ? 'yes' : 'no') : '—',
      });
    } finally {
      await engine.stop();
      await rig.close();
      await hq.close();
    }
  }
  out.notes.push(
    `Throughput: ${donors} donors with a gift each (${donors * 2} POSTs, a gift only after its donor's answer), pushed by the production engine and client at the default ${RATE}/s. HQ's latency is added by the proxy, half before forwarding and half before answering; HQ's own rate limiter (its X-RateLimit headers, 429 above ${RATE}/s with a burst of ${burst}) is on. The ratio is the steady rate at HQ: (requests − 1) ÷ (last arrival − first arrival) ÷ ${RATE}; the whole pass (which adds one round trip at the end, and the engine's start) is given beside it. Arrival times and the 1-s windows are the proxy's. The diagnostic rows repeat the 20-ms and 1-s cases with HQ's limiter off, to tell apart what HQ's rate headers cost from what the lanes cost. GiftDesk HQ answers \`X-RateLimit-Remaining\` = the whole tokens left (0 whenever bunched arrivals dip its bucket of ${burst} below one) and \`X-RateLimit-Reset\` = the whole second by which the bucket is full again; the pacer waits out only a reset more than 2 s away, and for a nearer one eases its pace to 95% until HQ has tokens again. The engine grows its lanes as it measures HQ's latency (ceil(rate × latency) + 1, at most 16).`,
  );
}

/** BENCH_SYNC_FAULTS: the share of requests whose outcome is made unknown (default 0.1). */
const FAULTS = Number(process.env.BENCH_SYNC_FAULTS ?? 0.1);

export async function benchUnknownOutcomes(scale: number, log: Log, out: SyncBenchResult): Promise<void> {
  const n = Math.max(20, Math.round(400 * scale));
  const pct = `${Math.round(FAULTS * 100)}%`;
  const against = SPEC_ONLY_HQ ? ', HQ with the donor API alone' : '';
  log(`sync: requests per synced change with ${pct} unknown outcomes (${n} donors${against})`);
  const hq = await hqSide();
  const rng = createRng(20261124);
  const kinds = new Map<string, number>();
  const unknowns: Array<() => FaultAction> = [
    () => ({ kind: 'dropAfterCommit' }), // applied, the answer lost
    () => ({ kind: 'respond', status: 503, forward: true }), // applied, looks failed
    () => ({ kind: 'resetBeforeForward' }), // not applied, the client cannot tell
    () => ({ kind: 'respond', status: 500 }), // not applied, a 5xx
  ];
  const rule: FaultRule = () => {
    if (!rng.chance(FAULTS)) return { kind: 'forward' };
    const a = unknowns[rng.int(0, unknowns.length - 1)]!();
    const k = a.kind === 'respond' ? `${a.status}${a.forward ? ' after commit' : ''}` : a.kind;
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
    return a;
  };
  const rig = await startRig({ hqSide: hq, ratePerSecond: 200 });
  const engine = productionEngine(rig);
  try {
    await pullFirst(rig); // before the faults and the counting, as in the no-fault figure
    rig.proxy.setRule(rule);
    const from = hq.proxy.records.length;
    await roundsWorkload(rig, engine, n, async () => {
      await syncToCompletion(engine, rig, { faultyPasses: 1000, maxPasses: 1000 });
    });
    await checkHqMatchesLocal(rig);
    const recs = hq.proxy.records.slice(from);
    const changes = await syncedChanges(rig);
    const writes = recs.filter(isWrite).length;
    const reads = recs.length - writes;
    const faulted = recs.filter((r) => r.action !== 'forward').length;
    const perChange = recs.length / changes;
    out.rows.push({
      name: `Requests per synced change, ${pct} of outcomes unknown (same workload, ${n} donors${against})`,
      figure: `${perChange.toFixed(2)} (${recs.length} requests for ${changes} changes: ${writes} writes = ${(writes / changes).toFixed(2)}/change, ${reads} reads incl. reconcile; ${faulted} outcomes made unknown)`,
      reference: `1 request per change`,
      ratio: perChange.toFixed(2),
      goal: FAULTS > 0.1 ? '≤ 1.3' : '≤ 1.15',
      met: perChange <= (FAULTS > 0.1 ? 1.3 : 1.15) ? 'yes' : 'no',
    });
    out.notes.push(
      `Unknown outcomes${against}: each request at HQ (pushes and reads alike) had a ${pct} chance of an outcome the client cannot know — ${[...kinds].map(([k, v]) => `${k} ${v}`).join(', ')} — drawn from a fixed seed. The laptop pulled from HQ first, as in the no-fault figure (not counted, no faults). Reads are the reconcile's (electron/sync/reconcile/reconcile.ts): a create of unknown outcome is looked for once its request's deadline (15 s) has passed, with every other unknown create of the account in one sweep per kind — HQ's gifts of the merged date windows (each gift's date ± 1 day), paged; HQ's contacts newest first back to the earliest attempt (HQ's clock from its Date header, 30-s margin), and a GET of each new unlinked one to see its tag; a read that fails is tried twice more. PUTs and DELETEs of unknown outcome are sent again without a read. HQ matched the local intent afterwards: every record exactly once.`,
    );
  } catch (e) {
    out.ok = false;
    throw e;
  } finally {
    await engine.stop();
    await rig.close();
    await hq.close();
  }
}
