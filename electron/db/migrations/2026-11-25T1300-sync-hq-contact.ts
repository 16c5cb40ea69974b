/**
 * What the sync status says about HQ, from facts rather than guesses. Frozen once shipped.
 *
 * sync_remotes gains:
 * - `hq_answered_at`: the last time HQ answered a request (any answer under 500 but 401/403:
 *   it was reached and took the key). "Online" is an answer within the last two minutes.
 * - `hq_failed_at` / `hq_failure`: the last time a request got no answer (refused, DNS,
 *   timeout, reset) or a 5xx, and what happened.
 * - `hq_refused_at`: the last 401/403 (HQ refused the key).
 * - `sent_count`: changes HQ confirmed (an applied answer, or found at HQ after an unknown
 *   outcome). `done_count` also counts changes merged into nothing or discarded: not "sent".
 *   Filled here from the outbox: a change done with that went into a request was confirmed.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-25T1300-sync-hq-contact';

export function migration(engine: Engine): Migration {
  const ts = engine === 'sqlite' ? 'text' : 'timestamptz';
  const bigint = engine === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<unknown>) {
      const t = () => db.schema.alterTable('sync_remotes');
      await t().addColumn('hq_answered_at', ts).execute();
      await t().addColumn('hq_failed_at', ts).execute();
      await t().addColumn('hq_failure', 'text').execute();
      await t().addColumn('hq_refused_at', ts).execute();
      await t()
        .addColumn('sent_count', bigint, (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update sync_remotes set sent_count = (
          select count(*) from change_log c
          where c.account_id = sync_remotes.account_id and c.push = 1 and c.synced_at is not null and c.attempt_id is not null
            and c.entity_type in ('contact', 'donation'))`.execute(db);
    },
  };
}
