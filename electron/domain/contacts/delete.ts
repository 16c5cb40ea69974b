/**
 * Deleting a contact with everything attached, its donations included.
 */
import { logChange } from '../change-log.ts';
import { DomainError } from '../errors.ts';
import { bumpCounters } from '../counters.ts';
import { contactNotFound, lockContact } from './read.ts';
import type { DomainContext, WriteOptions } from '../context.ts';
import type { Db } from '../../db/store.ts';

/**
 * Deletes the contact and everything attached, donations included (docs/design.md).
 *
 * `onlyStation`: the delete is asked by an event station's key (at the hub). A station
 * deletes only a donor whose gifts are all its own: a donor with any gift typed elsewhere
 * (another station, or the hub itself; voided ones too) is a 409 naming how many, and nothing
 * is deleted, so one table cannot take another table's gifts with it.
 */
export async function deleteContact(
  ctx: DomainContext,
  accountId: string,
  id: string,
  opts: WriteOptions & { onlyStation?: string | undefined } = {},
): Promise<{ message: string }> {
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    if (!(await lockContact(trx, accountId, id))) throw contactNotFound(id);
    const station = opts.onlyStation;
    if (station !== undefined) {
      const others = await trx
        .selectFrom('donations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('contactId', '=', id)
        .where((eb) => eb.or([eb('stationId', 'is', null), eb('stationId', '!=', station)]))
        .executeTakeFirstOrThrow();
      const n = Number(others.n);
      if (n > 0) throw othersGifts(id, n);
    }
    const gifts = await trx
      .selectFrom('donations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('contactId', '=', id)
      .where('status', '!=', 'voided') // a voided gift is out of the count already
      .executeTakeFirstOrThrow();
    await clearCredits(trx, accountId, id, at);
    await trx.deleteFrom('contacts').where('id', '=', id).execute();
    await bumpCounters(trx, accountId, { contacts: -1, donations: -Number(gifts.n) });
    await logChange(trx, {
      accountId,
      entityType: 'contact',
      entityId: id,
      op: 'delete',
      fields: null,
      push: opts.push,
      at,
    });
  });
  return { message: `Contact ${id} deleted` };
}

/**
 * Other donors' gifts that credit the contact (on behalf of it) or name it as their host lose
 * that name with it. The database would clear them by itself (ON DELETE SET NULL), but
 * silently: each gift is changed here, with an entry in the change log, so an event's stations
 * read it off the hub's feed (not for HQ: `push` 0, HQ's API cannot change a gift, and HQ
 * clears its own when the contact's DELETE reaches it).
 */
async function clearCredits(trx: Db, accountId: string, id: string, at: string): Promise<void> {
  const gifts = await trx
    .selectFrom('donations')
    .select(['id', 'onBehalfOfContactId', 'facilitatedByContactId'])
    .where('accountId', '=', accountId)
    .where('contactId', '!=', id)
    .where((eb) => eb.or([eb('onBehalfOfContactId', '=', id), eb('facilitatedByContactId', '=', id)]))
    .execute();
  for (const g of gifts) {
    const fields = [
      ...(g.onBehalfOfContactId === id ? (['onBehalfOfContactId'] as const) : []),
      ...(g.facilitatedByContactId === id ? (['facilitatedByContactId'] as const) : []),
    ];
    await trx
      .updateTable('donations')
      .set({ ...Object.fromEntries(fields.map((f) => [f, null])), updatedAt: at })
      .where('id', '=', g.id)
      .execute();
    await logChange(trx, {
      accountId,
      entityType: 'donation',
      entityId: g.id,
      op: 'update',
      fields: [...fields],
      push: false,
      at,
    });
  }
}

function othersGifts(id: string, n: number): DomainError {
  const gifts = n === 1 ? '1 gift' : `${n} gifts`;
  return new DomainError(
    'conflict',
    'donor_has_other_gifts',
    `Donor ${id} has ${gifts} typed at another station or at the hub: a station deletes only a donor whose gifts were all typed there. Ask the person hosting the event to delete this donor.`,
    [{ field: 'id', issue: `has ${gifts} typed at another station or at the hub` }],
  );
}
