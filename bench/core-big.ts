/**
 * Parts `import`, `reads` and `lag` of `npm run bench`, on one 1,000,000-row database: the
 * CSV import by the CLI, reads over HTTP (search, donation pages near and far, peak RSS) and
 * the server's event-loop lag while it imports through its own route.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import BetterSqlite3 from 'better-sqlite3';
import { openStore } from '../electron/db/open.ts';
import { searchWords } from '../electron/db/contact-search.ts';
import { startServer } from '../electron/server/serve.ts';
import {
  N,
  CONTACTS,
  FAR_OFFSET,
  WORK,
  log,
  fmt,
  childCpuSeconds,
  cli,
  benchAccount,
  percentiles,
  timeRequests,
  rows,
  notes,
} from './core-common.ts';
import { contactsCsv, donationRows, donationsCsv } from './core-data.ts';
import { SQLITE_SEARCHES } from './names.ts';

export interface BigDb {
  dir: string;
  accountId: string;
  keyId: string;
  secret: string;
}

/**
 * BENCH_BIG_DIR keeps the 1,000,000-row database of parts import/reads/lag outside the run's
 * work directory: built there (by the import part) on the first run, reused as it is by later
 * runs (its bench.json names the account and key), so `BENCH_PARTS=reads` can run alone.
 */
const BIG_DIR = process.env.BENCH_BIG_DIR ? path.resolve(process.env.BENCH_BIG_DIR) : null;

export async function bigDb(): Promise<BigDb> {
  const saved = BIG_DIR ? path.join(BIG_DIR, 'bench.json') : null;
  if (saved && fs.existsSync(saved)) {
    log(`reusing the database in ${BIG_DIR} (BENCH_BIG_DIR); no import figures this run`);
    return JSON.parse(fs.readFileSync(saved, 'utf8')) as BigDb;
  }
  const big = await benchImport(BIG_DIR ?? path.join(WORK, 'big'));
  if (saved) fs.writeFileSync(saved, JSON.stringify(big));
  return big;
}

