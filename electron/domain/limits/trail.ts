/**
 * History made elsewhere, taken at HQ (`POST /history`): the entries an event hub or a laptop
 * carries on with the gifts and donors it sent (sync's push/trail.ts). Each entry is written as
 * a row of the gift's or donor's history under the sender's id for it, so a second send of the
 * same entry (an answer lost on the way back) finds it there and adds nothing. Who made it is
 * who made it where it was made (the person, the station); the key that carried it here is kept
 * beside as `detail.carriedBy`. `entered` says who entered the gift there (history.ts shows it
 * as the gift's `entered`).
 */
import type { HistoryTrail, HistoryTrailResult, TrailEntry } from '#shared/schemas/history.ts';
import { toIsoInstant } from '#shared/dates.ts';
import type { Db } from '../../db/store.ts';
import type { DomainContext } from '../context.ts';

/** A stored entry's `detail`: who made it there, what it changed, and the key that carried it. */
function detailOf(e: TrailEntry, carriedBy: string | null): string {
  return JSON.stringify({
    by: { userId: null, keyId: e.by.keyId, name: e.by.name, stationId: null, stationName: e.by.stationName },
    fields: e.fields,
    changes: e.changes,
    carriedBy,
  });
}

async function ownedIds(
  trx: Db,
  accountId: string,
  record: TrailEntry['record'],
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows =
    record === 'donation'
      ? await trx
          .selectFrom('donations')
          .select('id')
          .where('accountId', '=', accountId)
          .where('id', 'in', ids)
          .execute()
      : await trx
          .selectFrom('contacts')
          .select('id')
          .where('accountId', '=', accountId)
          .where('id', 'in', ids)
          .execute();
  return new Set(rows.map((r) => r.id));
}

/** Takes each entry once; an entry of a record this account does not have is named in `unknown`. */
export async function takeHistoryTrail(
  ctx: DomainContext,
  accountId: string,
  body: Pick<HistoryTrail, 'entries'>,
): Promise<HistoryTrailResult> {
  const carriedBy = ctx.actor?.keyId ?? null;
  return ctx.store.write(async (trx) => {
    const ids = (r: TrailEntry['record']) => [
      ...new Set(body.entries.filter((e) => e.record === r).map((e) => e.recordId)),
    ];
    const gifts = await ownedIds(trx, accountId, 'donation', ids('donation'));
    const donors = await ownedIds(trx, accountId, 'contact', ids('contact'));
    const out: HistoryTrailResult = { taken: 0, known: 0, unknown: [] };
    for (const e of body.entries) {
      const owned = e.record === 'donation' ? gifts : donors;
      if (!owned.has(e.recordId)) {
        if (!out.unknown.includes(e.recordId)) out.unknown.push(e.recordId);
        continue;
      }
      const row = {
        id: e.id,
        action: e.action,
        note: e.note,
        detail: detailOf(e, carriedBy),
        createdAt: toIsoInstant(e.at) ?? e.at,
      };
      const written =
        e.record === 'donation'
          ? await trx
              .insertInto('donationHistory')
              .values({ ...row, donationId: e.recordId })
              .onConflict((oc) => oc.column('id').doNothing())
              .executeTakeFirst()
          : await trx
              .insertInto('contactHistory')
              .values({ ...row, accountId, contactId: e.recordId })
              .onConflict((oc) => oc.column('id').doNothing())
              .executeTakeFirst();
      if (Number(written.numInsertedOrUpdatedRows ?? 0) > 0) out.taken++;
      else out.known++;
    }
    return out;
  });
}
