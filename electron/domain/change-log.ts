import type { Insertable } from 'kysely';
import type { ChangeLogTable } from '../db/schema.ts';
import type { Db } from '../db/store.ts';

export type EntityType = 'contact' | 'donation' | 'campaign' | 'committee' | 'donationAccount';
export type ChangeOp = 'create' | 'update' | 'delete';

/**
 * Appends to the outbox, in the caller's transaction: the sync engine drains it.
 * `fields` lists the wire names a change touched (null: the whole record).
 */
export async function logChange(trx: Db, entry: ChangeEntry): Promise<void> {
  await trx.insertInto('changeLog').values(changeLogRow(entry)).execute();
}

export interface ChangeEntry {
  accountId: string;
  entityType: EntityType;
  entityId: string;
  op: ChangeOp;
  fields?: string[] | null;
  push?: boolean;
  at: string;
}

/** The outbox row of a change (bulk paths insert many at once; logChange one). */
export function changeLogRow(entry: ChangeEntry): Insertable<ChangeLogTable> {
  return {
    accountId: entry.accountId,
    entityType: entry.entityType,
    entityId: entry.entityId,
    op: entry.op,
    fields: entry.fields ? JSON.stringify(entry.fields) : null,
    push: entry.push === false ? 0 : 1,
    createdAt: entry.at,
  };
}

/** Adds to an account's running counts (totals never cost a count(*) scan). */
export async function bumpCounters(
  trx: Db,
  accountId: string,
  delta: { contacts?: number; donations?: number },
): Promise<void> {
  await trx
    .updateTable('accountCounters')
    .set((eb) => ({
      contacts: eb('contacts', '+', delta.contacts ?? 0),
      donations: eb('donations', '+', delta.donations ?? 0),
    }))
    .where('accountId', '=', accountId)
    .execute();
}
