/**
 * Part `hq`'s POST /api/v1/donations on PostgreSQL: GiftDesk against the bare route of
 * bench/hq-baseline-server.ts, each on a fresh database made by GiftDesk's migrations and
 * seeded with the same donors, at 50 connections, in alternating rounds of one run. The gifts
 * are spread as a weekend of events spreads them: most for donors giving once or twice, a few
 * hot donors (the gala's table captains) taking a share of every second, and twin $19.99 cash
 * gifts; the donors include namesakes. After each round every answer is checked against the
 * database (bench/audit-posts.ts). With pg_stat_statements on the server, GiftDesk's last round
 * is also counted statement by statement.
 *
 * BENCH_HQ_ROUNDS (default 2) rounds per side; BENCH_HQ_SIDES=ours skips the baseline (to
 * profile GiftDesk alone with node --cpu-prof).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { openStore } from '../electron/db/open.ts';
import type { Store } from '../electron/db/store.ts';
import { createAccount } from '../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../electron/domain/accounts/api-keys.ts';
import { createContext } from '../electron/domain/context.ts';
import { startServer } from '../electron/server/serve.ts';
import { type Audit, auditPosts, type LoadResult } from './audit-posts.ts';
import { startHqBaselineServer } from './hq-baseline-server.ts';
import { FIRST, LAST, rng } from './names.ts';

const run = promisify(execFile);

/** GiftDesk's pool size on PostgreSQL (electron/db/postgres/open.ts's default); the baseline's too. */
export const POOL_SIZE = 10;
export const CONNECTIONS = 50;
const DONORS = 3000;
const HOT_DONORS = 6;
/** The share of gifts for the hot donors. */
const HOT_SHARE = 0.12;
const PLAN_LENGTH = 20_000;

export interface Org {
  accountId: string;
  keyId: string;
  secret: string;
  contactIds: string[];
  campaignId: string;
}

type Plan = Array<[number, number, string]>;

/**
 * The weekend's gifts in turn: donor index, dollars, method. Donors 0…HOT_DONORS-1 are hot;
 * the rest come up one after another (each once per DONORS gifts, so most of a round's donors
 * give once); every 50th pair is a twin: the same donor, $19.99 cash.
 */
export function weekendPlan(): Plan {
  const r = rng(35);
  const methods = ['cash', 'check', 'credit_card', 'ach'];
  const plan: Plan = [];
  let walk = 0;
  for (let i = 0; i < PLAN_LENGTH; i++) {
    if (i % 50 === 49) {
      const twin = plan[i - 1]!;
      plan.push([twin[0], 19.99, 'cash']);
      continue;
    }
    const donor =
      r() < HOT_SHARE ? Math.floor(r() * HOT_DONORS) : HOT_DONORS + (walk++ % (DONORS - HOT_DONORS));
    const gift: [number, number, string] =
      i % 50 === 48
        ? [donor, 19.99, 'cash']
        : [donor, Math.round(500 + r() * 49_500) / 100, methods[i % methods.length]!];
    plan.push(gift);
  }
  return plan;
}

/**
 * The account, its key, a campaign and DONORS donors straight into PostgreSQL (the search
 * triggers fill their keys): names from bench/names.ts with numbered last names, three
 * namesakes "Robert Brown" among the hot donors, and "Łukasz Żółć".
 */
