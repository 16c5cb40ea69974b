/**
 * HQ-mode benchmarks (PostgreSQL), from the HQ issue:
 *  - POST /api/v1/donations throughput at 50 connections on PostgreSQL against a bare
 *    Fastify + zod + pg route doing what it must (bench/hq-post.ts), same run: the ratio is
 *    reported; and against the same server on SQLite.
 *  - GET /api/v1/contacts?search= p95 on 1,000,000 contacts on PostgreSQL: goal under 50 ms
 *    (20 ms stretch); bench/search-postgres.ts measures it alone, with relevance and a baseline.
 * Each server runs in this process; the load comes from autocannon in a child process, so
 * the load generator never shares the server's event loop.
 *
 * Needs BENCH_DATABASE_URL (or GIFTDESK_TEST_DATABASE_URL): a role that may create databases.
 * BENCH_SCALE (default 1) scales the contact count.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { openStore } from '../electron/db/open.ts';
import type { Store } from '../electron/db/store.ts';
import { createAccount } from '../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../electron/domain/accounts/api-keys.ts';
import { createContext } from '../electron/domain/context.ts';
import { startServer } from '../electron/server/serve.ts';
import { type Audit, auditPosts, type LoadResult } from './audit-posts.ts';
import { benchHqPost, freshDatabase, type HqPostResults, hqPostMarkdown } from './hq-post.ts';
import { PG_FIRST, PG_LAST, PG_SEARCHES } from './names.ts';

const run = promisify(execFile);

export interface HqResults {
  postgresRps: number;
  sqliteRps: number;
  ratio: number;
  contacts: number;
  searchP50: number;
  searchP95: number;
  searchP99: number;
  pgVersion: string;
  seconds: number;
  /** the check of every gift answered 201, per engine */
  sqliteAudit: Audit | null;
  postgresAudit: Audit | null;
  /** the donations list on PostgreSQL (part `list` of BENCH_HQ) */
  list: ListResults | null;
  /** POST on PostgreSQL against the bare pg route (part `post` of BENCH_HQ) */
  post: HqPostResults | null;
}

export interface ListResults {
  donations: number;
  farOffset: number;
  first: { p50: number; p95: number; total: number };
  far: { p50: number; p95: number };
  raw: { p50: number; p95: number };
}

/**
 * Gifts straight into PostgreSQL: `n` for the account, spread over its donors and over
 * 2023-01-01 … 2026-11-21 (whole minutes, so many share an instant), every 1000th voided; and
 * 1% as many for a second account on the same dates. Then VACUUM ANALYZE, as autovacuum would
 * have done to a table this size.
 */
export async function fillDonations(store: Store, org: Org, n: number): Promise<void> {
  const ctx = createContext(store);
  const { id: otherAccount } = await createAccount(ctx, 'Bench HQ other');
  const { createContact } = await import('../electron/domain/contacts/index.ts');
  const otherDonor = (
    await createContact(ctx, { accountId: otherAccount, firstName: 'Other', lastName: 'Donor' })
  ).id;
  const batch = 100_000;
  const fill = async (
    accountId: string,
    donors: string[],
    campaignId: string | null,
    count: number,
    tag: string,
  ) => {
    for (let start = 0; start < count; start += batch) {
      const size = Math.min(batch, count - start);
      await sql`
        insert into donations (id, account_id, contact_id, amount_cents, donation_date, payment_method, status, campaign_id,
          election_type, election_year, is_anonymous, is_recurring, thank_you_sent, created_at, updated_at)
        select 'don_bench' || ${tag} || lpad(g::text, 8, '0'), ${accountId}, (${donors}::text[])[1 + g % ${donors.length}],
          500 + (g * 7919) % 50000,
          timestamptz '2023-01-01T00:00:00Z' + ((g * 104729) % 2042000) * interval '1 minute',
          (array['cash','check','credit_card','ach'])[1 + g % 4], case when g % 1000 = 999 then 'voided' else 'completed' end,
          ${campaignId}, 'general', 2026, 0, 0, 0, now(), now()
        from generate_series(${start}::bigint, ${start + size - 1}::bigint) g`.execute(store.db);
    }
  };
  await fill(org.accountId, org.contactIds, org.campaignId, n, 'a');
  await fill(otherAccount, [otherDonor], null, Math.max(1, Math.round(n / 100)), 'b');
  const listed = n - Math.floor((n + 1) / 1000);
  await sql`insert into account_counter_slots (account_id, slot, contacts, donations) values (${org.accountId}, 0, 0, ${listed})
      on conflict (account_id, slot) do update set donations = account_counter_slots.donations + ${listed}`.execute(
    store.db,
  );
  await sql`vacuum analyze donations`.execute(store.db);
}

