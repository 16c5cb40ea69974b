/**
 * Deleting a contact with everything attached, its donations included.
 */
import { logChange } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import { contactNotFound, lockContact } from './read.ts';
import type { DomainContext, WriteOptions } from '../context.ts';

/** Deletes the contact and everything attached, donations included (docs/design.md). */
export async function deleteContact(
  ctx: DomainContext,
  accountId: string,
  id: string,
  opts: WriteOptions = {},
): Promise<{ message: string }> {
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    if (!(await lockContact(trx, accountId, id))) throw contactNotFound(id);
    const gifts = await trx
      .selectFrom('donations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('contactId', '=', id)
      .where('status', '!=', 'voided') // a voided gift is out of the count already
      .executeTakeFirstOrThrow();
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
