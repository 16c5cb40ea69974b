/**
 * At a station: the gifts of a donor the hub deleted, dropped here while the donor stays (it goes
 * back to the hub with the work of it that still waits here).
 */
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import { recomputeContactTotals } from '../limits/history.ts';

/**
 * At a station: deletes gifts of a donor that the hub deleted with that donor (push = 0: the
 * hub did it), while the donor itself stays here because something of it still waits to go to
 * the hub. The donor's totals and the account's count follow.
 */
export async function dropEventGifts(
  trx: Db,
  accountId: string,
  contactId: string,
  ids: readonly string[],
  at: string,
): Promise<number> {
  if (ids.length === 0) return 0;
  const live = await trx
    .selectFrom('donations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id', 'in', ids)
    .where('accountId', '=', accountId)
    .where('status', '!=', 'voided')
    .executeTakeFirstOrThrow();
  const r = await trx
    .deleteFrom('donations')
    .where('id', 'in', ids)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  const n = Number(r.numDeletedRows);
  if (n === 0) return 0;
  await bumpCounters(trx, accountId, { donations: -Number(live.n) });
  await recomputeContactTotals(trx, contactId);
  for (const id of ids)
    await logChange(trx, {
      accountId,
      entityType: 'donation',
      entityId: id,
      op: 'delete',
      fields: null,
      push: false,
      at,
    });
  return n;
}
