/**
 * The process that renders a print run. Frozen once shipped.
 *
 * letter_runs gains `owner`: the process rendering the run (`host|pid|random`, as a session
 * key's owner), null for runs made before it. At a server's start a run left 'rendering' is
 * marked failed only once its owner is gone, so a run printing in another live process on
 * the same database (the `giftdesk letters` command beside a running server) is left alone.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-27T2120-letter-run-owner';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('letter_runs').addColumn('owner', 'text').execute();
    },
  };
}