async function benchImport(dir: string): Promise<BigDb> {
  fs.mkdirSync(dir, { recursive: true });
  const { accountId, keyId, secret, campaignId } = await benchAccount(dir, 'Legacy');
  const contactsFile = path.join(WORK, 'contacts.csv');
  const donationsFile = path.join(WORK, 'donations.csv');
  log(`generating ${fmt(CONTACTS, 0)} contacts and ${fmt(N, 0)} donations as CSV`);
  contactsCsv(contactsFile, CONTACTS);
  donationsCsv(donationsFile, N, CONTACTS, campaignId);

  log('import contacts (CLI)');
  let t0 = performance.now();
  const c = (await cli(dir, 'import', 'contacts', contactsFile, '--account', accountId, '--no-push')) as {
    imported: number;
    rejected: unknown[];
  };
  const contactSeconds = (performance.now() - t0) / 1000;
  if (c.imported !== CONTACTS)
    throw new Error(
      `imported ${c.imported} contacts of ${CONTACTS} (${JSON.stringify(c.rejected.slice(0, 3))})`,
    );

  // The baseline gets the same database as it is now (contacts in, no donations) ...
  const baseFile = path.join(WORK, 'baseline-import.sqlite');
  const src = new BetterSqlite3(path.join(dir, 'giftdesk.sqlite'));
  src.prepare('vacuum into ?').run(baseFile);
  src.close();
  if (process.env.BENCH_KEEP === '1') fs.copyFileSync(baseFile, path.join(WORK, 'contacts-only.sqlite'));

  log('import donations (CLI)');
  const cpu0 = childCpuSeconds();
  t0 = performance.now();
  const d = (await cli(dir, 'import', 'donations', donationsFile, '--account', accountId, '--no-push')) as {
    imported: number;
    rejected: unknown[];
  };
  const oursSeconds = (performance.now() - t0) / 1000;
  const oursCpu = childCpuSeconds() - cpu0;
  if (d.imported !== N)
    throw new Error(`imported ${d.imported} donations of ${N} (${JSON.stringify(d.rejected.slice(0, 3))})`);

  // ... and inserts the same rows with one raw prepared statement in one transaction.
  log('baseline: raw prepared insert of the same donations');
  const raw = new BetterSqlite3(baseFile);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  const contactIds = raw.prepare('select id from contacts order by external_id').all() as Array<{
    id: string;
  }>;
  const byExternal = new Map(
    (raw.prepare('select external_id as e, id from contacts').all() as Array<{ e: string; id: string }>).map(
      (r) => [r.e, r.id],
    ),
  );
  void contactIds;
  const insert = raw.prepare(
    `insert into donations (id, account_id, contact_id, amount_cents, donation_date, payment_method, status, campaign_id,
       election_type, election_year, is_anonymous, is_recurring, thank_you_sent, external_id, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, 'completed', ?, 'general', 2026, 0, 0, 0, ?, ?, ?)`,
  );
  t0 = performance.now();
  const baseCpu0 = process.cpuUsage();
  const now = new Date().toISOString();
  raw.transaction(() => {
    for (const r of donationRows(N, CONTACTS)) {
      insert.run(
        `don_raw${r.externalId}`,
        accountId,
        byExternal.get(`c${r.contact}`),
        r.cents,
        r.date,
        r.method,
        campaignId,
        r.externalId,
        now,
        now,
      );
    }
  })();
  const baseSeconds = (performance.now() - t0) / 1000;
  const baseCpuUsage = process.cpuUsage(baseCpu0);
  const baseCpu = (baseCpuUsage.user + baseCpuUsage.system) / 1e6;
  raw.close();
  fs.rmSync(baseFile, { force: true });

  const ours = N / oursSeconds;
  const base = N / baseSeconds;
  rows.push({
    name: `giftdesk import donations, ${fmt(N, 0)} rows (CLI, whole command)`,
    figure: `${fmt(ours, 0)} rows/s (${fmt(oursSeconds)} s; CPU ${fmt(oursCpu)} s)`,
    baseline: `raw prepared INSERT, one transaction: ${fmt(base, 0)} rows/s (${fmt(baseSeconds)} s; CPU ${fmt(baseCpu)} s)`,
    ratio: (ours / base).toFixed(2),
    goal: '≥ 0.5',
    met: ours / base >= 0.5 ? 'yes' : 'no',
  });
  notes.push(
    `Import: the CLI's wall-clock time, process start and CSV parsing included; every row passes the API's validation and rules (references, D5, D6 windows, totals, counters). Contacts first (${fmt(CONTACTS, 0)} rows in ${fmt(contactSeconds)} s, ${fmt(CONTACTS / contactSeconds, 0)} rows/s, for information). The baseline inserts the same donation rows into a copy of the same database (contacts present, foreign keys on) with no validation. CPU: user + system seconds of the CLI process and of the baseline's insert loop (the ratio is of wall-clock rates; CPU time moves less with the machine's load).`,
  );
  return { dir, accountId, keyId, secret };
}

/** `giftdesk serve` on the big database, warnings only; its first JSON line names the address. */
async function serveBig(big: BigDb): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    'node',
    [
      'bin/giftdesk.mjs',
      'serve',
      '--port',
      '0',
      '--json',
      '--data-dir',
      big.dir,
      '--log-level',
      'warn',
      '--rate',
      '1000000',
      '--burst',
      '1000000',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const { url } = JSON.parse(line.toString()) as { url: string };
  return { child, url };
}

/** What each read's request needs: the server's address, the key's headers, the account's query. */
interface Reads {
  big: BigDb;
  url: string;
  headers: Record<string, string>;
  q: string;
}

/** Baseline of the search row: the raw FTS5 query and its count on the same file, in process. */
function rawFtsTimes(big: BigDb, searches: readonly string[]): number[] {
  const raw = new BetterSqlite3(path.join(big.dir, 'giftdesk.sqlite'), { readonly: true });
  const page = raw.prepare('select rowid from contacts_fts where contacts_fts match ? limit 50');
  const count = raw.prepare('select count(*) from contacts_fts where contacts_fts match ?');
  const rawTimes: number[] = [];
  for (let round = 0; round <= 10; round++) {
    for (const t of searches) {
      const m = searchWords(t)
        .map((w) => `"${w}"*`)
        .join(' AND ');
      const t0 = performance.now();
      page.all(m);
      count.get(m);
      if (round > 0) rawTimes.push(performance.now() - t0);
    }
  }
  raw.close();
  return rawTimes;
}

