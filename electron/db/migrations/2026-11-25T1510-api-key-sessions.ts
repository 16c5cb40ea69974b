/**
 * Keys that belong to one running process (a browser window's or the desktop window's
 * session). Frozen once shipped.
 *
 * api_keys gains:
 * - `session_kind`: null for a permanent key (made by a person for a script or integration);
 *   'browser' for a key traded for a one-time link, 'desktop' for the desktop window's key.
 * - `session_owner`: the process the session belongs to (`host|pid|random`). A session key
 *   works only in that process, and is revoked at the next start once that process is gone
 *   (a crash or kill -9 skips the revocation at shutdown).
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-25T1510-api-key-sessions';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('api_keys').addColumn('session_kind', 'text').execute();
      await db.schema.alterTable('api_keys').addColumn('session_owner', 'text').execute();
    },
  };
}
