/**
 * A year-end run at HQ scale, for its peak memory: N donors (BENCH_YEAR_END_DONORS, default
 * 2,000) with two to four gifts each (three on average: 100,000 donors make about 300,000
 * gifts), seeded through the bulk import into a real SQLite data folder, then one year-end
 * statement per donor printed through GiftDesk's run path (startLetterRun, its worker, one
 * PDF) in a process of its own, so that its max RSS (process.resourceUsage: the whole
 * process, worker threads included) is the run's alone.
 *
 *   node --import tsx bench/letters-year-end.ts            # seed, then run in a child
 *   node --import tsx bench/letters-year-end.ts run <dataDir> <accountId>
 *
 * Prints one JSON line with the figures; the folder is removed unless BENCH_KEEP=1.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../electron/db/open.ts';
import { createAccount } from '../electron/domain/accounts/accounts.ts';
import { createContext } from '../electron/domain/context.ts';
import { startLetterRun, waitForRun } from '../electron/letters/index.ts';
import { seedLetterData } from './letters-data.ts';
import { letterSettings } from './letters-run.ts';

const MiB = 1024 * 1024;

interface RunFigures {
  documents: number;
  gifts: number;
  /** From the call to the PDF written. */
  seconds: number;
  /** Of the run's whole process (its life), worker threads included. */
  maxRssMiB: number;
  rssBeforeMiB: number;
  /** The highest RSS sampled every 100 ms during the run. */
  sampledPeakMiB: number;
  /** The main thread's own: its JS heap, and memory outside it (buffers), at their highest sampled. */
  mainHeapPeakMiB: number;
  mainExternalPeakMiB: number;
  pdfMiB: number;
}

async function runSide(dataDir: string, accountId: string): Promise<RunFigures> {
  const store = await openStore({ dataDir });
  const ctx = createContext(store);
  const rssBeforeMiB = process.memoryUsage.rss() / MiB;
  let sampledPeakMiB = rssBeforeMiB;
  let mainHeapPeakMiB = 0;
  let mainExternalPeakMiB = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    sampledPeakMiB = Math.max(sampledPeakMiB, m.rss / MiB);
    mainHeapPeakMiB = Math.max(mainHeapPeakMiB, m.heapUsed / MiB);
    mainExternalPeakMiB = Math.max(mainExternalPeakMiB, m.external / MiB);
  }, 100);
  const t0 = performance.now();
  const started = await startLetterRun(ctx, dataDir, { accountId, kind: 'year-end', year: 2026 });
  const run = await waitForRun(ctx, accountId, started.id);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  if (run.status !== 'done') throw new Error(`the year-end run ended ${run.status}: ${run.error}`);
  const pdf = path.join(dataDir, 'letters', `${run.id}.pdf`);
  await store.close();
  return {
    documents: run.documents,
    gifts: run.gifts,
    seconds,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    rssBeforeMiB,
    sampledPeakMiB,
    mainHeapPeakMiB,
    mainExternalPeakMiB,
    pdfMiB: fs.statSync(pdf).size / MiB,
  };
}

async function main(): Promise<void> {
  const [mode, a, b] = process.argv.slice(2);
  if (mode === 'run' && a && b) {
    process.stdout.write(`${JSON.stringify(await runSide(a, b))}\n`);
    return;
  }
  const donors = Number(process.env.BENCH_YEAR_END_DONORS ?? 2000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftdesk-bench-year-end-'));
  try {
    const t0 = performance.now();
    const store = await openStore({ dataDir: dir });
    const ctx = createContext(store);
    const { id } = await createAccount(ctx, 'Riverside Library Friends');
    await letterSettings(ctx, id);
    const data = await seedLetterData(ctx, id, { donors, gifts: [2, 4] });
    await store.close();
    const seedSeconds = (performance.now() - t0) / 1000;
    const c = spawn('node', ['--import', 'tsx', import.meta.filename, 'run', dir, id], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    c.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const [code] = (await once(c, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`the run's process exited with ${code}`);
    const run = JSON.parse(out.trim().split('\n').pop()!) as RunFigures;
    const load = os.loadavg().map((l) => l.toFixed(2));
    process.stdout.write(
      `${JSON.stringify({ donors: data.donors, seedSeconds, ...run, load, cpus: os.cpus().length })}\n`,
    );
  } finally {
    if (process.env.BENCH_KEEP !== '1') fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
