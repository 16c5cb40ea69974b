/**
 * Part `hub-join` of `npm run bench`: a station joining an event late. A hub (`giftdesk serve
 * --hub`, its own process) holds 100,000 donors and 300,000 gifts (bench/hub-join-data.ts,
 * built once and kept in bench/.work/hub-join-cache, or BENCH_HUB_JOIN_DIR); a fresh data folder
 * joins it with `giftdesk hub join` (its own process, over TLS pinned to the hub's
 * fingerprint), which returns once it has read the hub's feed to its end. Measured:
 *
 * - ready for a gift: from the join's start until the station holds every donor and gift of
 *   the hub (counted in its own database) — when the join returns, if it read the feed to its
 *   end; else when `giftdesk serve` on the station has brought the rest. Goal ≤ 60 s. Then
 *   `giftdesk serve` on the station takes a gift (201), timed apart;
 * - the join's peak memory: the join process's peak resident set (bench/peak-rss-probe.mjs,
 *   the kernel's figure for that process), with its CPU time, the hub's CPU time while it
 *   served the join, and the hub's own peak resident set.
 *
 * BENCH_JOIN_DONORS and BENCH_JOIN_GIFTS make a smaller hub while developing (each size is built once
 * and kept apart); BENCH_JOIN_IMPORT=FILE preloads a module into the join (bench/sql-statement-times.mjs
 * times its SQL statements);
 * BENCH_JOIN_PROF=DIR writes CPU profiles of the join and of the hub (node --cpu-prof) there.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { databaseFile } from '../electron/paths.ts';
import { cliJson, isolatedEnv } from '../test/helpers/cli.ts';
import { rawRequest, tempDir } from '../test/helpers/server.ts';
import { type GiftdeskChild, listOf, spawnGiftdesk, stopChild, until } from '../test/hub/event-rig.ts';
import { type HubBenchResult, type HubRow, cpuSeconds } from './hub-figures.ts';
import { joinHubFolder } from './hub-join-data.ts';
import { type Log, fmt } from './sync-common.ts';

const DONORS = Number(process.env.BENCH_JOIN_DONORS ?? 100_000);
const GIFTS = Number(process.env.BENCH_JOIN_GIFTS ?? 300_000);
const GOAL_SECONDS = 60;
/** BENCH_JOIN_GIVE_UP (seconds): a join still running then is stopped and its progress reported. */
const GIVE_UP_SECONDS = Number(process.env.BENCH_JOIN_GIVE_UP ?? 1800);
const BIN = path.resolve('bin/giftdesk.mjs');
const PROBE = path.resolve('bench/peak-rss-probe.mjs');

/** Peak resident set of a running process so far, MiB (Linux: VmHWM; NaN elsewhere). */
function peakRssMiB(pid: number | undefined): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The account's donors and gifts in a data folder's SQLite file (read-only, beside a running server). */
function countsIn(dataDir: string, accountId: string): { donors: number; gifts: number } {
  const db = new BetterSqlite3(databaseFile(dataDir), { readonly: true, fileMustExist: true });
  try {
    const one = (sqlText: string) => (db.prepare(sqlText).get(accountId) as { n: number }).n;
    return {
      donors: one('select count(*) as n from contacts where account_id = ?'),
      gifts: one('select count(*) as n from donations where account_id = ?'),
    };
  } finally {
    db.close();
  }
}

interface Measured {
  code: number | null;
  stdout: string;
  stderr: string;
  maxRssKb: number;
  cpuMs: number;
  /** Stopped by the bench after `giveUpMs`. */
  gaveUp: boolean;
}

/**
 * Runs `giftdesk ARGS` to its end with the peak-RSS probe loaded: its stdout, exit code and
 * figures. Past `giveUpMs` it is killed, its peak RSS and CPU read from /proc just before.
 */
