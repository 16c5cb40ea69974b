/**
 * The engine's knowledge of HQ's contacts for the email match (electron/sync/push/email-match.ts),
 * so that a new contact's email is matched without a search at HQ per contact:
 *
 * - `sync_directory`, one row per account: `watermark` — HQ's `createdAt` up to which every
 *   HQ contact is known here (linked in sync_links, or listed in sync_hq_contacts); set by a
 *   finished pull and moved on by the engine's delta reads (newest first, back to it);
 *   `checked_at` — when (local clock) HQ was last read up to now; `remote_account_id` — the
 *   HQ account it describes.
 * - `sync_hq_contacts`: HQ contacts with an email seen by a pull or a delta read and not
 *   linked to a local contact at the time (the pull's deferred ones; HQ's new ones).
 *
 * Dates are ISO text on both engines (the watermark is HQ's own string). Frozen once shipped.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-25T1540-sync-directory';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sync_directory')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('remote_account_id', 'text', (c) => c.notNull())
        .addColumn('watermark', 'text', (c) => c.notNull())
        .addColumn('checked_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sync_hq_contacts')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('remote_id', 'text', (c) => c.notNull())
        // trimmed, lower case (email-match.ts emailKey)
        .addColumn('email_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sync_hq_contacts_pk', ['account_id', 'remote_id'])
        .execute();
      await db.schema
        .createIndex('sync_hq_contacts_email')
        .on('sync_hq_contacts')
        .columns(['account_id', 'email_key'])
        .execute();
    },
  };
}
