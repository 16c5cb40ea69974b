/**
 * What a station says of itself to its hub (POST /hub/report), for the close-out: the gifts it
 * entered (its own, not those the hub sent it, and not one voided before it was sent: that one
 * never goes), the sequence of its last change, and the changes the hub has not confirmed yet.
 * Read in one place from the outbox.
 */
import { sql } from 'kysely';
import type { z } from 'zod';
import type { HubReportBody } from '#shared/schemas/hub.ts';
import type { Db } from '../../db/store.ts';
import type { RemoteClient, RemoteResult } from '../net/http-client.ts';
import { PUSHED_TYPES } from '../outbox/outbox.ts';

export type StationReport = z.infer<typeof HubReportBody>;

export async function stationReport(db: Db, accountId: string): Promise<StationReport> {
  const entered = await db
    .selectFrom('donations as d')
    .select(sql<number>`count(*)`.as('n'))
    .where('d.accountId', '=', accountId)
    // A gift voided before it was ever sent never goes (push/prepare-donation.ts): not counted.
    .where('d.status', '!=', 'voided')
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
  return { entered: Number(entered.n), lastSeq: Number(log.lastSeq ?? 0), waiting: Number(log.waiting) };
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
