/**
 * Gift entry in Chromium while a year-end run prints on the same server: Enter → the saved row
 * on screen (bench/renderer-gift-entry.ts's measure, typed by keyboard), first on the quiet
 * server, then while the run renders. The run covers BENCH_LETTERS_ENTRY_DONORS donors (default
 * 100,000) and two to four gifts each; GIFTDESK_TEST_ENGINE=postgres with DATABASE_URL puts the
 * server on PostgreSQL, as at HQ. Prints one JSON line: both rounds' p50/p95/max, and whether the
 * run was still rendering when the second round ended (else the round overlapped only part of it).
 *
 *   node --import tsx bench/renderer-entry-while-printing.ts
 */
import type { Browser } from 'playwright-core';
import { ensureRendererBuilt } from '../electron/cli/renderer-build.ts';
import { getLetterRun, startLetterRun, waitForRun } from '../electron/letters/index.ts';
import { launchChromium, startAppServer } from '../test/browser/helpers.ts';
import { seedLetterData } from './letters-data.ts';
import { letterSettings } from './letters-run.ts';
import { ENTRIES, WARMUP_ENTRIES, log, percentiles } from './renderer-common.ts';
import { closeChecked, enterGifts, openGiftEntry, seed } from './renderer-gift-entry.ts';

const DONORS = Number(process.env.BENCH_LETTERS_ENTRY_DONORS ?? 100_000);

await ensureRendererBuilt({ log });
const server = await startAppServer();
let browser: Browser | null = null;
try {
  const t0 = performance.now();
  await letterSettings(server.ctx, server.accountId);
  const data = await seedLetterData(server.ctx, server.accountId, { donors: DONORS, gifts: [2, 4] });
  const seedSeconds = (performance.now() - t0) / 1000;
  log(`seeded ${data.donors} donors in ${seedSeconds.toFixed(0)} s`);
  browser = await launchChromium();
  const setup = await seed(server);
  const app = await openGiftEntry(browser, server, setup.batchId);
  const quiet = await enterGifts(app.page, server, setup);
  const started = await startLetterRun(server.ctx, server.dataDir, {
    accountId: server.accountId,
    kind: 'year-end',
    year: 2026,
  });
  const t1 = performance.now();
  const printing = await enterGifts(app.page, server, setup);
  const stillRendering =
    (await getLetterRun(server.ctx, server.accountId, started.id)).status === 'rendering';
  const enteredSeconds = (performance.now() - t1) / 1000;
  await closeChecked(app, WARMUP_ENTRIES + 2 * ENTRIES);
  const run = await waitForRun(server.ctx, server.accountId, started.id);
  const runSeconds = (performance.now() - t1) / 1000;
  process.stdout.write(
    `${JSON.stringify({
      engine: server.store.engine,
      donors: data.donors,
      seedSeconds,
      documents: run.documents,
      runStatus: run.status,
      runSeconds,
      enteredSeconds,
      stillRendering,
      quiet: percentiles(quiet.ours),
      printing: percentiles(printing.ours),
      baselineQuiet: percentiles(quiet.base),
      baselinePrinting: percentiles(printing.base),
    })}\n`,
  );
} finally {
  await browser?.close();
  await server.close();
}
