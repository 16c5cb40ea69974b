/**
 * What the core (SQLite) parts of `npm run bench` share (bench/run.ts runs them): the scale,
 * the work directory, logging and formatting, the CLI, request timing, and the result rows.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import vm from 'node:vm';

export const exec = promisify(execFile);
export const SCALE = Number(process.env.BENCH_SCALE ?? 1);
export const N = Math.round(1_000_000 * SCALE);
export const CONTACTS = N;
/** The far page the issue names: offset 900,000 of 1,000,000. */
export const FAR_OFFSET = Math.floor(N * 0.9);
export const WORK = path.resolve('bench/.work', `run-${process.pid}`);
export const log = (s: string) =>
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
/**
 * Throws unless the process's `JSON.parse` and `JSON.stringify` are the engine's own. Every
 * server the bench times in its own process parses and writes JSON on each request, and a
 * module that installs polyfills over them (pdf.js's legacy build does: core-js, forced on
 * Node 20) slows the side that writes more of it. Called before each part is timed.
 */
export function assertNativeJson(): void {
  // Another realm's Function.prototype.toString: core-js also patches this realm's, so that its
  // polyfills print as native code.
  const source = vm.runInNewContext('Function.prototype.toString') as (this: unknown) => string;
  const native = (f: unknown) => /\{\s*\[native code\]\s*\}\s*$/.test(source.call(f));
  if (!native(JSON.parse) || !native(JSON.stringify))
    throw new Error(
      'JSON.parse or JSON.stringify is not native in the bench process: a module polyfilled it',
    );
}
export const fmt = (n: number, d = 1) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/**
 * CPU seconds (user + system) of this process's finished children (Linux; NaN elsewhere):
 * on a shared machine a command's CPU time moves far less with the load than its wall time.
 */
export function childCpuSeconds(): number {
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime, cstime, in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

export async function cli(dataDir: string, ...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await exec('node', ['bin/giftdesk.mjs', ...args, '--data-dir', dataDir, '--json'], {
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** A fresh account in `dataDir` with a script key and one campaign, through the CLI. */
export async function benchAccount(
  dataDir: string,
  campaign: string,
): Promise<{ accountId: string; keyId: string; secret: string; campaignId: string }> {
  const { id: accountId } = (await cli(dataDir, 'account', 'create', '--name', 'Bench')) as { id: string };
  const { keyId, secret } = (await cli(dataDir, 'key', 'create', '--account', accountId)) as {
    keyId: string;
    secret: string;
  };
  const { id: campaignId } = (await cli(
    dataDir,
    'campaign',
    'create',
    '--account',
    accountId,
    '--name',
    campaign,
  )) as { id: string };
  return { accountId, keyId, secret, campaignId };
}

export function percentiles(samples: number[]): { p50: number; p95: number; p99: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
  return { p50: at(50), p95: at(95), p99: at(99) };
}

export async function timeRequests(
  urls: string[],
  headers: Record<string, string>,
  rounds: number,
): Promise<{ p50: number; p95: number; p99: number; total: number }> {
  const times: number[] = [];
  let total = 0;
  // The first rounds warm the page cache and the server's JIT (a fresh server's first few
  // answers take 4–45 ms: the steady state is what is timed): one round, or a twentieth of
  // them when a round is one request.
  const warm = urls.length > 1 ? 1 : Math.max(1, Math.ceil(rounds / 20));
  for (let round = 0; round < rounds + warm; round++) {
    for (const url of urls) {
      const t0 = performance.now();
      const res = await fetch(url, { headers });
      const body = (await res.json()) as { total?: number };
      const dt = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
      if (round >= warm) times.push(dt);
      total = body.total ?? total;
    }
  }
  return { ...percentiles(times), total };
}

export interface Row {
  name: string;
  figure: string;
  baseline: string;
  ratio: string;
  goal: string;
  met: string;
}
export const rows: Row[] = [];
export const notes: string[] = [];