async function benchSearchReads({ big, url, headers, q }: Reads): Promise<void> {
  const searches = SQLITE_SEARCHES;
  log('search latency over HTTP');
  const s = await timeRequests(
    searches.map((t) => `${url}/api/v1/contacts?${q}&search=${encodeURIComponent(t)}`),
    headers,
    10,
  );
  const r = percentiles(rawFtsTimes(big, searches));
  rows.push({
    name: `GET /api/v1/contacts?search= on ${fmt(CONTACTS, 0)} contacts, total included`,
    figure: `p50 ${fmt(s.p50)} ms, p95 ${fmt(s.p95)} ms, p99 ${fmt(s.p99)} ms`,
    baseline: `raw FTS5 page of 50 + count: p50 ${fmt(r.p50)} ms, p95 ${fmt(r.p95)} ms`,
    ratio: (s.p95 / r.p95).toFixed(2) + '× the raw p95',
    goal: 'p95 under 15 ms end to end',
    met: s.p95 < 15 ? 'yes' : 'no',
  });
}

/** Baseline of the far page: its 100 ids by raw OFFSET over the account's date index, prepared, in process. */
function rawFarPageTimes(big: BigDb): number[] {
  const rawDb = new BetterSqlite3(path.join(big.dir, 'giftdesk.sqlite'), { readonly: true });
  const farIds = rawDb.prepare(
    'select id from donations where account_id = ? order by donation_date desc, id desc limit 100 offset ?',
  );
  const farTimes: number[] = [];
  for (let round = 0; round <= 30; round++) {
    const t0 = performance.now();
    const got = farIds.all(big.accountId, FAR_OFFSET);
    if (round > 0) farTimes.push(performance.now() - t0);
    if (got.length !== 100) throw new Error(`raw OFFSET page holds ${got.length} rows`);
  }
  rawDb.close();
  return farTimes;
}

async function benchDonationReads({ big, url, headers, q }: Reads): Promise<void> {
  log('donation list latency over HTTP');
  const d0 = await timeRequests([`${url}/api/v1/donations?${q}&limit=100`], headers, 200);
  const dFar = await timeRequests(
    [`${url}/api/v1/donations?${q}&limit=100&offset=${FAR_OFFSET}`],
    headers,
    30,
  );
  const dDate = await timeRequests(
    [`${url}/api/v1/donations?${q}&limit=100&startDate=2025-03-01&endDate=2025-03-31`],
    headers,
    50,
  );
  const farRaw = percentiles(rawFarPageTimes(big));
  rows.push({
    name: `GET /api/v1/donations, limit 100, total included, ${fmt(N, 0)} donations, offset 0`,
    figure: `p50 ${fmt(d0.p50)} ms, p95 ${fmt(d0.p95)} ms, p99 ${fmt(d0.p99)} ms (total ${fmt(d0.total, 0)})`,
    baseline: '—',
    ratio: '—',
    goal: 'p95 under 5 ms',
    met: d0.p95 < 5 ? 'yes' : 'no',
  });
  rows.push({
    name: `… offset ${fmt(FAR_OFFSET, 0)}`,
    figure: `p50 ${fmt(dFar.p50)} ms, p95 ${fmt(dFar.p95)} ms`,
    baseline: `raw prepared SELECT of the page's 100 ids, ORDER BY donation_date DESC, id DESC OFFSET ${fmt(FAR_OFFSET, 0)}, in process: p50 ${fmt(farRaw.p50)} ms, p95 ${fmt(farRaw.p95)} ms`,
    ratio: `${(dFar.p95 / farRaw.p95).toFixed(2)}× the raw p95`,
    goal: '≤ 2× the raw OFFSET',
    met: dFar.p95 <= 2 * farRaw.p95 ? 'yes' : 'no',
  });
  rows.push({
    name: '… startDate 2025-03-01, endDate 2025-03-31 (one month, total counted)',
    figure: `p50 ${fmt(dDate.p50)} ms, p95 ${fmt(dDate.p95)} ms (total ${fmt(dDate.total, 0)})`,
    baseline: '—',
    ratio: '—',
    goal: 'report',
    met: '—',
  });
}