async function timeGets(
  url: string,
  headers: Record<string, string>,
  rounds: number,
): Promise<{ p50: number; p95: number; total: number }> {
  const times: number[] = [];
  let total = 0;
  for (let round = 0; round <= rounds; round++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { total?: number };
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    if (round > 0) times.push(performance.now() - t0);
    total = body.total ?? total;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), total };
}

/** GET /donations at offset 0 and 90% of the way, against the raw OFFSET of the page's ids. */
async function listLatency(url: string, store: Store, org: Org, n: number): Promise<ListResults> {
  const headers = { 'x-api-key': org.keyId, authorization: `Bearer ${org.secret}` };
  const farOffset = Math.floor(n * 0.9);
  const base = `${url}/api/v1/donations?accountId=${org.accountId}&limit=100`;
  const first = await timeGets(base, headers, 100);
  const far = await timeGets(`${base}&offset=${farOffset}`, headers, 20);
  const times: number[] = [];
  for (let round = 0; round <= 20; round++) {
    const t0 = performance.now();
    const r = await sql<{ id: string }>`select id from donations where account_id = ${org.accountId}
        order by donation_date desc, id desc limit 100 offset ${farOffset}`.execute(store.db);
    if (round > 0) times.push(performance.now() - t0);
    if (r.rows.length !== 100) throw new Error(`raw OFFSET page holds ${r.rows.length} rows`);
  }
  times.sort((a, b) => a - b);
  return {
    donations: n,
    farOffset,
    first,
    far,
    raw: { p50: percentile(times, 50), p95: percentile(times, 95) },
  };
}

interface Org {
  accountId: string;
  keyId: string;
  secret: string;
  contactIds: string[];
  campaignId: string;
}

export async function seedOrg(store: Store, donors: number): Promise<Org> {
  const ctx = createContext(store);
  const { id: accountId } = await createAccount(ctx, 'Bench HQ');
  const { keyId, secret } = await createApiKey(ctx, accountId, 'bench');
  const { createCampaign } = await import('../electron/domain/reference/records.ts');
  const { createContact } = await import('../electron/domain/contacts/index.ts');
  const campaign = await createCampaign(ctx, { accountId, name: 'Gala' });
  const contactIds: string[] = [];
  for (let i = 0; i < donors; i++) {
    contactIds.push((await createContact(ctx, { accountId, firstName: `Donor${i}`, lastName: 'Bench' })).id);
  }
  return { accountId, keyId, secret, contactIds, campaignId: campaign.id };
}

/**
 * autocannon in a child process: 50 connections, POST donations spread over the donors;
 * then the server's HTTP side is closed (no request in flight) and every answer is checked
 * against the store, which stays open.
 */
async function postThroughput(
  server: { url: string; app: { close(): Promise<unknown> } },
  store: Store,
  org: Org,
  seconds: number,
  tag: string,
): Promise<{ rps: number; audit: Audit }> {
  const job = { url: server.url, connections: 50, seconds, tag, ...org };
  const { stdout } = await run(
    'node',
    ['--import', 'tsx', 'bench/load-post-donations.ts', JSON.stringify(job)],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  const r = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as LoadResult;
  await server.app.close();
  if (r.non2xx > 0 || r.errors > 0)
    throw new Error(`throughput run had ${r.non2xx} non-2xx and ${r.errors} errors`);
  return { rps: r.rps, audit: await auditPosts(store, tag, r) };
}

/** A million contacts straight into PostgreSQL (the search triggers fill their keys and terms). */
export async function fillContacts(store: Store, accountId: string, n: number): Promise<void> {
  const first = PG_FIRST;
  const last = PG_LAST;
  const batch = 100_000;
  for (let start = 0; start < n; start += batch) {
    const size = Math.min(batch, n - start);
    await sql`
      insert into contacts (id, account_id, contact_type, status, first_name, last_name, email, organization, primary_email, tags, total_cents, created_at, updated_at)
      select 'cnt_bench' || lpad(g::text, 8, '0'), ${accountId}, 'INDIVIDUAL', 'ACTIVE',
        (${first}::text[])[1 + g % ${first.length}] || case when g % 7 = 0 then '' else (g % 97)::text end,
        (${last}::text[])[1 + (g / 16) % ${last.length}] || (g % 1013)::text,
        'user' || g || '@example' || (g % 50) || '.org',
        case when g % 5 = 0 then 'Org ' || (g % 3001) else null end,
        'user' || g || '@example' || (g % 50) || '.org', '[]', 0, now(), now()
      from generate_series(${start}::bigint, ${start + size - 1}::bigint) g`.execute(store.db);
  }
  await sql`insert into account_counter_slots (account_id, slot, contacts, donations) values (${accountId}, 0, ${n}, 0)
      on conflict (account_id, slot) do update set contacts = account_counter_slots.contacts + ${n}`.execute(
    store.db,
  );
  await sql`analyze contacts`.execute(store.db);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function searchLatency(url: string, org: Org): Promise<{ p50: number; p95: number; p99: number }> {
  const queries = PG_SEARCHES;
  const headers = { 'x-api-key': org.keyId, authorization: `Bearer ${org.secret}` };
  const times: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const q of queries) {
      const t0 = performance.now();
      const res = await fetch(
        `${url}/api/v1/contacts?accountId=${org.accountId}&search=${encodeURIComponent(q)}&limit=20`,
        { headers },
      );
      await res.json();
      if (res.status !== 200) throw new Error(`search ${q}: ${res.status}`);
      if (round > 0) times.push(performance.now() - t0);
    }
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) };
}

