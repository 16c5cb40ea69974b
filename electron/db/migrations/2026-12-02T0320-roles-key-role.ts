/**
 * The role an API key acts in (shared/schemas/roles.ts): which routes it may use
 * (electron/server/route-rules.ts). Frozen once shipped.
 *
 * api_keys gains `role`, not null, 'administrator' by default: every key made before roles
 * existed (a script's, a station's, a window's session) keeps doing what it did.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0320-roles-key-role';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('api_keys')
        .addColumn('role', 'text', (c) => c.notNull().defaultTo(sql.lit('administrator')))
        .execute();
    },
  };
}
