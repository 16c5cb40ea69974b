/**
 * A contact's sync reference retired by its sender: `DELETE /contacts/gd:<id>` (routes/contacts.ts).
 *
 * A GiftDesk whose create of a contact got no answer looks for it at HQ once the request's
 * deadline has passed; when the look finds nothing and the contact has been deleted there
 * meanwhile, nothing needs deleting here — unless the create is still on its way, stalled
 * somewhere past its deadline, and lands later. So the sender retires the reference instead of
 * taking the delete as done (sync/push/prepare-contact.ts): the contact holding it, if the
 * create has landed, is deleted as `DELETE /contacts/:id` deletes it, and a create carrying it
 * afterwards creates nothing (create.ts: 409 `reference_retired`).
 *
 * The retirement and a create with the same reference take turns: on SQLite writes are
 * serialised; on PostgreSQL both hold a transaction lock on the reference (`lockReference`), so
 * a create either committed before the retirement (and its contact is found and deleted) or
 * sees it (and creates nothing).
 */
import type { Engine } from '../../db/migration-types.ts';
import type { Db } from '../../db/store.ts';
import { takeTurnsOn } from '../../db/take-turns.ts';
import type { DomainContext, WriteOptions } from '../context.ts';
import { DomainError, isDomainError } from '../errors.ts';
import { deleteContact } from './delete.ts';

/** On PostgreSQL, holds the account's reference for the rest of the transaction; nothing on SQLite (writes are serialised). */
export async function lockReference(
  trx: Db,
  engine: Engine,
  accountId: string,
  reference: string,
): Promise<void> {
  await takeTurnsOn(trx, engine, `contact-reference:${accountId}:${reference}`);
}

/** Whether the account's contact reference was retired by its sender. */
export async function referenceRetired(trx: Db, accountId: string, reference: string): Promise<boolean> {
  const row = await trx
    .selectFrom('retiredContactReferences')
    .select('reference')
    .where('accountId', '=', accountId)
    .where('reference', '=', reference)
    .executeTakeFirst();
  return row !== undefined;
}

/** The 409 of a create carrying a retired reference. */
export function referenceRetiredError(reference: string): DomainError {
  return new DomainError(
    'conflict',
    'reference_retired',
    `The contact with reference ${reference} was deleted by the GiftDesk that sent it, before this create arrived: nothing was created.`,
    [{ field: 'tags', issue: `carry the retired reference ${reference}` }],
  );
}

/**
 * Retires the reference and deletes the contact created with it, if the account holds one (as
 * deleteContact does, a station's rule included). Returns the deleted contact's id, or null when
 * none held it (the reference is retired all the same).
 */
export async function retireContactReference(
  ctx: DomainContext,
  accountId: string,
  reference: string,
  opts: WriteOptions & { onlyStation?: string | undefined } = {},
): Promise<string | null> {
  const at = ctx.now();
  const held = await ctx.store.write(async (trx) => {
    await lockReference(trx, ctx.store.engine, accountId, reference);
    await trx
      .insertInto('retiredContactReferences')
      .values({ accountId, reference, retiredAt: at })
      .onConflict((oc) => oc.columns(['accountId', 'reference']).doNothing())
      .execute();
    const row = await trx
      .selectFrom('contactSyncReferences')
      .select('contactId')
      .where('accountId', '=', accountId)
      .where('reference', '=', reference)
      .executeTakeFirst();
    return row?.contactId ?? null;
  });
  if (held === null) return null;
  try {
    await deleteContact(ctx, accountId, held, opts);
  } catch (err) {
    // Deleted meanwhile, by someone else: gone all the same.
    if (isDomainError(err) && err.code === 'contact_not_found') return null;
    throw err;
  }
  return held;
}
