/**
 * Donors' totals a bulk import has not moved yet (migration donor-total-deltas). The CLI's
 * import on SQLite writes, in each chunk's own transaction, one row per donor of the chunk
 * (its gifts' cents and latest date) instead of updating the donor's row; at its end it
 * applies them to `contacts` in one pass sorted by donor, in windows of about one chunk's
 * write time (another writer of the file waits for one window at most). A window adds its
 * donors' rows and deletes them in one transaction, so a kill -9 leaves every row either
 * applied and gone or pending; opening the store applies what a killed import left.
 *
 * Meanwhile a donor's total and last gift date leave out the import's gifts not applied yet
 * (docs/design.md, "Bulk import"). A correction that recomputes a donor's total from the
 * gifts drops that donor's pending rows in its own transaction (the recompute counts them).
 */
import { type RawBuilder, sql } from 'kysely';
import type { Db, Store } from './store.ts';

/** About this many sampled rows give the windows' possible bounds. */
const SAMPLES = 1000;
/** Delta rows a first window covers (then sized by its time). */
const FIRST_WINDOW_ROWS = 40_000;
/** A window's write time when the caller gives none (the CLI's target). */
const DEFAULT_TARGET_MS = 2500;

/** Whether any import's gifts are waiting to be added to their donors' totals. */
export async function hasPendingDonorTotals(db: Db): Promise<boolean> {
  const r = await db.selectFrom('donorTotalDeltas').select('contactId').limit(1).executeTakeFirst();
  return r !== undefined;
}

/**
 * Adds every pending delta to its donor's total and last gift date, sorted by donor, and
 * deletes it, in write transactions of about `targetWriteMs`; returns the donors updated.
 * Rows for a contact deleted meanwhile are dropped (its gifts went with it). SQLite only (the
 * only engine whose imports defer totals): the windows' bounds are sampled by rowid.
 */
export async function applyDonorTotalDeltas(
  store: Store,
  targetWriteMs: number = DEFAULT_TARGET_MS,
  firstWindowRows: number = FIRST_WINDOW_ROWS,
): Promise<number> {
  if (!(await hasPendingDonorTotals(store.db))) return 0;
  // The windows' possible upper bounds: every k-th row's donor (SQLite's rowid), sorted. A
  // sample, not every donor counted out: the windows only need to be about even, and each
  // covers (previous bound, its bound] whatever rows it holds.
  const top = await sql<{ n: number }>`select max(rowid) as n from donor_total_deltas`.execute(store.db);
  const every = Math.max(1, Math.floor(Number(top.rows[0]?.n ?? 0) / SAMPLES));
  const bounds = [
    ...new Set(
      (
        await sql<{ id: string }>`select contact_id as id from donor_total_deltas
          where rowid % ${every} = 0 order by contact_id`.execute(store.db)
      ).rows.map((r) => r.id),
    ),
  ];
  let after: string | null = null;
  let next = 0;
  let steps = Math.max(1, Math.round(firstWindowRows / every));
  let donors = 0;
  for (;;) {
    const last = next + steps - 1;
    const upTo = last < bounds.length ? bounds[last]! : null;
    const t0 = performance.now();
    donors += await store.write((trx) => applyRange(trx, after, upTo), { bulk: true });
    if (upTo === null) break;
    const ms = performance.now() - t0;
    after = upTo;
    next = last + 1;
    // Steps per window follow the time a step took, toward the target (smoothed).
    steps = Math.max(1, Math.round((steps + (targetWriteMs * steps) / Math.max(ms, 1)) / 2));
  }
  return donors;
}

/** Applies and deletes the deltas of donors in (after, upTo]; null: unbounded. */
async function applyRange(trx: Db, after: string | null, upTo: string | null): Promise<number> {
  const range: RawBuilder<unknown> = sql`${after === null ? sql`1 = 1` : sql`contact_id > ${after}`}
    and ${upTo === null ? sql`1 = 1` : sql`contact_id <= ${upTo}`}`;
  const r = await sql`update contacts set total_cents = contacts.total_cents + d.cents,
      last_donation_date = case when contacts.last_donation_date is null or contacts.last_donation_date < d.latest
        then d.latest else contacts.last_donation_date end
    from (select contact_id, sum(cents) as cents, max(latest_date) as latest
      from donor_total_deltas where ${range} group by contact_id) as d
    where contacts.id = d.contact_id`.execute(trx);
  await sql`delete from donor_total_deltas where ${range}`.execute(trx);
  return Number(r.numAffectedRows ?? 0);
}

/** Drops a donor's pending deltas: its total is being recomputed from its gifts, which hold them. */
export async function dropDonorDeltas(trx: Db, contactId: string): Promise<void> {
  await trx.deleteFrom('donorTotalDeltas').where('contactId', '=', contactId).execute();
}
