/**
 * The app's contact list sorts by name (last, then first), by last gift and by total given,
 * and pages through 100,000 contacts by offset: one index per order, so a page is read off
 * the index alone (no sort, no table rows for the skipped ones). A contact who never gave
 * has no last gift: it sorts first ascending and last descending on both engines (SQLite's
 * own order; PostgreSQL's index says so). Frozen once shipped.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-24T1750-contact-browse-indexes';

export function migration(engine: Engine): Migration {
  const isSqlite = engine === 'sqlite';
  return {
    async up(db: Kysely<unknown>) {
      const s = db.schema;
      await s
        .createIndex('contacts_account_name')
        .on('contacts')
        .columns(['account_id', 'last_name', 'first_name', 'id'])
        .execute();
      await s
        .createIndex('contacts_account_total')
        .on('contacts')
        .columns(['account_id', 'total_cents', 'id'])
        .execute();
      const lastGift = s.createIndex('contacts_account_last_gift').on('contacts');
      await (
        isSqlite
          ? lastGift.columns(['account_id', 'last_donation_date', 'id'])
          : lastGift.expression(sql`account_id, last_donation_date nulls first, id`)
      ).execute();
    },
  };
}