async function runMeasured(
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeArgs: string[],
  giveUpMs: number,
): Promise<Measured> {
  const file = path.join(tempDir('giftdesk-join-probe-'), 'peak.json');
  const extra = process.env.BENCH_JOIN_IMPORT
    ? ['--import', path.resolve(process.env.BENCH_JOIN_IMPORT)]
    : [];
  const child = spawn(process.execPath, ['--import', PROBE, ...extra, ...nodeArgs, BIN, ...args], {
    env: { ...env, GIFTDESK_PEAK_RSS_FILE: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-20_000)));
  let gaveUp: { maxRssKb: number; cpuMs: number } | null = null;
  const timer = setTimeout(() => {
    gaveUp = { maxRssKb: peakRssMiB(child.pid) * 1024, cpuMs: cpuSeconds(child.pid) * 1000 };
    child.kill('SIGKILL');
  }, giveUpMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  clearTimeout(timer);
  const probe = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { maxRssKb: number; userMs: number; systemMs: number })
    : null;
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  const figures = gaveUp ?? {
    maxRssKb: probe?.maxRssKb ?? NaN,
    cpuMs: probe ? probe.userMs + probe.systemMs : NaN,
  };
  return { code, stdout, stderr, ...figures, gaveUp: gaveUp !== null };
}

const JOIN_ROW = (d: number, g: number) =>
  `Station joining a hub of ${fmt(d, 0)} donors and ${fmt(g, 0)} gifts → ready for a gift (\`giftdesk hub join\` to the feed's end)`;
const PEAK_ROW = 'The join’s peak memory (the `hub join` process’s peak RSS)';
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

/** `--cpu-prof` into BENCH_JOIN_PROF/NAME, when it is set. */
function profArgs(name: string): string[] {
  const dir = process.env.BENCH_JOIN_PROF ? path.resolve(process.env.BENCH_JOIN_PROF) : null;
  // A folder per process, Node's own file names: each thread (the loader's too) writes its own.
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(dir, name)}`] : [];
}

interface Join extends Measured {
  seconds: number;
  hubCpu: number;
  loadBefore: string;
  /** Seconds since the start: donors/gifts at the station, every 15 s. */
  progress: string[];
  after: { donors: number; gifts: number };
}

/** `giftdesk hub join` of a fresh folder to the running hub, timed, with the station's progress sampled. */
async function timedJoin(
  env: NodeJS.ProcessEnv,
  hub: GiftdeskChild,
  hubDir: string,
  stationDir: string,
  accountId: string,
): Promise<Join> {
  const code = (await cliJson(['hub', 'code', '--account', accountId, '--data-dir', hubDir], env)) as {
    code: string;
    url: string;
    fingerprint: string;
  };
  const loadBefore = load();
  const hubCpu0 = cpuSeconds(hub.child.pid);
  const t0 = performance.now();
  const progress: string[] = [];
  const sampler = setInterval(() => {
    try {
      const c = countsIn(stationDir, accountId);
      progress.push(`${fmt((performance.now() - t0) / 1000, 0)} s: ${c.donors}/${c.gifts}`);
    } catch {
      /* not created yet */
    }
  }, 15_000);
  const args = ['hub', 'join', code.url, '--code', code.code, '--fingerprint', code.fingerprint];
  const measured = await runMeasured(
    [...args, '--name', 'Late table', '--data-dir', stationDir, '--json'],
    env,
    profArgs('join'),
    GIVE_UP_SECONDS * 1000,
  );
  clearInterval(sampler);
  return {
    ...measured,
    seconds: (performance.now() - t0) / 1000,
    hubCpu: cpuSeconds(hub.child.pid) - hubCpu0,
    loadBefore,
    progress,
    after: countsIn(stationDir, accountId),
  };
}

/** The figures of a join the bench stopped (today's main before the join was made fast). */
function stoppedResult(atHub: { donors: number; gifts: number }, j: Join): HubBenchResult {
  return {
    rows: [
      {
        name: JOIN_ROW(atHub.donors, atHub.gifts),
        figure: `not ready after ${fmt(j.seconds, 0)} s (stopped there): ${fmt(j.after.donors, 0)} donors and ${fmt(j.after.gifts, 0)} gifts here`,
        goal: `≤ ${GOAL_SECONDS} s`,
        met: 'no',
      },
      {
        name: PEAK_ROW,
        figure: `${fmt(j.maxRssKb / 1024, 0)} MiB when stopped (CPU ${fmt(j.cpuMs / 1000, 1)} s)`,
        goal: 'reported',
        met: '—',
      },
    ],
    notes: [
      `The hub's CPU while serving the join ${fmt(j.hubCpu, 1)} s. Progress (seconds: donors/gifts at the station): ${j.progress.join(', ')}.`,
      `Load average (1, 5, 15 min) before the join ${j.loadBefore}, at the end ${load()}; ${os.cpus().length} cores.`,
    ],
    ok: false,
  };
}

