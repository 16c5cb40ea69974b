/**
 * When a person last signed in (`users.last_sign_in_at`), for the administrator's list of
 * people. Null until their next sign-in: people who signed in before this migration show no
 * date until they sign in again.
 *
 * Frozen once shipped.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0750-peoplescreen-last-sign-in';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('last_sign_in_at', 'text').execute();
    },
  };
}
