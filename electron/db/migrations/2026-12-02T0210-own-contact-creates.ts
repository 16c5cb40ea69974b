/**
 * The contacts this GiftDesk created itself and logged for its remote (change_log rows with
 * push = 1, op 'create', entity 'contact'), by account: a station asks, for every donor the
 * hub's feed brings, whether it is one of its own not linked yet (sync/station/feed-contacts.ts).
 * Without this index that question read every contact of the account, once per donor — a
 * station joining an event of 100,000 donors read the directory 100,000 times. A station's own
 * creates are a few hundred at most; the feed's (push = 0) are not in it.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0210-own-contact-creates';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('change_log_own_contact_creates')
        .on('change_log')
        .columns(['account_id', 'entity_id'])
        .where((eb) =>
          eb.and([
            eb(sql.ref('push'), '=', sql.lit(1)),
            eb(sql.ref('op'), '=', sql.lit('create')),
            eb(sql.ref('entity_type'), '=', sql.lit('contact')),
          ]),
        )
        .execute();
    },
  };
}
