/**
 * What a station says of itself to its hub (POST /hub/report), for the close-out: the gifts it
 * entered (its own, not those the hub sent it, and not one voided here that the hub does not
 * hold yet: it goes, voided, and counts once the hub has it), the sequence of its newest change, the changes the hub has not
 * confirmed yet, and its batches' counts (the newest count of each counted batch: batches and
 * counts are the station's own, so the hub knows them only from here). Read in one place from
 * the outbox.
 *
 * The reads are not one snapshot, so they are taken in the order that can only err towards
 * "not complete": the gifts entered first, then the outbox. A gift typed between the two is in
 * the outbox's figures (waiting, or a newer sequence) but not in `entered`, and the hub then
 * holds more than the report says: not complete until the next report.
 */
import { sql } from 'kysely';
import type { z } from 'zod';
import type { HubReportBody, ReportedBatchCount } from '#shared/schemas/hub.ts';
import type { Db } from '../../db/store.ts';
import { lastBatchCount } from '../../domain/donations/index.ts';
import type { RemoteClient, RemoteResult } from '../net/http-client.ts';
import { PUSHED_TYPES } from '../outbox/outbox.ts';

export type StationReport = z.infer<typeof HubReportBody>;

/** The newest count of each counted batch of the account, with the batch's name. */
async function batchCounts(db: Db, accountId: string): Promise<ReportedBatchCount[]> {
  const batches = await db
    .selectFrom('batches as b')
    .select(['b.id', 'b.name'])
    .where('b.accountId', '=', accountId)
    .where((eb) =>
      eb.exists(eb.selectFrom('batchCounts as c').select('c.id').whereRef('c.batchId', '=', 'b.id')),
    )
    .orderBy('b.createdAt')
    .orderBy('b.id')
    .limit(500)
    .execute();
  const out: ReportedBatchCount[] = [];
  for (const b of batches) {
    const c = await lastBatchCount(db, b.id);
    if (!c) continue;
    out.push({
      batchId: b.id,
      batchName: b.name,
      countedBy: c.countedBy,
      countedAt: c.countedAt,
      note: c.note,
      enteredCount: c.enteredCount,
      enteredTotal: c.enteredTotal,
      countedTotal: c.countedTotal,
      difference: c.difference,
      lines: c.lines,
    });
  }
  return out;
}

export async function stationReport(db: Db, accountId: string): Promise<StationReport> {
  const entered = await db
    .selectFrom('donations as d')
    .select(sql<number>`count(*)`.as('n'))
    .where('d.accountId', '=', accountId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('changeLog as l')
          .select('l.seq')
          .where('l.entityType', '=', 'donation')
          .where('l.op', '=', 'create')
          .where('l.push', '=', 1)
          .whereRef('l.entityId', '=', 'd.id'),
      ),
    )
    // A gift voided here before it reached the hub counts once the hub holds it (it goes voided,
    // push/prepare-donation.ts; until then it waits in the outbox). One the hub holds counts,
    // voided or not: the hub counts it too.
    .where((eb) =>
      eb.or([
        eb('d.status', '!=', 'voided'),
        eb.exists(
          eb
            .selectFrom('syncLinks as k')
            .select('k.localId')
            .where('k.entityType', '=', 'donation')
            .whereRef('k.localId', '=', 'd.id'),
        ),
      ]),
    )
    .executeTakeFirstOrThrow();
  const log = await db
    .selectFrom('changeLog')
    .select([
      sql<number | null>`max(seq)`.as('lastSeq'),
      sql<number>`coalesce(sum(case when synced_at is null then 1 else 0 end), 0)`.as('waiting'),
    ])
    .where('accountId', '=', accountId)
    .where('push', '=', 1)
    .where('entityType', 'in', PUSHED_TYPES)
    .executeTakeFirstOrThrow();
  return {
    entered: Number(entered.n),
    lastSeq: Number(log.lastSeq ?? 0),
    waiting: Number(log.waiting),
    batches: await batchCounts(db, accountId),
  };
}

/** Sends the report; the hub's answer (a refusal says whether this station was removed). */
export async function sendReport(
  db: Db,
  accountId: string,
  client: RemoteClient,
  signal?: AbortSignal,
): Promise<RemoteResult> {
  const body = await stationReport(db, accountId);
  return client.request('POST', '/hub/report', body, signal ? { signal } : {});
}
