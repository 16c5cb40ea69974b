/**
 * What "changed nothing" means for a test: the row count of every table, the outbox's last
 * sequence number, and a digest of every row (api_keys only counted: a key's lastUsedAt is
 * written in the background; the sign-in throttle's table left out). Engine-neutral: Kysely's introspection and plain selects.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../electron/db/store.ts';

export interface DbSnapshot {
  counts: Record<string, number>;
  maxChangeSeq: number;
  digest: string;
  /** SQLite's write counters when this was taken (see snapshotDbIfChanged); absent elsewhere. */
  writeCounters?: string | null;
}

const COUNT_ONLY = new Set(['api_keys']);
/**
 * Not the data a request could change: the sign-in throttle's count of refused sign-ins, which
 * a refused sign-in writes by design (test/api/sign-in.test.ts holds it to account).
 */
const NOT_DATA = new Set(['sign_in_failures']);

/**
 * SQLite's own counters of writes, read on the connection the server writes through (tests
 * run the server in-process): rows changed by this connection (`total_changes()`, rolled-back
 * writes included) and commits by any other connection (`data_version`, e.g. an import's
 * worker). While both stand still nothing can have changed, so `snapshotDbIfChanged` may
 * reuse the previous snapshot instead of reading every table again.
 */
async function sqliteWriteCounters(db: Db): Promise<string | null> {
  try {
    const changes = await sql<{ n: number }>`select total_changes() as n`.execute(db);
    const version = await sql<{ dataVersion: number }>`pragma data_version`.execute(db);
    return `${changes.rows[0]?.n}:${JSON.stringify(version.rows[0])}`;
  } catch {
    return null; // not SQLite
  }
}

/** snapshotDb, or `previous` itself when SQLite's write counters say nothing was written since. */
export async function snapshotDbIfChanged(db: Db, previous: DbSnapshot | null): Promise<DbSnapshot> {
  const counters = await sqliteWriteCounters(db);
  if (previous && counters !== null && previous.writeCounters === counters) return previous;
  const snap = await snapshotDb(db);
  // Read after the snapshot too: a write that landed while the tables were read changes them.
  const after = await sqliteWriteCounters(db);
  return after === counters ? { ...snap, writeCounters: counters } : snap;
}

export async function snapshotDb(db: Db): Promise<DbSnapshot> {
  const tables = (await db.introspection.getTables())
    .filter((t) => !t.isView)
    .map((t) => t.name)
    .filter((name) => !NOT_DATA.has(name))
    .sort();
  const counts: Record<string, number> = {};
  const hash = createHash('sha256');
  for (const name of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)).rows;
    counts[name] = rows.length;
    if (COUNT_ONLY.has(name)) continue;
    const lines = rows
      .map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
      .sort();
    hash.update(`${name}\n${lines.join('\n')}\n`);
  }
  const seq = await db
    .selectFrom('changeLog')
    .select((eb) => eb.fn.max('seq').as('m'))
    .executeTakeFirst();
  return { counts, maxChangeSeq: Number(seq?.m ?? 0), digest: hash.digest('hex') };
}

/** The tables whose row counts differ, for a readable failure. */
export function snapshotDiff(a: DbSnapshot, b: DbSnapshot): string[] {
  const out: string[] = [];
  for (const t of new Set([...Object.keys(a.counts), ...Object.keys(b.counts)])) {
    if (a.counts[t] !== b.counts[t]) out.push(`${t}: ${a.counts[t]} → ${b.counts[t]} rows`);
  }
  if (a.maxChangeSeq !== b.maxChangeSeq)
    out.push(`change_log max seq: ${a.maxChangeSeq} → ${b.maxChangeSeq}`);
  if (out.length === 0 && a.digest !== b.digest) out.push('row contents changed (same counts)');
  return out;
}
