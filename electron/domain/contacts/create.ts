/**
 * Creating a contact (C1), once per sync reference: a create that finds its reference held
 * answers the contact created with it.
 */
import { newId } from '#shared/ids.ts';
import type { Contact, ContactCreateBody } from '#shared/schemas/contacts.ts';
import { contactReferenceOf } from '#shared/sync-reference.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import { checkCollections, insertContactRecords, normaliseTags, prepareContact } from './records.ts';
import { getContact } from './read.ts';
import type { DomainContext, WriteOptions } from '../context.ts';
import { listCustomFields } from './custom-fields.ts';
import { ReferenceHeld } from '../errors.ts';

export async function createContact(
  ctx: DomainContext,
  input: ContactCreateBody,
  opts: WriteOptions & { externalId?: string | null } = {},
): Promise<Contact> {
  return (await createContactOnce(ctx, input, opts)).contact;
}

/** The account's contact created with this sync reference, if any. */
async function contactByReference(db: Db, accountId: string, reference: string) {
  return db
    .selectFrom('contactSyncReferences')
    .select('contactId as id')
    .where('accountId', '=', accountId)
    .where('reference', '=', reference)
    .executeTakeFirst();
}

/**
 * Creates a contact, once per sync reference: when its tags carry a GiftDesk reference
 * (`gd:<local id>`, its last such tag; #shared/sync-reference.ts) and the account already
 * holds a contact created with it, that contact is the answer (`created: false`) and nothing
 * is written. The database enforces it (a unique reference per account), so two creates
 * racing with one reference store one contact and both answer it.
 */
export async function createContactOnce(
  ctx: DomainContext,
  input: ContactCreateBody,
  opts: WriteOptions & { externalId?: string | null } = {},
): Promise<{ contact: Contact; created: boolean }> {
  checkCollections(input);
  const reference = opts.syncReference === false ? null : contactReferenceOf(normaliseTags(input.tags ?? []));
  for (;;) {
    try {
      return { contact: await insertContact(ctx, input, reference, opts), created: true };
    } catch (err) {
      if (!(err instanceof ReferenceHeld)) throw err;
      const held = await contactByReference(ctx.store.db, input.accountId, err.reference);
      if (held) return { contact: await getContact(ctx, input.accountId, held.id), created: false };
      // Deleted since it was seen: the reference is free again, try once more.
    }
  }
}

async function insertContact(
  ctx: DomainContext,
  input: ContactCreateBody,
  reference: string | null,
  opts: WriteOptions & { externalId?: string | null },
): Promise<Contact> {
  const id = newId('contact');
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const defs = input.customFields ? await listCustomFields(trx, input.accountId) : [];
    if (reference !== null && (await contactByReference(trx, input.accountId, reference)))
      throw new ReferenceHeld(reference);
    await insertContactRecords(trx, [prepareContact(input, defs, id, at, opts.externalId ?? null)]);
    if (reference !== null) {
      const kept = await trx
        .insertInto('contactSyncReferences')
        .values({ accountId: input.accountId, reference, contactId: id })
        // Another create with this reference committed since the check (PostgreSQL: this one
        // waited for it on the key): nothing inserted; roll this one back, answer that one.
        .onConflict((oc) => oc.columns(['accountId', 'reference']).doNothing())
        .executeTakeFirst();
      if (Number(kept.numInsertedOrUpdatedRows ?? 0n) === 0) throw new ReferenceHeld(reference);
    }
    await bumpCounters(trx, input.accountId, { contacts: 1 });
    await logChange(trx, {
      accountId: input.accountId,
      entityType: 'contact',
      entityId: id,
      op: 'create',
      fields: null,
      push: opts.push,
      at,
    });
  });
  const created = await getContact(ctx, input.accountId, id);
  return created;
}
