/**
 * Gift entry in Chromium while a year-end run prints on the same server: Enter → the saved row
 * on screen (bench/renderer-gift-entry.ts's measure, typed by keyboard), first on the quiet
 * server, then while the run renders. The run covers BENCH_LETTERS_ENTRY_DONORS donors (default
 * 100,000) and two to four gifts each; GIFTDESK_TEST_ENGINE=postgres with DATABASE_URL puts the
 * server on PostgreSQL, as at HQ. The server runs in a process of its own, as at HQ
 * (bench/entry-while-printing-server.ts), and the browser's driver in this one. Prints one
 * JSON line: both rounds' p50/p95/max, and whether the run was still rendering when the second
 * round ended (else the round overlapped only part of it).
 *
 *   node --import tsx bench/renderer-entry-while-printing.ts
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { ensureRendererBuilt } from '../electron/cli/renderer-build.ts';
import { launchChromium } from '../test/browser/helpers.ts';
import { rawRequest } from '../test/helpers/server.ts';
import type { EntryServerAnswer, EntryServerRequest } from './entry-while-printing-server.ts';
import { ENTRIES, WARMUP_ENTRIES, log, percentiles } from './renderer-common.ts';
import { closeChecked, enterGifts, openGiftEntry, seed, type EntryServer } from './renderer-gift-entry.ts';

/** The server's process: its answers in order, one per request. */
function serverProcess(): { child: ChildProcess; next: () => Promise<EntryServerAnswer> } {
  const child = fork(path.join(import.meta.dirname, 'entry-while-printing-server.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const queue: EntryServerAnswer[] = [];
  let wake: ((m: EntryServerAnswer) => void) | null = null;
  const put = (m: EntryServerAnswer) => {
    if (!wake) return void queue.push(m);
    const w = wake;
    wake = null;
    w(m);
  };
  child.on('message', (m: EntryServerAnswer) => put(m));
  child.on('exit', (code) => put({ type: 'failed', error: `the server's process ended (${code})` }));
  const next = () =>
    queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise<EntryServerAnswer>((r) => (wake = r));
  return { child, next };
}

await ensureRendererBuilt({ log });
const { child, next } = serverProcess();
const ask = async <T extends EntryServerAnswer['type']>(
  req: EntryServerRequest,
  want: T,
): Promise<Extract<EntryServerAnswer, { type: T }>> => {
  child.send(req);
  const a = await next();
  if (a.type !== want) throw new Error(`the server answered ${JSON.stringify(a)} to ${req.type}`);
  return a as Extract<EntryServerAnswer, { type: T }>;
};
let browser: Browser | null = null;
try {
  const ready = await next();
  if (ready.type !== 'ready') throw new Error(`the server did not start: ${JSON.stringify(ready)}`);
  log(`seeded ${ready.donors} donors in ${ready.seedSeconds.toFixed(0)} s`);
  const auth = { 'x-api-key': ready.keyId, authorization: `Bearer ${ready.secret}` };
  // One link opens the app (openGiftEntry opens it once, then reloads the signed-in page).
  const link = (await ask({ type: 'link' }, 'link')).link;
  const server: EntryServer = {
    accountId: ready.accountId,
    keyId: ready.keyId,
    secret: ready.secret,
    appLink: () => link,
    request: (method, p, body, headers = {}) =>
      rawRequest(`${ready.url}${p}`, method, body, { ...auth, ...headers }),
  };
  browser = await launchChromium();
  const setup = await seed(server);
  const app = await openGiftEntry(browser, server, setup.batchId);
  const quiet = await enterGifts(app.page, server, setup);
  const { runId } = await ask({ type: 'start-run' }, 'started');
  const t1 = performance.now();
  const printing = await enterGifts(app.page, server, setup);
  const stillRendering = (await ask({ type: 'run-status', runId }, 'status')).status === 'rendering';
  const enteredSeconds = (performance.now() - t1) / 1000;
  await closeChecked(app, WARMUP_ENTRIES + 2 * ENTRIES);
  const run = await ask({ type: 'wait-run', runId }, 'done');
  const runSeconds = (performance.now() - t1) / 1000;
  process.stdout.write(
    `${JSON.stringify({
      engine: ready.engine,
      donors: ready.donors,
      seedSeconds: ready.seedSeconds,
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
  if (child.connected) await ask({ type: 'close' }, 'closed').catch(() => undefined);
  child.kill();
}
