/**
 * The outbox: one row per change to a record HQ keeps (contacts, gifts, reference records),
 * written in the change's own transaction, for the sync engine to drain. A change that is not
 * for HQ (a record pulled from it, an import kept local) is logged with push off.
 */
import type { Insertable } from 'kysely';
import { reusable } from '../db/bulk.ts';
import type { ChangeLogTable } from '../db/schema.ts';
import type { Db } from '../db/store.ts';

export type EntityType = 'contact' | 'donation' | 'campaign' | 'committee' | 'donationAccount';
export type ChangeOp = 'create' | 'update' | 'delete';

/**
 * Appends to the outbox, in the caller's transaction: the sync engine drains it.
 * `fields` lists the wire names a change touched (null: the whole record).
 */
export async function logChange(trx: Db, entry: ChangeEntry): Promise<void> {
  const r = changeLogRow(entry);
  await insertChange(trx, [r.accountId, r.entityType, r.entityId, r.op, r.fields, r.push, r.createdAt]);
}

const insertChange = reusable((db, p) =>
  db.insertInto('changeLog').values({
    accountId: p(0),
    entityType: p(1),
    entityId: p(2),
    op: p(3),
    fields: p(4),
    push: p(5),
    createdAt: p(6),
  }),
);

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
