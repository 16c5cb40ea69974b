/**
 * At a station: `hub_held_gifts`, the gifts the hub's feed brought that could not be written
 * here yet (their donor, campaign, committee or donation account is not here or not linked
 * yet — e.g. this station's own new donor whose create's answer was lost when the hub went
 * down). The feed's cursor moves on past them, so they are kept here, the gift as the feed
 * gave it (JSON), and written once what they name is here: on every feed page and after a push
 * answer links a record. A held gift whose donor the hub deleted goes with it. Frozen once
 * shipped.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-27T1700-hub-held-gifts';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('hub_held_gifts')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('hub_id', 'text', (c) => c.notNull())
        .addColumn('contact_hub_id', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('missing', 'text', (c) => c.notNull())
        .addColumn('held_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('hub_held_gifts_pk', ['account_id', 'hub_id'])
        .execute();
    },
  };
}
