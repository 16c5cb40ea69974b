/**
 * Sync benchmarks, part `sync` of `npm run bench`. Every figure comes from real
 * parts: HQ is a GiftDesk server on 127.0.0.1 (its own SQLite file), reached only through the
 * fault proxy of test/sync (latency, unknown outcomes, request log with arrival times); the
 * desktop side is a real SQLite file written through the domain, pushed by the real engine
 * with the production client (the settings' rate, burst 1, the production deadline) and the
 * production email match; kill -9 hits a real child process.
 *
 * - requests per synced change, no faults (goal 1.00): a pull from HQ first (what the app does
 *   before an event; not counted), then creates, then edits, then deletes, each pushed before
 *   the next; requests counted at the proxy, changes counted in the outbox;
 * - throughput as a fraction of the rate (5/s) with HQ's latency at 20 ms, 300 ms and 1 s,
 *   HQ enforcing 5/s itself (goal ≥ 0.9, zero 429s, never more than rate + 1 in any second);
 * - requests per synced change with 10% of outcomes unknown (goal ≤ 1.15), exactly once checked;
 * - kill -9 of a syncing process, restart at once: time until a request leaves again (goal < 2 s);
 * - pull of 100,000 HQ contacts at 5 requests/s against its floor (pages ÷ rate).
 *
 * BENCH_SCALE scales the record counts (the pull's 100,000 contacts, the pushes' counts).
 * BENCH_SYNC (default requests,throughput,unknown,kill,pull) runs only some of them, while developing.
 *
 * The benches: sync-push.ts (requests, throughput, unknown), sync-kill-pull.ts (kill, pull);
 * what they share: sync-common.ts.
 */
import { type SyncBenchResult, type Log, fmt } from './sync-common.ts';
import { benchRequestsPerChange, benchThroughput, benchUnknownOutcomes } from './sync-push.ts';
import { benchKillResume, benchPull } from './sync-kill-pull.ts';

export async function benchSync(opts: { scale: number; log: Log }): Promise<SyncBenchResult> {
  const out: SyncBenchResult = { rows: [], notes: [], ok: true };
  const t0 = Date.now();
  const only = new Set(
    (process.env.BENCH_SYNC ?? 'requests,throughput,unknown,kill,pull').split(',').map((x) => x.trim()),
  );
  // One benchmark that fails (e.g. HQ not matching the local intent afterwards) is a row that
  // says so, not an abort that loses every other figure of the run (the exit code still says it).
  const parts: Array<[string, string, typeof benchPull]> = [
    ['requests', 'Requests per synced change', benchRequestsPerChange],
    ['throughput', "Throughput against HQ's rate limit", benchThroughput],
    ['unknown', 'Requests per synced change, 10% of outcomes unknown', benchUnknownOutcomes],
    ['kill', 'Resume after kill -9', benchKillResume],
    ['pull', 'Pull', benchPull],
  ];
  for (const [key, name, run] of parts) {
    if (!only.has(key)) continue;
    try {
      await run(opts.scale, opts.log, out);
    } catch (e) {
      out.ok = false;
      const why = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').replace(/\|/g, '/');
      opts.log(`sync: ${name} failed: ${why}`);
      out.rows.push({
        name,
        figure: `failed: ${why}`,
        reference: '—',
        ratio: '—',
        goal: 'see the issue',
        met: 'no (failed)',
      });
    }
  }
  out.notes.push(`The sync part took ${fmt((Date.now() - t0) / 1000)} s at scale ${opts.scale}.`);
  return out;
}

export function syncMarkdown(r: SyncBenchResult | null, why?: string): string {
  if (!r) return `## Sync\n\n${why ?? 'Not run.'}\n`;
  return [
    '## Sync',
    '',
    '| benchmark | figure | baseline / same-run reference | ratio | goal | met |',
    '|---|---|---|---|---|---|',
    ...r.rows.map((x) => `| ${x.name} | ${x.figure} | ${x.reference} | ${x.ratio} | ${x.goal} | ${x.met} |`),
    '',
    ...r.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}