/** The serving process's peak resident set (VmHWM), after the reads. */
function peakRssRow(child: ChildProcess): void {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
  rows.push({
    name: `Peak RSS of giftdesk serve with the ${fmt(N, 0)}-row database, after the reads above`,
    figure: `${fmt(hwm)} MiB`,
    baseline: '—',
    ratio: '—',
    goal: 'report',
    met: '—',
  });
}

export async function benchReads(big: BigDb): Promise<void> {
  const { child, url } = await serveBig(big);
  const headers = { 'x-api-key': big.keyId, authorization: `Bearer ${big.secret}` };
  const reads: Reads = { big, url, headers, q: `accountId=${big.accountId}` };
  try {
    await benchSearchReads(reads);
    await benchDonationReads(reads);
    peakRssRow(child);
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

export async function benchImportLag(big: BigDb): Promise<void> {
  // A second database with the contacts only, then the donations through the server's own route.
  const dir = path.join(WORK, 'lag');
  fs.mkdirSync(dir, { recursive: true });
  const src = new BetterSqlite3(path.join(big.dir, 'giftdesk.sqlite'));
  src.prepare('vacuum into ?').run(path.join(dir, 'giftdesk.sqlite'));
  src.close();
  const store = await openStore({ dataDir: dir });
  await store.db.deleteFrom('donations').execute();
  const running = await startServer({ store, port: 0, rateLimit: { ratePerSecond: 1e9, burst: 1e9 } });
  const headers = { 'x-api-key': big.keyId, authorization: `Bearer ${big.secret}` };
  const h = monitorEventLoopDelay({ resolution: 5 });
  try {
    const csvFile = path.join(WORK, 'donations.csv');
    if (!fs.existsSync(csvFile))
      throw new Error('part lag needs the donations CSV of this run: run it without a reused BENCH_BIG_DIR');
    const body = fs.readFileSync(csvFile);
    log(`import of ${fmt(N, 0)} donations through POST /api/v1/imports, measuring event-loop lag`);
    h.enable();
    const t0 = performance.now();
    const res = await fetch(
      `${running.url}/api/v1/imports?accountId=${big.accountId}&kind=donations&push=false`,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/csv' },
        body,
      },
    );
    const job = (await res.json()) as { id: string; status: string };
    if (res.status !== 202) throw new Error(`import route answered ${res.status}: ${JSON.stringify(job)}`);
    let state = job;
    const probe: number[] = [];
    while (state.status !== 'done' && state.status !== 'failed') {
      await new Promise((r) => setTimeout(r, 200));
      const p0 = performance.now();
      const r = await fetch(`${running.url}/api/v1/imports/${job.id}?accountId=${big.accountId}`, {
        headers,
      });
      state = (await r.json()) as typeof job;
      probe.push(performance.now() - p0);
    }
    const seconds = (performance.now() - t0) / 1000;
    h.disable();
    if (state.status !== 'done') throw new Error(`import ${state.status}`);
    const p99 = h.percentile(99) / 1e6;
    const pr = percentiles(probe);
    rows.push({
      name: `Event-loop lag of the server while it imports ${fmt(N, 0)} rows through its own import route`,
      figure: `p99 ${fmt(p99)} ms, max ${fmt(h.max / 1e6)} ms (import ${fmt(seconds)} s; progress requests meanwhile p95 ${fmt(pr.p95)} ms)`,
      baseline: '—',
      ratio: '—',
      goal: 'p99 under 50 ms',
      met: p99 < 50 ? 'yes' : 'no',
    });
  } finally {
    await running.close();
  }
}
