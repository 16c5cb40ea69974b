/**
 * A year-end run at HQ scale, for its peak memory: N donors (BENCH_YEAR_END_DONORS, default
 * 2,000) with two to four gifts each (three on average: 100,000 donors make about 300,000
 * gifts), seeded through the bulk import into a real SQLite data folder, then one year-end
 * statement per donor printed through GiftDesk's run path (startLetterRun, its worker, its
 * PDF in parts of `letterRunLimits.lettersPerPart` letters) in a process of its own, so that
 * its max RSS (process.resourceUsage: the whole process, worker threads included) is the
 * run's alone.
 *
 * Gift entry on the same server (BENCH_YEAR_END_ENTRY, default 1; 0: no server): the run's
 * process also serves GiftDesk's API on the same store, and gifts are POSTed to
 * /api/v1/donations one at a time, one every BENCH_YEAR_END_ENTRY_MS (default 500 ms, a few
 * volunteers at the keyboard), first on the quiet server (60 gifts), then for as long as the
 * run renders. Each POST's round trip is timed (the request the entry row's Enter sends, not
 * the row drawn on screen). The client is the same process as the server (its own event loop
 * is the server's), so its figure includes any wait for that loop.
 *
 * The baseline (BENCH_YEAR_END_BARE=1): pdfkit drawing the same statements (the run's merged
 * pages, written out untimed) into one document on the thread of a process of its own, the
 * pages read a line at a time: no database, merge, worker, parts or bookkeeping.
 *
 *   node --import tsx bench/letters-year-end.ts            # seed, then run in a child
 *   node --import tsx bench/letters-year-end.ts run <dataDir> <accountId>
 *   node --import tsx bench/letters-year-end.ts bare <pages.ndjson> <out.pdf>
 *
 * BENCH_YEAR_END_PART sets the letters per part (default: the app's, letterRunLimits);
 * BENCH_YEAR_END_CACHE_MIB the run process's SQLite page cache (default: the app's, 64 MiB).
 * BENCH_YEAR_END_DATABASE_URL (a PostgreSQL role that may create databases): the store is a
 * new database on that server instead of the folder's SQLite file, as at an organisation's HQ
 * (the PDFs still go to the folder).
 * Prints one JSON line with the figures; the folder (and database) are removed unless BENCH_KEEP=1.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { openStore } from '../electron/db/open.ts';
import type { Store } from '../electron/db/store.ts';
import { createAccount } from '../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../electron/domain/accounts/api-keys.ts';
import { createContext } from '../electron/domain/context.ts';
import type { DomainContext } from '../electron/domain/index.ts';
import {
  letterRunLimits,
  loadLetterSettings,
  mergeLetter,
  selectLetters,
  startLetterRun,
  templateOf,
  waitForRun,
  type LetterPage,
} from '../electron/letters/index.ts';
import { openLettersFile } from '../electron/letters/render/pdf.ts';
import { startServer } from '../electron/server/serve.ts';
import { freshDatabase } from './hq-post.ts';
import { seedLetterData } from './letters-data.ts';
import { letterSettings } from './letters-run.ts';
import { percentiles } from './renderer-common.ts';

const ENTRY = process.env.BENCH_YEAR_END_ENTRY !== '0';
const ENTRY_MS = Number(process.env.BENCH_YEAR_END_ENTRY_MS ?? 500);
const QUIET_GIFTS = 60;
/** The store's PostgreSQL database, when the run is on one (set by main for its children). */
const STORE_URL_ENV = 'BENCH_YEAR_END_STORE_URL';

function openBenchStore(dataDir: string, cacheMiB?: number): Promise<Store> {
  const databaseUrl = process.env[STORE_URL_ENV];
  return openStore({ dataDir, ...(databaseUrl ? { databaseUrl } : {}), ...(cacheMiB ? { cacheMiB } : {}) });
}
const YEAR_END = { kind: 'year-end', year: 2026 } as const;

const MiB = 1024 * 1024;

interface RunFigures {
  documents: number;
  gifts: number;
  /** From the call to the PDF written. */
  seconds: number;
  /** Of the run's whole process (its life), worker threads included. */
  maxRssMiB: number;
  rssBeforeMiB: number;
  /** The main thread's JS heap in use just before the run (after a GC when --expose-gc is on). */
  mainHeapBeforeMiB: number;
  /** The highest RSS sampled every 100 ms during the run. */
  sampledPeakMiB: number;
  /** The main thread's own: its JS heap, and memory outside it (buffers), at their highest sampled. */
  mainHeapPeakMiB: number;
  mainExternalPeakMiB: number;
  pdfMiB: number;
  parts: number;
  pages: number;
  /** POST /api/v1/donations round trips, ms: on the quiet server, and while the run rendered. */
  entryQuiet: { n: number; p50: number; p95: number; max: number } | null;
  entryPrinting: { n: number; p50: number; p95: number; max: number } | null;
}