export async function seedWeekend(store: Store): Promise<Org> {
  const ctx = createContext(store);
  const { id: accountId } = await createAccount(ctx, 'Bench HQ weekend');
  const { keyId, secret } = await createApiKey(ctx, accountId, 'bench');
  const { createCampaign } = await import('../electron/domain/reference/records.ts');
  const campaign = await createCampaign(ctx, { accountId, name: 'Autumn gala weekend' });
  const r = rng(36);
  const first: string[] = [];
  const last: string[] = [];
  const ids: string[] = [];
  for (let i = 0; i < DONORS; i++) {
    const named = i < 3 ? ['Robert', 'Brown'] : i === 3 ? ['Łukasz', 'Żółć'] : null;
    first.push(named?.[0] ?? FIRST[Math.floor(r() * FIRST.length)]!);
    last.push(named?.[1] ?? `${LAST[Math.floor(r() * LAST.length)]!}${i % 7 === 0 ? '' : i % 300}`);
    ids.push(`cnt_weekend${String(i).padStart(6, '0')}`);
  }
  await sql`insert into contacts (id, account_id, contact_type, status, first_name, last_name, tags, total_cents, created_at, updated_at)
    select id, ${accountId}, 'INDIVIDUAL', 'ACTIVE', f, l, '[]', 0, now(), now()
    from unnest(${ids}::text[], ${first}::text[], ${last}::text[]) as t(id, f, l)`.execute(store.db);
  await sql`insert into account_counter_slots (account_id, slot, contacts, donations) values (${accountId}, 0, ${DONORS}, 0)
    on conflict (account_id, slot) do update set contacts = account_counter_slots.contacts + ${DONORS}`.execute(
    store.db,
  );
  await sql`analyze contacts`.execute(store.db);
  return { accountId, keyId, secret, contactIds: ids, campaignId: campaign.id };
}

/** autocannon in a child process, at CONNECTIONS connections; the answers are returned. */
export async function postLoad(
  url: string,
  org: Org,
  seconds: number,
  tag: string,
  plan?: Plan,
): Promise<LoadResult> {
  const job = { url, connections: CONNECTIONS, seconds, tag, ...org, plan };
  // In a file: the plan and the donors are longer than one argument may be.
  const file = path.join(os.tmpdir(), `giftdesk-hq-load-${process.pid}-${tag}.json`);
  fs.writeFileSync(file, JSON.stringify(job));
  const { stdout } = await run('node', ['--import', 'tsx', 'bench/load-post-donations.ts', `@${file}`], {
    maxBuffer: 256 * 1024 * 1024,
  }).finally(() => fs.rmSync(file, { force: true }));
  const r = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as LoadResult;
  if (r.non2xx > 0 || r.errors > 0)
    throw new Error(`${tag}: the load run had ${r.non2xx} non-2xx and ${r.errors} errors`);
  return r;
}

export interface Cpu {
  serverMs: number;
  postgresMs: number;
}

/**
 * PostgreSQL's CPU so far, in ms: the postmaster's own and its reaped children's (backends
 * that exited) plus every live child's, from /proc; null where that cannot be read (not Linux,
 * a server elsewhere). The postmaster is found as the parent of this connection's backend.
 */
async function postgresCpuMs(store: Store): Promise<number | null> {
  try {
    const r = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(store.db);
    const backend = Number(r.rows[0]?.pid);
    const ppid = (pid: number) =>
      Number(/^PPid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    const postmaster = ppid(backend);
    // Fields after the command's closing parenthesis: utime is the 12th, then stime, cutime, cstime.
    const times = (pid: number) =>
      fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ').slice(11, 15).map(Number);
    const [u, s, cu, cs] = times(postmaster);
    let ticks = u! + s! + cu! + cs!;
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        if (ppid(Number(name)) !== postmaster) continue;
        const [cu2, cs2] = times(Number(name));
        ticks += cu2! + cs2!;
      } catch {
        // gone meanwhile
      }
    }
    return ticks * 10; // 100 ticks a second (CLK_TCK)
  } catch {
    return null;
  }
}

/** Runs `load`, and measures this process's and PostgreSQL's CPU around it. */
async function measured<T extends LoadResult>(
  store: Store,
  load: () => Promise<T>,
): Promise<[T, Cpu | null]> {
  const pg0 = await postgresCpuMs(store);
  const cpu0 = process.cpuUsage();
  const r = await load();
  const cpu = process.cpuUsage(cpu0);
  const pg1 = await postgresCpuMs(store);
  const n = Math.max(1, r.acknowledged.length);
  if (pg0 === null || pg1 === null) return [r, null];
  return [r, { serverMs: (cpu.user + cpu.system) / 1000 / n, postgresMs: (pg1 - pg0) / n }];
}