/** BENCH_HQ (default all: post,search,list) runs only some of the HQ figures. */
const HQ_PARTS = new Set((process.env.BENCH_HQ ?? 'post,search,list').split(',').map((x) => x.trim()));

export async function benchHq(opts: {
  databaseUrl: string;
  scale: number;
  seconds?: number;
  log?: (s: string) => void;
}): Promise<HqResults> {
  const log = opts.log ?? ((s: string) => process.stderr.write(`${s}\n`));
  const seconds = opts.seconds ?? 10;
  const contacts = Math.round(1_000_000 * opts.scale);

  // SQLite, same server code, same load
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftdesk-bench-hq-'));
  let sqlitePost: { rps: number; audit: Audit | null } = { rps: NaN, audit: null };
  if (HQ_PARTS.has('post')) {
    const sqliteStore = await openStore({ dataDir: dir });
    const sqliteOrg = await seedOrg(sqliteStore, 50);
    const sqliteServer = await startServer({
      store: sqliteStore,
      port: 0,
      rateLimit: { ratePerSecond: 1e9, burst: 1e9 },
    });
    log(`hq: SQLite POST /donations, 50 connections, ${seconds} s`);
    sqlitePost = await postThroughput(sqliteServer, sqliteStore, sqliteOrg, seconds, 'hq-sqlite');
    await sqliteStore.close();
  }
  fs.rmSync(dir, { recursive: true, force: true });

  const db = await freshDatabase(opts.databaseUrl, `giftdesk_bench_${process.pid}`);
  try {
    const pgStore = await openStore({ dataDir: dir, databaseUrl: db.url });
    const version = await sql<{ serverVersion: string }>`show server_version`.execute(pgStore.db);
    const pgOrg = await seedOrg(pgStore, 50);
    let pgPost: { rps: number; audit: Audit | null } = { rps: NaN, audit: null };
    let post: HqPostResults | null = null;
    if (HQ_PARTS.has('post')) {
      post = await benchHqPost({ databaseUrl: opts.databaseUrl, seconds, log });
      pgPost = {
        rps: post.ours.reduce((a, b) => a + b, 0) / post.ours.length,
        audit: post.oursAudits.every((a) => a.ok)
          ? { ok: true, text: 'see the PostgreSQL note' }
          : { ok: false, text: 'DEFECT: see the PostgreSQL note' },
      };
    }
    const pgServer = await startServer({
      store: pgStore,
      port: 0,
      rateLimit: { ratePerSecond: 1e9, burst: 1e9 },
    });
    try {
      let s = { p50: NaN, p95: NaN, p99: NaN };
      if (HQ_PARTS.has('search')) {
        log(`hq: filling ${contacts} contacts into PostgreSQL`);
        await fillContacts(pgStore, pgOrg.accountId, contacts);
        log('hq: search latency');
        s = await searchLatency(pgServer.url, pgOrg);
      }
      let list: ListResults | null = null;
      if (HQ_PARTS.has('list')) {
        log(`hq: filling ${contacts} donations into PostgreSQL`);
        await fillDonations(pgStore, pgOrg, contacts);
        log('hq: donations list latency');
        list = await listLatency(pgServer.url, pgStore, pgOrg, contacts);
      }
      return {
        list,
        post,
        postgresRps: pgPost.rps,
        sqliteRps: sqlitePost.rps,
        ratio: pgPost.rps / sqlitePost.rps,
        seconds,
        sqliteAudit: sqlitePost.audit,
        postgresAudit: pgPost.audit,
        contacts,
        searchP50: s.p50,
        searchP95: s.p95,
        searchP99: s.p99,
        pgVersion: version.rows[0]?.serverVersion ?? '?',
      };
    } finally {
      await pgServer.close();
    }
  } finally {
    await db.drop();
  }
}

