/**
 * `npm run bench`: GiftDesk's figures as ratios to baselines measured in the same run, on
 * the same machine, at the same durability (WAL, synchronous=FULL). Writes bench/RESULTS.md.
 *
 * BENCH_SCALE (default 1) scales the 1,000,000-row datasets (0.05 while developing).
 * BENCH_DATABASE_URL (or GIFTDESK_TEST_DATABASE_URL) adds the HQ (PostgreSQL) figures.
 * BENCH_PARTS (default all: post,import,reads,lag,hq,ui,sync,hub,hub-join,letters) runs only some parts, while developing.
 * Part `ui` (the desktop app's renderer in Chromium) runs bench/renderer.ts in a child process.
 * Part `sync` runs bench/sync.ts: a real HQ behind test/sync's fault proxy.
 * Part `hub` runs bench/hub.ts: an event hub and six stations, each its own process
 * (BENCH_HUB_SECONDS, default 120, shortens it while developing).
 * Part `hub-join` runs bench/hub-join.ts: a station joining a hub of 100,000 donors and 300,000
 * gifts (the hub's folder is built once and kept in bench/.work/hub-join-cache-*).
 * Part `letters` runs bench/letters.ts: 1,000 thank-you letters through the run path against the
 * library's bare render, and gift entry while they print (BENCH_LETTERS_ROUNDS, BENCH_LETTERS_ENTRIES).
 * BENCH_CONTEXT adds a line to the header (what else ran on the machine meanwhile).
 * Datasets are built in bench/.work/ (git-ignored) and removed afterwards (BENCH_KEEP=1 keeps
 * them, to profile a part on the same data).
 *
 * The parts: core-post.ts (post), core-big.ts (import, reads, lag), hq-postgres.ts (hq),
 * renderer.ts (ui), sync.ts (sync), hub.ts (hub), hub-join.ts (hub-join), letters.ts (letters); core-common.ts and core-data.ts are what the core parts share.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import BetterSqlite3 from 'better-sqlite3';
import { benchHq, hqMarkdown } from './hq-postgres.ts';
import { benchHub } from './hub.ts';
import { benchHubJoin, hubJoinMarkdown } from './hub-join.ts';
import { benchLetters, lettersMarkdown } from './letters.ts';
import { hubMarkdown } from './hub-figures.ts';
import { benchSync, syncMarkdown } from './sync.ts';
import { SCALE, N, WORK, assertNativeJson, log, fmt, type Row, rows, notes } from './core-common.ts';
import { benchPostThroughput } from './core-post.ts';
import { bigDb, benchReads, benchImportLag } from './core-big.ts';

const ALL_PARTS = 'post,import,reads,lag,hq,ui,sync,hub,hub-join,letters';
const PARTS = new Set((process.env.BENCH_PARTS ?? ALL_PARTS).split(',').map((s) => s.trim()));
/** Whether a part runs; each part runs in this process, so its JSON must still be the engine's own. */
const part = (name: string) => {
  assertNativeJson();
  return PARTS.has(name);
};

async function benchUi(): Promise<{ rows: Row[]; notes: string[] }> {
  // A child process: Chromium and the renderer's harness stay out of this process, and the
  // file type-checks with the DOM library (tsconfig.browser-tests.json) that the rest of bench/ does not have.
  // Its progress goes straight to our stderr; its result is the last line of its stdout.
  const child = spawn('node', ['--import', 'tsx', 'bench/renderer.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_SCALE: String(SCALE) },
  });
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`bench/renderer.ts exited with ${code}`);
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { rows: Row[]; notes: string[] };
}

