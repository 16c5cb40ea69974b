/**
 * Part `hub` of `npm run bench`: an event at event pace. A hub (`giftdesk serve --hub`, its own
 * process, 300 donors in its directory) and six stations (`giftdesk hub join`, then `giftdesk
 * serve`, each its own process and data folder), all on this machine (test/hub/event-rig.ts).
 * Each station's volunteer looks a donor up in the donor box (`/contact-summaries`, as the app
 * asks) and enters a gift every 300 ms; every fourth gift is for a donor created there and
 * then. Measured, for BENCH_HUB_SECONDS (default 120):
 *
 * - donor created at one station → found by the next station's donor box (that station's
 *   search asked every 100 ms from the moment the create was answered): p95, goal ≤ 3 s;
 * - gift saved (201 at the station) → at the hub (the hub's donation list asked every 200 ms,
 *   the gift known by its station's `gd:` reference): p95, goal ≤ 2 s;
 * - requests refused: every answer that is not 2xx, to the volunteers at the stations and to
 *   the stations at the hub (the hub's log): goal 0;
 * - the hub's event-loop delay p99 (bench/hub-loop-probe.mjs, loaded into the hub's process):
 *   goal under 50 ms. monitorEventLoopDelay's figures include its 10 ms timer, so they
 *   overstate the delay a little.
 *
 * The notes add the CPU time of the hub and of each station while entering, and the hub's
 * answers by route (bench/hub-figures.ts reads them).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { donationReferenceOf, referenceFor } from '#shared/sync-reference.ts';
import { isolatedEnv } from '../test/helpers/cli.ts';
import { tempDir } from '../test/helpers/server.ts';
import {
  DIRECTORY_FIRST,
  DIRECTORY_LAST,
  type HubSide,
  type StationSide,
  foundBy,
  joinStation,
  listOf,
  startHub,
  until,
} from '../test/hub/event-rig.ts';
import { type HubBenchResult, type HubRow, cpuSeconds, hubAnswers, loopSnapshot } from './hub-figures.ts';
import { percentiles } from './core-common.ts';
import { type Log, fmt } from './sync-common.ts';

const STATIONS = 6;
const EVERY_MS = 300;
const DONORS = 300;
const TODAY = () => new Date().toISOString().slice(0, 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Stats {
  found: number[];
  atHub: number[];
  notFound: number;
  gifts: number;
  donors: number;
  lookups: number;
  late: number;
  refused: Map<string, number>;
  watcherRefused: number;
  /** `gd:<station's id>` → when the station answered 201. */
  pending: Map<string, number>;
}

function refuse(stats: Stats, what: string, status: number): void {
  const k = `${what} ${status}`;
  stats.refused.set(k, (stats.refused.get(k) ?? 0) + 1);
}

/** Polls `to`'s donor box for a donor created elsewhere at `t0` until it shows her. */
async function watchDonor(
  to: StationSide,
  name: string,
  email: string,
  t0: number,
  stats: Stats,
): Promise<void> {
  const giveUp = t0 + 60_000;
  while (Date.now() < giveUp) {
    const id = await foundBy(to, name, email).catch(() => undefined);
    if (id) {
      stats.found.push(Date.now() - t0);
      return;
    }
    await sleep(100);
  }
  stats.notFound++;
  stats.found.push(Infinity);
}

/** One volunteer: a lookup and a gift every EVERY_MS, a new donor every fourth gift. */
async function volunteer(
  st: StationSide,
  next: StationSide,
  index: number,
  endAt: number,
  stats: Stats,
  watchers: Array<Promise<void>>,
): Promise<void> {
  const start = Date.now() + index * (EVERY_MS / STATIONS);
  const ok = async (what: string, r: Promise<{ status: number; body: unknown }>) => {
    const res = await r;
    if (res.status < 200 || res.status > 299) refuse(stats, what, res.status);
    return res;
  };
  for (let k = 0; ; k++) {
    const due = start + k * EVERY_MS;
    if (due >= endAt) return;
    if (Date.now() - due > EVERY_MS) stats.late++;
    await sleep(due - Date.now());
    let contactId: string | undefined;
    if (k % 4 === 3) {
      const first = DIRECTORY_FIRST[(k + index) % DIRECTORY_FIRST.length]!;
      const last = `Newcomer${index}x${k}`;
      const email = `${first.toLowerCase()}.${last.toLowerCase()}@event.example`;
      const r = await ok(
        'POST /contacts',
        st.request('POST', '/api/v1/contacts', {
          accountId: st.accountId,
          firstName: first,
          lastName: last,
          primaryEmail: email,
        }),
      );
      contactId = (r.body as { id?: string } | null)?.id;
      if (contactId) {
        stats.donors++;
        watchers.push(watchDonor(next, `${first} ${last}`, email, Date.now(), stats));
      }
    } else {
      const n = (k * 7 + index * 31) % DONORS;
      const search = `${DIRECTORY_FIRST[n % DIRECTORY_FIRST.length]} ${DIRECTORY_LAST[n % DIRECTORY_LAST.length]}`;
      const r = await ok(
        'GET /contact-summaries',
        st.request(
          'GET',
          `/api/v1/contact-summaries?accountId=${st.accountId}&search=${encodeURIComponent(search)}&limit=8`,
        ),
      );
      stats.lookups++;
      contactId = listOf(r.body)[0]?.id;
    }
    if (!contactId) continue;
    const g = await ok(
      'POST /donations',
      st.request('POST', '/api/v1/donations', {
        accountId: st.accountId,
        contactId,
        donationAmount: 5 + ((k * 13 + index) % 200),
        donationDate: TODAY(),
        paymentMethod: ['cash', 'check', 'credit_card'][k % 3],
        campaignId: st.campaignId,
      }),
    );
    const id = (g.body as { id?: string } | null)?.id;
    if (g.status === 201 && id) {
      stats.gifts++;
      stats.pending.set(referenceFor(id), Date.now());
    }
  }
}