/**
 * `giftdesk serve` on the station; once it holds the whole hub (at once, when the join read
 * the feed to its end), a volunteer's script finds the Robert Browns and enters a gift.
 */
async function firstGift(
  env: NodeJS.ProcessEnv,
  stationDir: string,
  accountId: string,
  atHub: { donors: number; gifts: number },
  onServe: (c: GiftdeskChild) => void,
): Promise<{ status: number; text: string; browns: number; seconds: number; wholeAt: number }> {
  const key = await cliJson(
    ['key', 'create', '--account', accountId, '--label', 'table script', '--data-dir', stationDir],
    env,
  );
  const auth = { 'x-api-key': String(key.keyId), authorization: `Bearer ${String(key.secret)}` };
  const t1 = performance.now();
  const station = await spawnGiftdesk(['serve', '--port', '0', '--json', '--data-dir', stationDir], env);
  onServe(station);
  const url = String(station.first.url);
  await until(
    'the station: every donor and gift of the hub',
    () => {
      const c = countsIn(stationDir, accountId);
      return c.donors >= atHub.donors && c.gifts >= atHub.gifts;
    },
    { timeoutMs: 30 * 60_000, everyMs: 250 },
  );
  const wholeAt = performance.now();
  const get = (p: string) => rawRequest(`${url}${p}`, 'GET', undefined, auth);
  const found = listOf(
    (
      await get(
        `/api/v1/contact-summaries?accountId=${accountId}&search=${encodeURIComponent('robert brown')}&limit=8`,
      )
    ).body,
  );
  const campaignId = listOf((await get(`/api/v1/campaigns?accountId=${accountId}`)).body)[0]?.id;
  const gift = await rawRequest(
    `${url}/api/v1/donations`,
    'POST',
    {
      accountId,
      contactId: found[0]?.id,
      donationAmount: 19.99,
      donationDate: new Date().toISOString().slice(0, 10),
      paymentMethod: 'cash',
      campaignId,
    },
    auth,
  );
  return {
    status: gift.status,
    text: gift.text,
    browns: found.filter((c) => c.firstName === 'Robert' && c.lastName === 'Brown').length,
    seconds: (performance.now() - t1) / 1000,
    wholeAt,
  };
}