interface Entry {
  /** POSTs one gift every ENTRY_MS until stop(); answers their round trips. */
  keep(): { stop(): Promise<number[]> };
  close(): Promise<void>;
}

/** Serves the API on the store, with a key to POST gifts with, to donors of the account. */
async function entryOn(store: Store, ctx: DomainContext, dataDir: string, accountId: string): Promise<Entry> {
  const server = await startServer({
    store,
    port: 0,
    dataDir,
    rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
  });
  const { keyId, secret } = await createApiKey(ctx, accountId, 'bench');
  const contacts = (
    await store.db.selectFrom('contacts').select('id').where('accountId', '=', accountId).limit(500).execute()
  ).map((c) => c.id);
  const campaign = await store.db
    .selectFrom('campaigns')
    .select('id')
    .where('accountId', '=', accountId)
    .executeTakeFirstOrThrow();
  let n = 0;
  const post = async (): Promise<number> => {
    n += 1;
    const t0 = performance.now();
    const res = await fetch(`${server.url}/api/v1/donations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': keyId, authorization: `Bearer ${secret}` },
      body: JSON.stringify({
        accountId,
        contactId: contacts[n % contacts.length],
        donationAmount: 25,
        donationDate: '2026-12-01',
        paymentMethod: 'cash',
        campaignId: campaign.id,
        notes: `year-end bench entry ${n}`,
      }),
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 201) throw new Error(`POST /donations answered ${res.status}: ${text}`);
    return ms;
  };
  return {
    keep() {
      const samples: number[] = [];
      let stopping = false;
      const loop = (async () => {
        while (!stopping) {
          const next = performance.now() + ENTRY_MS;
          samples.push(await post());
          await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
        }
      })();
      return {
        async stop() {
          stopping = true;
          await loop;
          return samples;
        },
      };
    },
    close: () => server.close(),
  };
}

function summary(samples: number[]) {
  return { n: samples.length, ...percentiles(samples) };
}

async function runSide(dataDir: string, accountId: string): Promise<RunFigures> {
  // BENCH_YEAR_END_PART: letters per part for this run (default: the app's).
  if (process.env.BENCH_YEAR_END_PART)
    letterRunLimits.lettersPerPart = Number(process.env.BENCH_YEAR_END_PART);
  // BENCH_YEAR_END_CACHE_MIB: SQLite's page cache for the run's process (default: the app's, 64 MiB).
  const cacheMiB = process.env.BENCH_YEAR_END_CACHE_MIB
    ? Number(process.env.BENCH_YEAR_END_CACHE_MIB)
    : undefined;
  const store = await openBenchStore(dataDir, cacheMiB);
  const ctx = createContext(store);
  const entry = ENTRY ? await entryOn(store, ctx, dataDir, accountId) : null;
  let entryQuiet: RunFigures['entryQuiet'] = null;
  if (entry) {
    const quiet = entry.keep();
    await new Promise((r) => setTimeout(r, QUIET_GIFTS * ENTRY_MS));
    // The first few warm the route up.
    entryQuiet = summary((await quiet.stop()).slice(5));
  }
  (globalThis as { gc?: () => void }).gc?.();
  const rssBeforeMiB = process.memoryUsage.rss() / MiB;
  const mainHeapBeforeMiB = process.memoryUsage().heapUsed / MiB;
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
  const started = await startLetterRun(ctx, dataDir, { accountId, ...YEAR_END });
  const printing = entry?.keep();
  const run = await waitForRun(ctx, accountId, started.id);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const entryPrinting = printing ? summary(await printing.stop()) : null;
  await entry?.close();
  if (run.status !== 'done') throw new Error(`the year-end run ended ${run.status}: ${run.error}`);
  const files = fs
    .readdirSync(path.join(dataDir, 'letters'))
    .filter((f) => f.startsWith(run.id) && f.endsWith('.pdf'));
  if (files.length !== run.parts.length)
    throw new Error(`${files.length} files for ${run.parts.length} parts`);
  await store.close();
  return {
    documents: run.documents,
    gifts: run.gifts,
    seconds,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    rssBeforeMiB,
    mainHeapBeforeMiB,
    sampledPeakMiB,
    mainHeapPeakMiB,
    mainExternalPeakMiB,
    pdfMiB: files.reduce((s, f) => s + fs.statSync(path.join(dataDir, 'letters', f)).size, 0) / MiB,
    parts: run.parts.length,
    pages: run.parts.reduce((s, p) => s + (p.pages ?? 0), 0),
    entryQuiet,
    entryPrinting,
  };
}

/** The run's statements, merged, one JSON line each (the baseline's input; untimed). */
async function writePagesNdjson(ctx: DomainContext, accountId: string, file: string): Promise<number> {
  const today = ctx.now();
  const set = await selectLetters(ctx.store.db, accountId, YEAR_END, today);
  const settings = await loadLetterSettings(ctx.store.db, accountId);
  const template = templateOf(settings, set.kind);
  const out = fs.openSync(file, 'w');
  set.documents.forEach((d, i) =>
    fs.writeSync(out, `${JSON.stringify(mergeLetter(template, d, { settings, set, today }, i))}\n`),
  );
  fs.closeSync(out);
  return set.documents.length;
}

interface BareFigures {
  documents: number;
  seconds: number;
  maxRssMiB: number;
  pages: number;
  pdfMiB: number;
}

/** The baseline: pdfkit drawing the pages into one document on this thread, read a line at a time. */
async function bareSide(pagesFile: string, out: string): Promise<BareFigures> {
  const file = openLettersFile(out);
  const lines = readline.createInterface({ input: fs.createReadStream(pagesFile) });
  const t0 = performance.now();
  let documents = 0;
  for await (const line of lines) {
    if (!line) continue;
    await file.add(JSON.parse(line) as LetterPage);
    documents += 1;
  }
  const { pages } = await file.close();
  return {
    documents,
    seconds: (performance.now() - t0) / 1000,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    pages,
    pdfMiB: fs.statSync(out).size / MiB,
  };
}

async function child<T>(args: string[]): Promise<T> {
  // BENCH_YEAR_END_NODE_FLAGS: more flags for the run's process (--expose-gc: the heap before is measured after a GC).
  const flags = (process.env.BENCH_YEAR_END_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const c = spawn('node', [...flags, '--import', 'tsx', import.meta.filename, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  c.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const [code] = (await once(c, 'exit')) as [number | null];
  // BENCH_YEAR_END_CHILD_LOG: a file for all the child wrote (with --trace-gc: each thread's heap).
  if (process.env.BENCH_YEAR_END_CHILD_LOG) fs.writeFileSync(process.env.BENCH_YEAR_END_CHILD_LOG, out);
  if (code !== 0) throw new Error(`the ${args[0]} process exited with ${code}`);
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}

async function main(): Promise<void> {
  const [mode, a, b] = process.argv.slice(2);
  if (mode === 'run' && a && b) {
    process.stdout.write(`${JSON.stringify(await runSide(a, b))}\n`);
    return;
  }
  if (mode === 'bare' && a && b) {
    process.stdout.write(`${JSON.stringify(await bareSide(a, b))}\n`);
    return;
  }
  const donors = Number(process.env.BENCH_YEAR_END_DONORS ?? 2000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftdesk-bench-year-end-'));
  const base = process.env.BENCH_YEAR_END_DATABASE_URL;
  const db = base ? await freshDatabase(base, `giftdesk_bench_year_end_${process.pid}`) : null;
  if (db) process.env[STORE_URL_ENV] = db.url;
  try {
    const t0 = performance.now();
    const store = await openBenchStore(dir);
    const ctx = createContext(store);
    const { id } = await createAccount(ctx, 'Riverside Library Friends');
    await letterSettings(ctx, id);
    const data = await seedLetterData(ctx, id, { donors, gifts: [2, 4] });
    await store.close();
    const seedSeconds = (performance.now() - t0) / 1000;
    const loadBefore = os.loadavg().map((l) => l.toFixed(2));
    const run = await child<RunFigures>(['run', dir, id]);
    const load = os.loadavg().map((l) => l.toFixed(2));
    // The run's figures at once (the baseline may take as long again).
    process.stderr.write(
      `run: ${JSON.stringify({ donors: data.donors, seedSeconds, ...run, loadBefore, load })}\n`,
    );
    let bare: (BareFigures & { load: string[]; oursOverBare: number }) | null = null;
    if (process.env.BENCH_YEAR_END_BARE === '1') {
      const pagesFile = path.join(dir, 'pages.ndjson');
      const s = await openBenchStore(dir);
      await writePagesNdjson(createContext(s), id, pagesFile);
      await s.close();
      const b = await child<BareFigures>(['bare', pagesFile, path.join(dir, 'bare.pdf')]);
      bare = {
        ...b,
        load: os.loadavg().map((l) => l.toFixed(2)),
        oursOverBare: run.seconds / b.seconds,
      };
    }
    process.stdout.write(
      `${JSON.stringify({ donors: data.donors, seedSeconds, ...run, loadBefore, load, cpus: os.cpus().length, engine: db ? 'postgres' : 'sqlite', bare })}\n`,
    );
  } finally {
    if (process.env.BENCH_KEEP !== '1') {
      fs.rmSync(dir, { recursive: true, force: true });
      await db?.drop();
    }
  }
}

await main();
