/**
 * How much of the event the hub holds, for a joining station's progress bar ("4,200 of
 * 100,000 donors"): its donors and gifts. Two counts by account, each read off an index.
 */
import type { Db } from '../db/store.ts';

export async function eventHolds(db: Db, accountId: string): Promise<{ donors: number; gifts: number }> {
  const [donors, gifts] = await Promise.all([
    db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('accountId', '=', accountId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('donations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('accountId', '=', accountId)
      .executeTakeFirstOrThrow(),
  ]);
  return { donors: Number(donors.n), gifts: Number(gifts.n) };
}