function machine(): string[] {
  const cpu = os.cpus()[0]?.model ?? '?';
  const sqlite = (() => {
    const db = new BetterSqlite3(':memory:');
    const v = (db.prepare('select sqlite_version() as v').get() as { v: string }).v;
    db.close();
    return v;
  })();
  return [
    `- Machine: ${cpu}, ${os.cpus().length} cores, ${fmt(os.totalmem() / 2 ** 30)} GiB RAM, ${os.platform()} ${os.release()}`,
    `- Node ${process.version}, SQLite ${sqlite} (better-sqlite3), durability WAL + synchronous=FULL everywhere`,
    `- Date: ${new Date().toISOString()}; scale ${SCALE} (${fmt(N, 0)} rows); load average (1, 5, 15 min) at start: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
    '- Command: `npm run bench` (BENCH_SCALE, BENCH_SECONDS, BENCH_DATABASE_URL to change)',
  ];
}

async function main(): Promise<void> {
  fs.mkdirSync(WORK, { recursive: true });
  const header = machine();
  try {
    if (part('post')) await benchPostThroughput();
    if (part('import') || part('reads') || part('lag')) {
      const big = await bigDb();
      if (part('reads')) await benchReads(big);
      if (part('lag')) await benchImportLag(big);
    }
  } finally {
    if (process.env.BENCH_KEEP === '1') log(`kept ${WORK}`);
    else fs.rmSync(WORK, { recursive: true, force: true });
  }
  let ui = '## Desktop app\n\nNot run (BENCH_PARTS).\n';
  if (part('ui')) {
    log('desktop app: the renderer in Chromium (bench/renderer.ts)');
    const loadBefore = os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(', ');
    const t0 = performance.now();
    const r = await benchUi();
    const minutes = (performance.now() - t0) / 60_000;
    ui = [
      '## Desktop app',
      '',
      `The renderer in headless Chromium (playwright-core; the build is named below) against the real server on a temp SQLite file; ${fmt(minutes)} min for this part, load average (1, 5, 15 min) at its start ${loadBefore}, at its end ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(', ')}.`,
      '',
      '| benchmark | figure | baseline (same run) | ratio | goal | met |',
      '|---|---|---|---|---|---|',
      ...r.rows.map((x) => `| ${x.name} | ${x.figure} | ${x.baseline} | ${x.ratio} | ${x.goal} | ${x.met} |`),
      '',
      ...r.notes.map((n) => `- ${n}`),
      '',
    ].join('\n');
  }
  let hq = '';
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.GIFTDESK_TEST_DATABASE_URL;
  if (!part('hq')) {
    hq = '## HQ mode (PostgreSQL)\n\nNot run (BENCH_PARTS).\n';
  } else if (pgUrl) {
    const r = await benchHq({
      databaseUrl: pgUrl,
      scale: SCALE,
      seconds: Number(process.env.BENCH_SECONDS ?? 10),
      log,
    });
    if (r.sqliteAudit?.ok === false || r.postgresAudit?.ok === false) process.exitCode = 1;
    hq = hqMarkdown(r);
  } else {
    hq =
      '## HQ mode (PostgreSQL)\n\nNot run: set BENCH_DATABASE_URL to a PostgreSQL role that may create databases.\n';
  }
  let syncMd = syncMarkdown(null, 'Not run (BENCH_PARTS).');
  if (part('sync')) {
    const r = await benchSync({ scale: SCALE, log });
    if (!r.ok) process.exitCode = 1;
    syncMd = syncMarkdown(r);
  }
  let hubMd = hubMarkdown(null, 'Not run (BENCH_PARTS).');
  if (part('hub')) {
    const r = await benchHub({ log });
    if (!r.ok) process.exitCode = 1;
    hubMd = hubMarkdown(r);
  }
  let hubJoinMd = hubJoinMarkdown(null, 'Not run (BENCH_PARTS).');
  if (part('hub-join')) {
    const r = await benchHubJoin({ log });
    if (!r.ok) process.exitCode = 1;
    hubJoinMd = hubJoinMarkdown(r);
  }
  let lettersMd = lettersMarkdown(null, 'Not run (BENCH_PARTS).');
  if (part('letters')) {
    const r = await benchLetters();
    if (!r.ok) process.exitCode = 1;
    lettersMd = lettersMarkdown(r);
  }
  const table = [
    '| benchmark | figure | baseline (same run) | ratio | goal | met |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.figure} | ${r.baseline} | ${r.ratio} | ${r.goal} | ${r.met} |`),
  ];
  header.push(
    `- Finished: ${new Date().toISOString()}; load average (1, 5, 15 min) at the end: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  );
  if (process.env.BENCH_CONTEXT) header.push(`- ${process.env.BENCH_CONTEXT}`);
  const md = [
    '# GiftDesk benchmarks',
    '',
    ...header,
    '',
    '## Core (SQLite)',
    '',
    ...table,
    '',
    ...notes.map((n) => `- ${n}`),
    '',
    hq,
    '',
    ui,
    '',
    syncMd,
    '',
    hubMd,
    '',
    hubJoinMd,
    '',
    lettersMd,
  ].join('\n');
  // A partial run (BENCH_PARTS) never replaces the full results.
  fs.mkdirSync('bench/.work', { recursive: true });
  fs.writeFileSync(
    ALL_PARTS.split(',').every(part) ? 'bench/RESULTS.md' : 'bench/.work/RESULTS.partial.md',
    md,
  );
  process.stdout.write(md);
}

await main();
