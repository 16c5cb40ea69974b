/**
 * At a hub: whether a paired station confirmed it keeps its key (`hub_stations.confirmed`). A
 * join is two steps: the hub's answer makes the station unconfirmed (0), and the station
 * confirms once it stored its key. A station that never does (its join failed on its side after
 * the hub answered) expires and is not counted in the close-out. Stations paired before this
 * migration joined in one step and kept their keys: they count as confirmed (the default, 1).
 *
 * Frozen once shipped.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0420-reach-station-confirmed';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('hub_stations')
        .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(sql.lit(1)))
        .execute();
    },
  };
}
