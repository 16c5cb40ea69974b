/**
 * Migration sync-reference-unique on an HQ's worth of data: 1,000,000 contacts (each tagged
 * `gd:<id>`, as the sync creates them) and 1,000,000 gifts (each with `gd:<id>` on its notes'
 * last line; 1 in 100 a second copy of an earlier gift's reference, the doubling this migration
 * meets in old data), at the schema just before it. Times the migration, and as the baseline in
 * the same run one ordinary index build over each table (what any migration adding an index
 * pays). SQLite by default; PostgreSQL with BENCH_DATABASE_URL (a role that may create
 * databases). BENCH_ROWS changes the size, BENCH_ROUNDS the repeats (a fresh database each).
 *
 *   node --import tsx bench/sync-reference-migration.ts
 *   BENCH_DATABASE_URL=postgres://… node --import tsx bench/sync-reference-migration.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from '../electron/db/migrate.ts';
import { MIGRATIONS } from '../electron/db/migrations/index.ts';
import { openPostgres } from '../electron/db/postgres/open.ts';
import { openSqlite } from '../electron/db/sqlite/open.ts';
import type { Store } from '../electron/db/store.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PG_URL = process.env.BENCH_DATABASE_URL;
const LAST = MIGRATIONS.at(-1)!;
if (LAST.name !== '2026-11-25T1940-sync-reference-unique')
  throw new Error(`the last migration is ${LAST.name}`);

async function fill(db: Kysely<unknown>, engine: 'sqlite' | 'postgres') {
  const at = '2026-11-24T19:42:00.000Z';
  await sql`insert into accounts (id, name, created_at) values ('acct_hq', 'HQ', ${at})`.execute(db);
  if (engine === 'postgres') {
    await sql`alter table contacts disable trigger user`.execute(db);
    await sql`insert into contacts (id, account_id, contact_type, status, first_name, last_name, tags, total_cents, created_at, updated_at)
      select 'cnt_' || lpad(i::text, 8, '0'), 'acct_hq', 'INDIVIDUAL', 'ACTIVE', 'Robert', 'Brown ' || (i % 997),
        '["gala 2026","gd:cnt_L' || lpad(i::text, 8, '0') || '"]', 0, ${at}::timestamptz + i * interval '1 ms', ${at}::timestamptz
      from generate_series(1, ${ROWS}) i`.execute(db);
    await sql`alter table contacts enable trigger user`.execute(db);
    await sql`insert into donations (id, account_id, contact_id, amount_cents, donation_date, payment_method, status, election_type, election_year, notes, created_at, updated_at)
      select 'don_' || lpad(i::text, 8, '0'), 'acct_hq', 'cnt_' || lpad((1 + i % ${ROWS})::text, 8, '0'), 1999, ${at}::timestamptz, 'cash', 'completed', 'general', 2026,
        'table ' || (i % 40) || E'\\ngd:don_L' || lpad((case when i % 100 = 0 then i - 1 else i end)::text, 8, '0'),
        ${at}::timestamptz + i * interval '1 ms', ${at}::timestamptz
      from generate_series(1, ${ROWS}) i`.execute(db);
    await sql`analyze contacts`.execute(db);
    await sql`analyze donations`.execute(db);
    return;
  }
  for (const t of ['contacts_fts_insert', 'contacts_fts_delete', 'contacts_fts_update'])
    await sql.raw(`drop trigger if exists ${t}`).execute(db);
  await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ROWS})
    insert into contacts (id, account_id, contact_type, status, first_name, last_name, tags, total_cents, created_at, updated_at)
    select 'cnt_' || printf('%08d', i), 'acct_hq', 'INDIVIDUAL', 'ACTIVE', 'Robert', 'Brown ' || (i % 997),
      '["gala 2026","gd:cnt_L' || printf('%08d', i) || '"]', 0, strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-24T19:42:00', '+' || (i / 1000.0) || ' seconds'), ${at}
    from n`.execute(db);
  await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ROWS})
    insert into donations (id, account_id, contact_id, amount_cents, donation_date, payment_method, status, election_type, election_year, notes, created_at, updated_at)
    select 'don_' || printf('%08d', i), 'acct_hq', 'cnt_' || printf('%08d', 1 + i % ${ROWS}), 1999, ${at}, 'cash', 'completed', 'general', 2026,
      'table ' || (i % 40) || char(10) || 'gd:don_L' || printf('%08d', case when i % 100 = 0 then i - 1 else i end),
      strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-24T19:42:00', '+' || (i / 1000.0) || ' seconds'), ${at}
    from n`.execute(db);
  await sql`analyze`.execute(db);
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

async function round(engine: 'sqlite' | 'postgres') {
  let store: Store;
  let drop: () => Promise<void>;
  if (engine === 'postgres') {
    const name = `giftdesk_bench_ref_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(PG_URL!);
    url.pathname = `/${name}`;
    store = await openPostgres({ url: url.toString(), migrate: false });
    await migrateToLatest(store.db as unknown as Kysely<unknown>, {
      engine,
      migrations: MIGRATIONS.slice(0, -1),
    });
    drop = async () => {
      await store.close();
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftdesk-bench-ref-'));
    store = await openSqlite({
      file: path.join(dir, 'giftdesk.sqlite'),
      migrations: MIGRATIONS.slice(0, -1),
    });
    drop = async () => {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  try {
    const db = store.db as unknown as Kysely<unknown>;
    const fillMs = await timed(() => fill(db, engine));
    // Baseline: one ordinary two-column index over each table, built and dropped again.
    const baseMs = await timed(async () => {
      for (const t of ['donations', 'contacts']) {
        await sql.raw(`create index bench_base_${t} on ${t} (account_id, created_at)`).execute(db);
        await sql.raw(`drop index bench_base_${t}`).execute(db);
      }
    });
    const migrateMs = await timed(() => migrateToLatest(db, { engine }));
    const n = async (q: string) =>
      Number(((await sql.raw(q).execute(db)).rows[0] as { n: number | string }).n);
    const refs = await n('select count(*) as n from donation_sync_references');
    const crefs = await n('select count(*) as n from contact_sync_references');
    return { fillMs, baseMs, migrateMs, refs, crefs };
  } finally {
    await drop();
  }
}

const engine = PG_URL ? 'postgres' : 'sqlite';
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(', ');
console.log(
  `${engine}, ${ROWS.toLocaleString('en')} contacts + ${ROWS.toLocaleString('en')} gifts, load ${load()}`,
);
for (let r = 1; r <= ROUNDS; r++) {
  const x = await round(engine);
  console.log(
    `round ${r}: migration ${(x.migrateMs / 1000).toFixed(2)} s; baseline (one index per table) ${(x.baseMs / 1000).toFixed(2)} s; ratio ${(x.migrateMs / x.baseMs).toFixed(1)}×; gifts with a reference ${x.refs.toLocaleString('en')}, contacts ${x.crefs.toLocaleString('en')} (fill ${(x.fillMs / 1000).toFixed(1)} s, load ${load()})`,
  );
}
