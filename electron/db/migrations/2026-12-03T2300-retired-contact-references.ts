/**
 * A contact's sync reference retired by the GiftDesk that made it. Frozen once shipped.
 *
 * `retired_contact_references`: one row per (account, reference) whose sender deleted the
 * contact while a create of it might still be on its way (`DELETE /contacts/gd:<id>`,
 * domain/contacts/retire.ts). A create carrying a retired reference creates nothing (409
 * `reference_retired`), so a create that lands late, after its sender gave up on it and deleted
 * the contact, cannot leave a contact at HQ that was deleted where it was typed. Local
 * bookkeeping of this server, as contact_sync_references; rows are never removed (a reference
 * names one record, which is never made again).
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-03T2300-retired-contact-references';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('retired_contact_references')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('reference', 'text', (c) => c.notNull())
        .addColumn('retired_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('retired_contact_references_pk', ['account_id', 'reference'])
        .execute();
    },
  };
}
