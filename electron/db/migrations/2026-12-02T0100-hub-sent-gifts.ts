/**
 * At a station:
 *
 * - the gifts its hub has sent to HQ (`hub_sent_gifts`), as the hub's feed says (its gift's
 *   `sentToHq`). Such a gift can only be changed at HQ now, at every end of the event;
 * - the gifts typed here before a station stamped its own gifts with its station id get it
 *   (those whose create was logged to be pushed), so a gift with no station is one typed at the
 *   hub, at every end of the event.
 *
 * Frozen once shipped.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0100-hub-sent-gifts';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('hub_sent_gifts')
        .addColumn('donation_id', 'text', (c) =>
          c.primaryKey().references('donations.id').onDelete('cascade'),
        )
        .addColumn('account_id', 'text', (c) => c.notNull())
        .execute();
      await sql`
        update donations set station_id = (
          select r.station_id from sync_remotes r where r.account_id = donations.account_id and r.kind = 'hub'
        )
        where station_id is null
          and exists (select 1 from sync_remotes r where r.account_id = donations.account_id and r.kind = 'hub')
          and exists (
            select 1 from change_log c
            where c.entity_type = 'donation' and c.entity_id = donations.id and c.op = 'create' and c.push = 1
          )`.execute(db);
    },
  };
}
