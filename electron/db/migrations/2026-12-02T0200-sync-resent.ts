/**
 * Records that may be upstream already. Frozen once shipped.
 *
 * sync_items gains `resent_since`: set on a record sent again after its upstream was lost (a
 * station moved to a replacement hub or handed to HQ, outbox/resend.ts), or on a record a
 * station created at a hub saying so. The record may be at HQ already — the lost hub may have
 * taken it there — created no earlier than this time. It is looked for at HQ (by its `gd:`
 * reference, as after an unknown outcome) before it is ever posted, and a station tells its
 * hub the same when it posts it there. Null for every other record.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0200-sync-resent';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sync_items').addColumn('resent_since', 'text').execute();
    },
  };
}
