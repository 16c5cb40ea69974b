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

/** Slots an account's counts are spread over: concurrent writers rarely touch the same row. */
export const COUNTER_SLOTS = 16;

/** Adds to an account's running counts (totals never cost a count(*) scan). */
export async function bumpCounters(
  trx: Db,
  accountId: string,
  delta: { contacts?: number; donations?: number },
): Promise<void> {
  const contacts = delta.contacts ?? 0;
  const donations = delta.donations ?? 0;
  if (contacts === 0 && donations === 0) return;
  await trx
    .insertInto('accountCounterSlots')
    .values({ accountId, slot: Math.floor(Math.random() * COUNTER_SLOTS), contacts, donations })
    .onConflict((oc) =>
      oc.columns(['accountId', 'slot']).doUpdateSet((eb) => ({
        contacts: eb('accountCounterSlots.contacts', '+', contacts),
        donations: eb('accountCounterSlots.donations', '+', donations),
      })),
    )
    .execute();
}

/** An account's running counts. */
export async function readCounters(db: Db, accountId: string): Promise<{ contacts: number; donations: number }> {
  const r = await db
    .selectFrom('accountCounterSlots')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('contacts'), eb.lit(0)).as('contacts'), eb.fn.coalesce(eb.fn.sum<number>('donations'), eb.lit(0)).as('donations')])
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return { contacts: Number(r?.contacts ?? 0), donations: Number(r?.donations ?? 0) };
}
