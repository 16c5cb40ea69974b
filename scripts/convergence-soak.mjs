#!/usr/bin/env node
/**
 * Many seeds of the convergence check (test/hub/convergence-run.ts), each its own event (a hub
 * and three stations, each its own process), a few at a time; prints each seed's outcome and
 * how many passed. Exit status 1 when any seed failed.
 *
 *   node scripts/convergence-soak.mjs --seeds 200 --parallel 2 [--from 1] [--ops 40] [--keep DIR]
 *
 * --skip-kinds a,b,c: the opposite check, that the comparison sees a ledger kind go missing.
 * For each kind named, the hub runs with GIFTDESK_LEDGER_SKIP=<kind> (its feed leaves that kind
 * out) and the seeds run until one fails; the kind passes this check when a seed failed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt;
};
const seeds = Number(opt('--seeds', '20'));
const from = Number(opt('--from', '1'));
const parallel = Math.max(1, Number(opt('--parallel', '2')));
const ops = opt('--ops', '40');
const skipKinds = opt('--skip-kinds', '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const verbose = args.includes('--verbose');
// --keep DIR: each failed seed's whole result (every differing read) in DIR/seed-N.json, and its
// event as it was left — the hub's and each station's data folder, and the run's log — in
// DIR/seed-N/ (a replay of a seed takes other turns: the folders are the evidence).
const keep = opt('--keep', '');

/** Runs one seed in a child process; resolves with its result line. */
function runOne(seed, skip) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'test/hub/convergence-run.ts',
        '--seed',
        String(seed),
        '--ops',
        ops,
        ...(skip ? ['--skip', skip] : []),
      ],
      {
        stdio: ['ignore', 'pipe', verbose || keep ? 'pipe' : 'ignore'],
        env: keep ? { ...process.env, GIFTDESK_KEEP_EVENT: '1' } : process.env,
      },
    );
    let out = '';
    let log = '';
    child.stdout.on('data', (d) => (out += d.toString()));
    child.stderr?.on('data', (d) => {
      if (verbose) process.stderr.write(d);
      if (keep) log += d.toString();
    });
    child.on('exit', (code) => {
      let r;
      try {
        r = JSON.parse(out.trim().split('\n').pop() ?? '');
      } catch {
        r = { seed, failures: [`exited ${code} without a result`], diffs: [], quiet: false, refusals: {} };
      }
      if (keep) keepEvent(seed, log, passed(r));
      resolve(r);
    });
  });
}

/** With --keep: a failed seed's folders and log moved into DIR/seed-N/, a passing seed's removed. */
function keepEvent(seed, log, ok) {
  const dirs = [...log.matchAll(/^kept (\S+)$/gm)].map((m) => m[1]);
  if (ok) {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    return;
  }
  const into = path.join(keep, `seed-${seed}`);
  fs.mkdirSync(into, { recursive: true });
  for (const d of dirs) fs.cpSync(d, path.join(into, path.basename(d)), { recursive: true });
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  fs.writeFileSync(path.join(into, 'run.log'), log);
}

const passed = (r) => r.failures.length === 0 && r.quiet && r.diffs.length === 0;

function summary(r) {
  if (passed(r)) return `seed ${r.seed}: pass (${Math.round(r.ms / 1000)} s)`;
  const first = r.failures[0] ?? (r.quiet ? r.diffs[0] : `not quiet: ${r.notQuiet.join('; ')}`) ?? '';
  return `seed ${r.seed}: FAIL — ${r.failures.length} failures, ${r.diffs.length} reads differ${
    r.quiet ? '' : ', never quiet'
  }\n    ${first.split('\n').slice(0, 4).join('\n    ')}`;
}

async function pool(list, work) {
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, list.length) }, async () => {
      while (next < list.length) {
        const i = next++;
        results[i] = await work(list[i]);
      }
    }),
  );
  return results;
}

if (skipKinds.length > 0) {
  // Each kind switched off at the hub must make some seed fail.
  let caught = 0;
  for (const kind of skipKinds) {
    let failedAt = null;
    for (let s = from; s < from + seeds && failedAt === null; s += parallel) {
      const batch = Array.from({ length: Math.min(parallel, from + seeds - s) }, (_, i) => s + i);
      const rs = await pool(batch, (seed) => runOne(seed, kind));
      // A seed that ended without a result (a crash) says nothing about the kind: not a catch.
      const bad = rs.find((r) => !passed(r) && !(r.failures[0] ?? '').startsWith('exited '));
      if (bad) {
        failedAt = bad.seed;
        process.stdout.write(`without ${kind}: ${summary(bad)}\n`);
      }
    }
    if (failedAt === null)
      process.stdout.write(`without ${kind}: no seed of ${seeds} failed — the check misses it\n`);
    else caught++;
  }
  process.stdout.write(`${caught} of ${skipKinds.length} kinds switched off were caught\n`);
  process.exit(caught === skipKinds.length ? 0 : 1);
}

const list = Array.from({ length: seeds }, (_, i) => from + i);
let ok = 0;
/** read → field → seeds it differed in */
const divergent = new Map();
const refusals = new Map();
await pool(list, async (seed) => {
  const r = await runOne(seed);
  if (passed(r)) ok++;
  else if (keep) {
    fs.mkdirSync(keep, { recursive: true });
    fs.writeFileSync(`${keep}/seed-${seed}.json`, `${JSON.stringify(r, null, 2)}\n`);
  }
  for (const [read, fields] of Object.entries(r.divergent ?? {}))
    for (const f of fields) {
      const k = `${read}: ${f}`;
      divergent.set(k, (divergent.get(k) ?? 0) + 1);
    }
  for (const [k, n] of Object.entries(r.refusals ?? {})) refusals.set(k, (refusals.get(k) ?? 0) + n);
  process.stdout.write(`${summary(r)}\n`);
  return r;
});
if (divergent.size > 0) {
  process.stdout.write('what differed (seeds):\n');
  for (const [k, n] of [...divergent].sort()) process.stdout.write(`  ${k} (${n})\n`);
}
if (refusals.size > 0) {
  process.stdout.write('refused (times):\n');
  for (const [k, n] of [...refusals].sort()) process.stdout.write(`  ${k} (${n})\n`);
}
process.stdout.write(`${ok} of ${seeds} seeds passed\n`);
process.exit(ok === seeds ? 0 : 1);
