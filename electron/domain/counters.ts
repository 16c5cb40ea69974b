/**
 * An account's running counts of contacts and gifts, kept in the transactions that add or
 * remove them, so a list's total never costs a count(*) scan. The counts are spread over
 * slots, so concurrent writers rarely touch the same row; reading sums them.
 */
import { reusable } from '../db/bulk.ts';
import type { Db } from '../db/store.ts';

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