export async function benchHubJoin(opts: { log: Log }): Promise<HubBenchResult> {
  const log = opts.log;
  const cacheDir = path.resolve(
    process.env.BENCH_HUB_JOIN_DIR ?? path.join('bench/.work', `hub-join-cache-${DONORS}-${GIFTS}`),
  );
  const hubData = await joinHubFolder(cacheDir, DONORS, GIFTS, log);
  const { env } = isolatedEnv();
  // The hub writes into its folder (its certificate, the station's row): a copy each run.
  const hubDir = tempDir('giftdesk-join-hub-');
  fs.cpSync(hubData.dir, hubDir, { recursive: true, filter: (src) => !src.endsWith('join-hub.json') });
  const stationDir = tempDir('giftdesk-join-station-');
  const accountId = hubData.accountId;
  let hub: GiftdeskChild | null = null;
  let station: GiftdeskChild | null = null;
  try {
    const atHub = countsIn(hubDir, accountId);
    hub = await spawnGiftdesk(
      ['serve', '--hub', '--port', '0', '--json', '--account', accountId, '--data-dir', hubDir],
      env,
      profArgs('hub'),
    );
    log(`hub-join: giftdesk hub join (${atHub.donors} donors, ${atHub.gifts} gifts at the hub)`);
    const t0 = performance.now();
    const j = await timedJoin(env, hub, hubDir, stationDir, accountId);
    if (j.gaveUp) {
      log(
        `hub-join: the join was stopped after ${GIVE_UP_SECONDS} s (${j.after.donors}/${j.after.gifts} here)`,
      );
      return stoppedResult(atHub, j);
    }
    if (j.code !== 0) throw new Error(`giftdesk hub join exited ${j.code}\n${j.stderr}`);
    const caughtUp = j.after.donors >= atHub.donors && j.after.gifts >= atHub.gifts;
    log(
      `hub-join: joined in ${j.seconds.toFixed(1)} s (${j.after.donors} donors, ${j.after.gifts} gifts here; peak RSS ${(j.maxRssKb / 1024).toFixed(0)} MiB)`,
    );
    const gift = await firstGift(env, stationDir, accountId, atHub, (c) => (station = c));
    const readySeconds = caughtUp ? j.seconds : (gift.wholeAt - t0) / 1000;
    const rows: HubRow[] = [
      {
        name: JOIN_ROW(atHub.donors, atHub.gifts),
        figure: `${fmt(readySeconds, 1)} s${caughtUp ? '' : ` (the join returned after ${fmt(j.seconds, 1)} s with ${fmt(j.after.donors, 0)} donors and ${fmt(j.after.gifts, 0)} gifts; \`serve\` brought the rest)`}`,
        goal: `≤ ${GOAL_SECONDS} s`,
        met: readySeconds <= GOAL_SECONDS ? 'yes' : 'no',
      },
      {
        name: PEAK_ROW,
        figure: `${fmt(j.maxRssKb / 1024, 0)} MiB (CPU ${fmt(j.cpuMs / 1000, 1)} s)`,
        goal: 'reported',
        met: '—',
      },
      {
        name: 'Then: `giftdesk serve` on the station starts and takes a gift',
        figure: `${fmt(gift.seconds, 1)} s, answered ${gift.status}`,
        goal: '201',
        met: gift.status === 201 ? 'yes' : 'no',
      },
    ];
    const notes = [
      `The hub: its CPU while serving the join ${fmt(j.hubCpu, 1)} s; its peak RSS ${fmt(peakRssMiB(hub.child.pid), 0)} MiB. The station after the join: ${fmt(j.after.donors, 0)} donors, ${fmt(j.after.gifts, 0)} gifts; its donor box finds ${gift.browns} Robert Browns.`,
      `Progress (seconds: donors/gifts at the station): ${j.progress.join(', ') || 'under 15 s'}.`,
      `The hub's folder: built once in ${fmt(hubData.builtSeconds, 0)} s through the bulk import and kept (${path.relative(process.cwd(), cacheDir)}); a copy served each run.`,
      `Load average (1, 5, 15 min) before the join ${j.loadBefore}, at the end ${load()}; ${os.cpus().length} cores.`,
    ];
    if (gift.status !== 201) notes.push(`The gift was answered ${gift.status}: ${gift.text.slice(0, 300)}`);
    return { rows, notes, ok: gift.status === 201 && readySeconds <= GOAL_SECONDS };
  } finally {
    await stopChild(station);
    await stopChild(hub);
    for (const d of [hubDir, stationDir]) fs.rmSync(d, { recursive: true, force: true });
  }
}

export function hubJoinMarkdown(r: HubBenchResult | null, why?: string): string {
  if (!r) return `## A station joining a large event\n\n${why ?? 'Not run.'}\n`;
  return [
    '## A station joining a large event',
    '',
    '| benchmark | figure | goal | met |',
    '|---|---|---|---|',
    ...r.rows.map((x) => `| ${x.name} | ${x.figure} | ${x.goal} | ${x.met} |`),
    '',
    ...r.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}
