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
  await addToCounters(trx, [accountId, Math.floor(Math.random() * COUNTER_SLOTS), contacts, donations]);
}

const addToCounters = reusable((db, p) =>
  db
    .insertInto('accountCounterSlots')
    .values({ accountId: p(0), slot: p(1), contacts: p(2), donations: p(3) })
    .onConflict((oc) =>
      oc.columns(['accountId', 'slot']).doUpdateSet((eb) => ({
        contacts: eb('accountCounterSlots.contacts', '+', p<number>(2)),
        donations: eb('accountCounterSlots.donations', '+', p<number>(3)),
      })),
    ),
);

/** An account's running counts. */
export async function readCounters(
  db: Db,
  accountId: string,
): Promise<{ contacts: number; donations: number }> {
  const r = (await sumCounters(db, [accountId])).rows[0] as
    { contacts: number | string; donations: number | string } | undefined;
  return { contacts: Number(r?.contacts ?? 0), donations: Number(r?.donations ?? 0) };
}

const sumCounters = reusable((db, p) =>
  db
    .selectFrom('accountCounterSlots')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('contacts'), eb.lit(0)).as('contacts'),
      eb.fn.coalesce(eb.fn.sum<number>('donations'), eb.lit(0)).as('donations'),
    ])
    .where('accountId', '=', p<string>(0)),
);
