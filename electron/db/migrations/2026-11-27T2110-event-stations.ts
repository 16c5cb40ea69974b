/**
 * The event's stations by name, and the hub's count of gifts by station. Frozen once shipped.
 *
 * - At a station: `event_stations`, every station of its event as the hub's feed names them
 *   (id, name), so the board names the other stations instead of showing their ids.
 * - At the hub: `donations_account_station` on (account_id, station_id), so the gifts the hub
 *   holds from each station (counted at every station's report and in the close-out) are read
 *   from the index alone instead of every gift of the account.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-27T2110-event-stations';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('event_stations')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_stations_pk', ['account_id', 'id'])
        .execute();
      await db.schema
        .createIndex('donations_account_station')
        .on('donations')
        .columns(['account_id', 'station_id'])
        .execute();
    },
  };
}
