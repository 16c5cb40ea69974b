/**
 * At a hub: the wrong pairing codes of the last minute, each with the address it came from
 * (`hub_wrong_codes`), so the limit on guessing is per address with a bound for the whole hub,
 * and a restart of the hub does not forget it (hub/wrong-codes.ts). Rows older than the minute
 * are deleted as new ones come.
 *
 * Frozen once shipped.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0410-reach-wrong-codes';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('hub_wrong_codes')
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('hub_wrong_codes_at').on('hub_wrong_codes').column('at').execute();
      await db.schema
        .createIndex('hub_wrong_codes_address')
        .on('hub_wrong_codes')
        .columns(['address', 'at'])
        .execute();
    },
  };
}