export function hqMarkdown(r: HqResults): string {
  const f = (n: number) => n.toFixed(1);
  const n = (x: number) => x.toLocaleString('en-US');
  const lines = [
    '## HQ mode (PostgreSQL)',
    '',
    `PostgreSQL ${r.pgVersion}, same machine and run. Load from autocannon in a child process.`,
    '',
    '| benchmark | figure | baseline (same run) | ratio | goal | met |',
    '|---|---|---|---|---|---|',
  ];
  const audited = r.sqliteAudit !== null && r.postgresAudit !== null;
  const post = r.post ? hqPostMarkdown(r.post, r.seconds) : null;
  if (post) lines.push(...post.rows);
  if (audited) {
    const ok = r.sqliteAudit!.ok && r.postgresAudit!.ok;
    lines.push(
      `| … the same GiftDesk on SQLite, 50 connections, 50 donors in turn (another spread: a rough comparison) | PostgreSQL above: ${f(r.postgresRps)} req/s | SQLite ${f(r.sqliteRps)} req/s | ${r.ratio.toFixed(2)} | report the ratio | ${ok ? '—' : 'no — GIFTS LOST OR DOUBLED, see below'} |`,
    );
  }
  if (!Number.isNaN(r.searchP95)) {
    lines.push(
      `| GET /api/v1/contacts?search= on ${n(r.contacts)} contacts, total included | p50 ${f(r.searchP50)} ms, p95 ${f(r.searchP95)} ms, p99 ${f(r.searchP99)} ms | — | — | p95 under 50 ms (20 ms stretch) | ${r.searchP95 < 50 ? 'yes' : 'no'} |`,
    );
  }
  const l = r.list;
  if (l) {
    lines.push(
      `| GET /api/v1/donations, limit 100, total included, ${n(l.donations)} donations, offset 0 | p50 ${f(l.first.p50)} ms, p95 ${f(l.first.p95)} ms (total ${n(l.first.total)}) | — | — | report | — |`,
      `| … offset ${n(l.farOffset)} | p50 ${f(l.far.p50)} ms, p95 ${f(l.far.p95)} ms | raw SELECT of the page's 100 ids, ORDER BY donation_date DESC, id DESC OFFSET ${n(l.farOffset)}, same connection pool: p50 ${f(l.raw.p50)} ms, p95 ${f(l.raw.p95)} ms | ${(l.far.p95 / l.raw.p95).toFixed(2)}× the raw p95 | ≤ 2× the raw OFFSET | ${l.far.p95 <= 2 * l.raw.p95 ? 'yes' : 'no'} |`,
    );
  }
  lines.push('');
  if (post) lines.push(...post.notes.map((x) => `- ${x}`));
  if (audited)
    lines.push(
      `- POST on SQLite: one run of ${r.seconds} s, 50 donors, unique notes per request. Check after the run (server closed first, so nothing in flight): ${r.sqliteAudit!.text}.`,
    );
  if (l)
    lines.push(
      `- Donations list: ${n(l.donations)} gifts of one account filled in SQL over 50 donors (whole minutes from 2023 to 2026, so many share an instant; every 1000th voided) and 1% as many of a second account on the same dates, then VACUUM ANALYZE; 100 rounds at offset 0, 20 at offset ${n(l.farOffset)}, each after one warm-up.`,
    );
  lines.push('');
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.GIFTDESK_TEST_DATABASE_URL;
  if (!url) {
    console.error('set BENCH_DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres');
    process.exit(2);
  }
  const r = await benchHq({ databaseUrl: url, scale: Number(process.env.BENCH_SCALE ?? 1) });
  console.log(hqMarkdown(r));
}