/** Reads the hub's donation list (newest first) while gifts are entered and until every one is there (or it is abandoned). */
async function watchHub(
  hub: HubSide,
  stats: Stats,
  control: { entering: boolean; abandoned: boolean },
): Promise<void> {
  let lastDeep = 0;
  const seen = (items: Array<Record<string, unknown>>) => {
    const now = Date.now();
    for (const d of items) {
      const ref = donationReferenceOf(typeof d.notes === 'string' ? d.notes : null);
      const t0 = ref ? stats.pending.get(ref) : undefined;
      if (ref && t0 !== undefined) {
        stats.atHub.push(now - t0);
        stats.pending.delete(ref);
      }
    }
  };
  const page = async (offset: number) => {
    const r = await hub.request(
      'GET',
      `/api/v1/donations?accountId=${hub.accountId}&limit=100&offset=${offset}`,
    );
    if (r.status !== 200) {
      stats.watcherRefused++;
      return [];
    }
    return (r.body as { donations: Array<Record<string, unknown>> }).donations;
  };
  while ((control.entering || stats.pending.size > 0) && !control.abandoned) {
    seen(await page(0).catch(() => []));
    // A gift that is not on the first page after 3 s: read further back, at most once a second.
    const oldest = Math.min(...stats.pending.values());
    if (stats.pending.size > 0 && Date.now() - oldest > 3000 && Date.now() - lastDeep > 1000) {
      lastDeep = Date.now();
      for (let offset = 100; offset <= 1000; offset += 100) {
        const items = await page(offset).catch(() => []);
        seen(items);
        if (items.length < 100 || stats.pending.size === 0) break;
      }
    }
    await sleep(200);
  }
}

const ms = (x: number) => (Number.isFinite(x) ? `${fmt(x / 1000, 2)} s` : 'never');
const tally = (m: Map<string, number>) =>
  m.size === 0 ? 'none' : [...m].map(([k, n]) => `${k} ×${n}`).join(', ');

export async function benchHub(opts: { log: Log; seconds?: number }): Promise<HubBenchResult> {
  const seconds = opts.seconds ?? Number(process.env.BENCH_HUB_SECONDS ?? 120);
  const { env } = isolatedEnv();
  const probeFile = path.join(tempDir('giftdesk-hub-probe-'), 'loop.json');
  const probe = path.resolve('bench/hub-loop-probe.mjs');
  opts.log(`hub: a hub and ${STATIONS} stations, ${DONORS} donors in the directory`);
  const hub = await startHub(env, {
    donors: DONORS,
    nodeArgs: ['--import', probe],
    env: { GIFTDESK_LOOP_PROBE: probeFile },
  });
  const stations: StationSide[] = [];
  try {
    for (let i = 0; i < STATIONS; i++) stations.push(await joinStation(env, hub, `Table ${i + 1}`));
    // Every station has the directory before the clock starts.
    const last = `donor${DONORS - 1}@directory.example`;
    for (const st of stations) await until(`${st.name}: the directory`, () => foundBy(st, last, last));
    return await measure(hub, stations, seconds, probeFile, opts.log);
  } finally {
    await Promise.all(stations.map((s) => s.close()));
    await hub.close();
    fs.rmSync(path.dirname(probeFile), { recursive: true, force: true });
  }
}

