/**
 * The event's stations by id and name as a station keeps them (`event_stations`), so its board
 * names the others: the stations kind of the event's ledger (ledger-apply.ts).
 */
import type { Db } from '../../db/store.ts';

/** Keeps the stations' names the page gives, writing only a station new here or renamed. */
export async function keepStationNames(
  trx: Db,
  accountId: string,
  stations: ReadonlyArray<{ id: string; name: string }>,
  at: string,
): Promise<void> {
  if (stations.length === 0) return;
  const known = new Map(
    (
      await trx
        .selectFrom('eventStations')
        .select(['id', 'name'])
        .where('accountId', '=', accountId)
        .execute()
    ).map((r) => [r.id, r.name]),
  );
  for (const s of stations) {
    if (known.get(s.id) === s.name) continue;
    if (known.has(s.id))
      await trx
        .updateTable('eventStations')
        .set({ name: s.name, updatedAt: at })
        .where('accountId', '=', accountId)
        .where('id', '=', s.id)
        .execute();
    else
      await trx
        .insertInto('eventStations')
        .values({ accountId, id: s.id, name: s.name, updatedAt: at })
        .execute();
  }
}