export interface Statement {
  query: string;
  calls: number;
  meanMs: number;
  totalMs: number;
  /** mean planning time (0 unless the server sets pg_stat_statements.track_planning) */
  planMs: number;
}
export interface HqPostResults {
  ours: number[];
  base: number[];
  oursAudits: Audit[];
  baseAudits: Audit[];
  synchronousCommit: string;
  /**
   * CPU per gift answered, per side and round, when PostgreSQL runs on this machine (Linux):
   * the bench process's own (the server under test: autocannon runs in a child) and
   * PostgreSQL's (every backend and the postmaster's reaped children), in ms.
   */
  oursCpu: Cpu[];
  baseCpu: Cpu[];
  /** GiftDesk's last round per pg_stat_statements, or null when the server has none */
  statements: { perRequest: number; requests: number; top: Statement[] } | null;
}

/** A new empty database `name` on the server of `base` (dropped first if left over). */
export async function freshDatabase(
  base: string,
  name: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** pg_stat_statements reset, or false when the server does not load it. */
async function resetStatements(store: Store): Promise<boolean> {
  try {
    await sql`create extension if not exists pg_stat_statements`.execute(store.db);
    await sql`select pg_stat_statements_reset()`.execute(store.db);
    return true;
  } catch {
    return false;
  }
}

async function readStatements(store: Store, requests: number): Promise<HqPostResults['statements']> {
  const r = await sql<{ query: string; calls: number; total: number; plan: number }>`
    select s.query, s.calls, s.total_exec_time as total, s.total_plan_time as plan from pg_stat_statements s
    join pg_database d on d.oid = s.dbid where d.datname = current_database() and s.calls >= ${Math.floor(requests / 2)}
    order by s.total_exec_time desc`.execute(store.db);
  const rows = r.rows.map((x) => ({
    query: x.query.replace(/\s+/g, ' ').slice(0, 110),
    calls: Number(x.calls),
    totalMs: Number(x.total),
    meanMs: Number(x.total) / Number(x.calls),
    planMs: Number(x.plan) / Number(x.calls),
  }));
  const perRequest = rows.reduce((a, x) => a + x.calls, 0) / requests;
  return { perRequest, requests, top: rows.slice(0, 14) };
}

export async function benchHqPost(opts: {
  databaseUrl: string;
  seconds: number;
  log: (s: string) => void;
}): Promise<HqPostResults> {
  const rounds = Number(process.env.BENCH_HQ_ROUNDS ?? 2);
  const withBase = process.env.BENCH_HQ_SIDES !== 'ours';
  const plan = weekendPlan();
  const oursDb = await freshDatabase(opts.databaseUrl, `giftdesk_bench_ours_${process.pid}`);
  const baseDb = await freshDatabase(opts.databaseUrl, `giftdesk_bench_base_${process.pid}`);
  const dataDir = '/nonexistent-hq-bench'; // PostgreSQL stores keep nothing in a folder
  const ours = await openStore({ dataDir, databaseUrl: oursDb.url });
  const base = await openStore({ dataDir, databaseUrl: baseDb.url });
  try {
    const oursOrg = await seedWeekend(ours);
    const baseOrg = await seedWeekend(base);
    const syncCommit = await sql<{ synchronousCommit: string }>`show synchronous_commit`.execute(ours.db);
    const out: HqPostResults = {
      ours: [],
      base: [],
      oursAudits: [],
      baseAudits: [],
      synchronousCommit: syncCommit.rows[0]?.synchronousCommit ?? '?',
      oursCpu: [],
      baseCpu: [],
      statements: null,
    };
    for (let round = 1; round <= rounds; round++) {
      if (withBase) {
        const server = await startHqBaselineServer(baseDb.url, POOL_SIZE);
        opts.log(`hq: bare pg route POST /donations, round ${round}, ${opts.seconds} s`);
        const tag = `hq-base-${round}`;
        const [r, cpu] = await measured(base, () => postLoad(server.url, baseOrg, opts.seconds, tag, plan));
        if (cpu) out.baseCpu.push(cpu);
        await server.close();
        out.base.push(r.rps);
        out.baseAudits.push(await auditPosts(base, tag, r));
      }
      const counting = round === rounds && (await resetStatements(ours));
      const server = await startServer({
        store: ours,
        port: 0,
        rateLimit: { ratePerSecond: 1e9, burst: 1e9 },
      });
      opts.log(`hq: GiftDesk POST /donations on PostgreSQL, round ${round}, ${opts.seconds} s`);
      const tag = `hq-ours-${round}`;
      const [r, cpu] = await measured(ours, () => postLoad(server.url, oursOrg, opts.seconds, tag, plan));
      if (cpu) out.oursCpu.push(cpu);
      await server.app.close();
      if (counting) out.statements = await readStatements(ours, r.acknowledged.length);
      out.ours.push(r.rps);
      out.oursAudits.push(await auditPosts(ours, tag, r));
    }
    return out;
  } finally {
    await ours.close();
    await base.close();
    await oursDb.drop();
    await baseDb.drop();
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The table rows and notes part `hq` prints for this. */
export function hqPostMarkdown(r: HqPostResults, seconds: number): { rows: string[]; notes: string[] } {
  const f = (n: number) => n.toFixed(1);
  const ok = [...r.oursAudits, ...r.baseAudits].every((a) => a.ok);
  const ours = mean(r.ours);
  const base = mean(r.base);
  const ratio = ours / base;
  const rows = [
    `| POST /api/v1/donations, ${CONNECTIONS} connections, PostgreSQL, a weekend's donors | ${f(ours)} req/s (rounds: ${r.ours.map(f).join(', ')}) | bare Fastify + zod + pg route (insert, donor totals, change log; one transaction): ${r.base.length ? `${f(base)} req/s (rounds: ${r.base.map(f).join(', ')})` : 'not run'} | ${r.base.length ? ratio.toFixed(2) : '—'} | ≥ 0.6 | ${ok ? (ratio >= 0.6 ? 'yes' : 'no') : 'no — GIFTS LOST OR DOUBLED, see below'} |`,
  ];
  const notes = [
    `POST on PostgreSQL: ${r.ours.length} alternating rounds of ${seconds} s per side (baseline first), each side on its own fresh database made by GiftDesk's migrations, seeded with the same ${DONORS.toLocaleString('en-US')} donors (namesakes included); ${HOT_DONORS} hot donors take ${HOT_SHARE * 100}% of the gifts, the rest come up in turn, every 50th pair a twin $19.99 cash gift. Pool ${POOL_SIZE} connections on both sides, synchronous_commit=${r.synchronousCommit}. Checks: GiftDesk ${r.oursAudits.map((a, i) => `round ${i + 1}: ${a.text}`).join('; ')}; baseline ${r.baseAudits.map((a, i) => `round ${i + 1}: ${a.text}`).join('; ')}.`,
  ];
  if (r.oursCpu.length > 0 && r.baseCpu.length > 0) {
    const cpu = (xs: Cpu[]) =>
      `server ${mean(xs.map((x) => x.serverMs)).toFixed(2)} ms + PostgreSQL ${mean(xs.map((x) => x.postgresMs)).toFixed(2)} ms (rounds: ${xs.map((x) => `${x.serverMs.toFixed(2)} + ${x.postgresMs.toFixed(2)}`).join(', ')})`;
    notes.push(
      `CPU per gift answered (the bench process, which is the server under test, and every PostgreSQL process, from /proc; autocannon runs in a child and is not counted): GiftDesk ${cpu(r.oursCpu)}; baseline ${cpu(r.baseCpu)}.`,
    );
  }
  if (r.statements) {
    const s = r.statements;
    notes.push(
      `GiftDesk's last round by pg_stat_statements: ${s.perRequest.toFixed(1)} statements per gift (${s.requests.toLocaleString('en-US')} gifts answered); the largest: ${s.top
        .map(
          (x) =>
            `\`${x.query}\` ${(x.calls / s.requests).toFixed(2)}×/gift, mean ${x.meanMs.toFixed(2)} ms${x.planMs > 0 ? ` (+ planning ${x.planMs.toFixed(2)} ms)` : ''}`,
        )
        .join('; ')}.`,
    );
  }
  return { rows, notes };
}