async function measure(
  hub: HubSide,
  stations: StationSide[],
  seconds: number,
  probeFile: string,
  log: Log,
): Promise<HubBenchResult> {
  const stats: Stats = {
    found: [],
    atHub: [],
    notFound: 0,
    gifts: 0,
    donors: 0,
    lookups: 0,
    late: 0,
    refused: new Map(),
    watcherRefused: 0,
    pending: new Map(),
  };
  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
  await loopSnapshot(hub, probeFile); // starts the hub's figures afresh
  const pids = [hub.proc.child.pid, ...stations.map((st) => st.proc.child.pid)];
  const cpu0 = pids.map(cpuSeconds);
  const t0 = Date.now();
  const endAt = t0 + seconds * 1000;
  log(`hub: ${STATIONS} volunteers, a gift every ${EVERY_MS} ms each, for ${seconds} s`);
  const watchers: Array<Promise<void>> = [];
  const control = { entering: true, abandoned: false };
  const hubWatch = watchHub(hub, stats, control);
  await Promise.all(
    stations.map((st, i) => volunteer(st, stations[(i + 1) % STATIONS]!, i, endAt, stats, watchers)),
  );
  const loop = await loopSnapshot(hub, probeFile);
  const t1 = Date.now();
  const cpu = pids.map((pid, i) => cpuSeconds(pid) - cpu0[i]!);
  const loadAfter = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
  control.entering = false;
  await Promise.race([Promise.all([hubWatch, ...watchers]), sleep(90_000)]);
  control.abandoned = true;
  await hubWatch;
  const missing = stats.pending.size;
  for (let i = 0; i < missing; i++) stats.atHub.push(Infinity);
  const answers = hubAnswers(hub, t0, t1);
  const refusedAtHub = hubAnswers(hub, t0, Date.now()).refused;
  const found = percentiles(stats.found);
  const atHub = percentiles(stats.atHub);
  const refusedCount = [...stats.refused.values(), ...refusedAtHub.values()].reduce((s, n) => s + n, 0);
  const rows: HubRow[] = [
    {
      name: 'Donor created at one station → found by another station’s donor box',
      figure: `p95 ${ms(found.p95)} (p50 ${ms(found.p50)}, max ${ms(Math.max(...stats.found))}; ${stats.found.length} donors${stats.notFound ? `, ${stats.notFound} never found in 60 s` : ''})`,
      goal: 'p95 ≤ 3 s',
      met: found.p95 <= 3000 ? 'yes' : 'no',
    },
    {
      name: 'Gift saved at a station → at the hub',
      figure: `p95 ${ms(atHub.p95)} (p50 ${ms(atHub.p50)}, max ${ms(Math.max(...stats.atHub))}; ${stats.atHub.length} gifts${missing ? `, ${missing} not at the hub 90 s after the end` : ''})`,
      goal: 'p95 ≤ 2 s',
      met: atHub.p95 <= 2000 ? 'yes' : 'no',
    },
    {
      name: 'Requests refused (volunteers at the stations; stations at the hub)',
      figure: `${refusedCount}: stations ${tally(stats.refused)}; hub ${tally(refusedAtHub)}`,
      goal: '0',
      met: refusedCount === 0 ? 'yes' : 'no',
    },
    {
      name: 'The hub’s event-loop delay',
      figure: `p99 ${fmt(loop.p99)} ms (p50 ${fmt(loop.p50)}, max ${fmt(loop.max)} ms; ${loop.count} samples, ${loop.resolutionMs} ms timer included)`,
      goal: 'p99 < 50 ms',
      met: loop.p99 < 50 ? 'yes' : 'no',
    },
  ];
  const notes = [
    `${stats.gifts} gifts (${fmt(stats.gifts / ((t1 - t0) / 1000))} a second over ${fmt((t1 - t0) / 1000)} s), ${stats.donors} new donors, ${stats.lookups} lookups; ${stats.late} ticks started more than ${EVERY_MS} ms late.`,
    `Load average (1, 5, 15 min) at the start ${loadBefore}, at the end ${loadAfter}; ${os.cpus().length} cores shared by the hub, the ${STATIONS} stations and this process.`,
    `CPU while entering: the hub ${fmt(cpu[0]!)} s (${fmt((cpu[0]! / ((t1 - t0) / 1000)) * 100, 0)}% of a core), the stations ${cpu
      .slice(1)
      .map((c) => fmt(c))
      .join(', ')} s.`,
    `The hub's answers while entering, by route and status: ${tally(answers.all)}.`,
    ...(stats.watcherRefused
      ? [`The bench's own reads of the hub were refused ${stats.watcherRefused} times.`]
      : []),
  ];
  return { rows, notes, ok: rows.every((r) => r.met === 'yes') };
}
