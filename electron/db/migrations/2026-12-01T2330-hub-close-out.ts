/**
 * What the close-out needs to tell a complete station from a quiet one, and where a hub serves
 * again. Frozen once shipped.
 *
 * - `hub_settings.served_at`: when the hub's server last started serving the event. A station's
 *   report from before it proves nothing about what the station typed while the hub was away.
 * - `hub_settings.bind_host`: the address the hub was told to listen on (0.0.0.0 stays 0.0.0.0;
 *   `url` holds the address shown to stations), so serving again listens where it listened.
 * - `hub_stations.reported_batches`: the batch counts the station last reported (JSON), shown in
 *   the close-out's deposit beside the figures the hub holds.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-01T2330-hub-close-out';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('hub_settings').addColumn('served_at', 'text').execute();
      await db.schema.alterTable('hub_settings').addColumn('bind_host', 'text').execute();
      await db.schema.alterTable('hub_stations').addColumn('reported_batches', 'text').execute();
    },
  };
}
