/**
 * Part `letters`' second figure (bench/letters.ts runs this file as a child process, as
 * part `ui` runs bench/renderer.ts): gift entry's Enter → the saved row on screen, typed by
 * keyboard in real Chromium (bench/renderer-gift-entry.ts's harness), on a real GiftDesk server
 * holding the letters bench's 1,000 donors and their gifts —
 *
 * - quiet: no run;
 * - printing: while thank-you runs of all 1,000 letters render, one after another, in that
 *   server's process (the run path's worker thread beside the event loop that answers gift
 *   entry), from before the first gift to after the last.
 *
 * Two servers, one per side (the gift-entry harness seeds its own donors and batch), the
 * quiet side first. Beside each figure: the server process's event-loop delay over the
 * counted gifts. Progress on stderr, one JSON line `{ rows, notes }` on stdout.
 *
 * BENCH_LETTERS_ENTRIES (default 100) gifts are counted on each side, after the harness's
 * warm-up.
 */
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Browser } from 'playwright-core';
import { ensureRendererBuilt } from '../electron/cli/renderer-build.ts';
import { resolveChromium } from '../test/browser/chromium.ts';
import { launchChromium, startAppServer, type AppServer } from '../test/browser/helpers.ts';
import { seedLetterData, LETTER_DONORS } from './letters-data.ts';
import { letterSettings, runLetters } from './letters-run.ts';
import { log, fmt, percentiles, WARMUP_ENTRIES, type UiRow } from './renderer-common.ts';
import { closeChecked, enterGifts, openGiftEntry, seed, type Samples } from './renderer-gift-entry.ts';

const ENTRIES = Number(process.env.BENCH_LETTERS_ENTRIES ?? 100);

interface Printing {
  runs: number;
  documents: number;
  runMs: number[];
  /** Share of the counted gifts' time a run was rendering. */
  busyShare: number;
}

/** Runs one after another until stop() (the one under way finishes first). */
function keepPrinting(server: AppServer): { stop(): Promise<Printing> } {
  let stopping = false;
  const runMs: number[] = [];
  let documents = 0;
  const loop = (async () => {
    while (!stopping) {
      const t0 = performance.now();
      const r = await runLetters(server.ctx, server.dataDir, server.accountId);
      runMs.push(performance.now() - t0);
      documents += r.documents;
    }
  })();
  const started = performance.now();
  return {
    async stop() {
      const wall = performance.now() - started;
      stopping = true;
      await loop;
      const busy = runMs.reduce((s, x) => s + x, 0);
      return { runs: runMs.length, documents, runMs, busyShare: Math.min(1, busy / wall) };
    },
  };
}

interface Side {
  samples: Samples;
  loopP99: number;
  loopMax: number;
  printing: Printing | null;
}

async function side(browser: Browser, printing: boolean): Promise<Side> {
  const server = await startAppServer();
  try {
    await letterSettings(server.ctx, server.accountId);
    const data = await seedLetterData(server.ctx, server.accountId);
    log(`${printing ? 'printing' : 'quiet'}: ${data.donors} donors, ${data.gifts} gifts seeded`);
    const setup = await seed(server);
    const app = await openGiftEntry(browser, server, setup.batchId);
    const runs = printing ? keepPrinting(server) : null;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const samples = await enterGifts(app.page, server, setup, ENTRIES);
    loop.disable();
    const p = (await runs?.stop()) ?? null;
    await closeChecked(app, ENTRIES);
    return {
      samples,
      loopP99: loop.percentile(99) / 1e6,
      loopMax: loop.max / 1e6,
      printing: p,
    };
  } finally {
    await server.close();
  }
}

function report(quiet: Side, busy: Side, chromium: string): { rows: UiRow[]; notes: string[] } {
  const q = percentiles(quiet.samples.ours);
  const b = percentiles(busy.samples.ours);
  const p = busy.printing!;
  const runs = percentiles(p.runMs);
  return {
    rows: [
      {
        name: `Gift entry while a ${fmt(LETTER_DONORS, 0)}-letter run prints: Enter → the saved row on screen, ${ENTRIES} gifts typed by keyboard`,
        figure: `p50 ${fmt(b.p50)} ms, p95 ${fmt(b.p95)} ms, max ${fmt(b.max)} ms`,
        baseline: `the same without a run (a second server, same data): p50 ${fmt(q.p50)} ms, p95 ${fmt(q.p95)} ms, max ${fmt(q.max)} ms`,
        ratio: `${(b.p95 / q.p95).toFixed(2)}× the quiet p95`,
        goal: 'p95 under 50 ms',
        met: b.p95 < 50 ? 'yes' : 'no',
      },
    ],
    notes: [
      `Gift entry under a print run: bench/renderer-gift-entry.ts's harness (each gift typed as a user does: donor's name, Enter on the top match, amount, Enter; ${WARMUP_ENTRIES} warm-up gifts, then ${ENTRIES} counted; Enter's event timestamp → first frame after the saved row shows), on a real server with the ${fmt(LETTER_DONORS, 0)} donors and their gifts. While printing, thank-you runs of every donor's letters ran back to back in the server's process from before the first gift to after the last: ${p.runs} runs, ${fmt(p.documents, 0)} letters, a run p50 ${fmt(runs.p50 / 1000, 2)} s (max ${fmt(runs.max / 1000, 2)} s); a run was under way ${fmt(p.busyShare * 100, 0)} % of the time gifts were typed. The server process's event-loop delay over the counted gifts (monitorEventLoopDelay, 10 ms resolution): p99 ${fmt(busy.loopP99)} ms, max ${fmt(busy.loopMax)} ms while printing; p99 ${fmt(quiet.loopP99)} ms, max ${fmt(quiet.loopMax)} ms quiet. The app's POST answered at p50 ${fmt(percentiles(busy.samples.postEnd).p50)} ms after Enter while printing, ${fmt(percentiles(quiet.samples.postEnd).p50)} ms quiet.`,
      `Chromium ${chromium} headless, ${resolveChromium().describe}; the server, its run's worker thread and Chromium share the machine's ${os.cpus().length} cores.`,
    ],
  };
}

export async function benchGiftEntryWhilePrinting(): Promise<{ rows: UiRow[]; notes: string[] }> {
  await ensureRendererBuilt({ log });
  const browser = await launchChromium();
  try {
    const quiet = await side(browser, false);
    const busy = await side(browser, true);
    return report(quiet, busy, browser.version());
  } finally {
    await browser.close();
  }
}

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === path.resolve(import.meta.dirname, 'renderer-letters.ts')
) {
  const out = await benchGiftEntryWhilePrinting();
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
