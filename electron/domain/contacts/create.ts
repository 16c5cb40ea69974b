/**
 * Creating a contact (C1), once per sync reference: a create that finds its reference held
 * answers the contact created with it. At an event hub, a station's create of a donor the
 * account already has (same primary email and name) answers that donor.
 */
import { foldText } from '#shared/fold.ts';
import { newId } from '#shared/ids.ts';
import type { Contact, ContactCreateBody } from '#shared/schemas/contacts.ts';
import { contactReferenceOf } from '#shared/sync-reference.ts';
import type { ContactsTable } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import { addContactHistory } from './history.ts';
import { bumpCounters } from '../counters.ts';
import { checkCollections, insertContactRecords, normaliseTags, prepareContact } from './records.ts';
import { getContact } from './read.ts';
import { type DomainContext, type WriteOptions, entryReference } from '../context.ts';
import { listCustomFields } from './custom-fields.ts';
import { DomainError, ReferenceHeld } from '../errors.ts';
import { lockReference, referenceRetired, referenceRetiredError } from './retire.ts';

/**
 * How a contact is written: pushed or not, an import's reference, and `sameDonor` (an event
 * hub's create from a station): a contact of the account with the same primary email (case
 * ignored) and the same first and last name (accents and case ignored) is the answer instead
 * of a second donor, nothing written. Decided inside the write transaction, under the
 * account's row lock on PostgreSQL, so two stations creating one new donor at once get one.
 */
export interface ContactWriteOptions extends WriteOptions {
  externalId?: string | null;
  sameDonor?: boolean;
}

export async function createContact(
  ctx: DomainContext,
  input: ContactCreateBody,
  opts: ContactWriteOptions = {},
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
  opts: ContactWriteOptions = {},
): Promise<{ contact: Contact; created: boolean }> {
  checkCollections(input);
  // The sync reference on its tags (not read in a window), else the window's entry key.
  const synced = opts.syncReference === false ? null : contactReferenceOf(normaliseTags(input.tags ?? []));
  const reference = synced ?? entryReference(opts);
  for (;;) {
    try {
      const { id, created } = await insertContact(ctx, input, reference, opts);
      return { contact: await getContact(ctx, input.accountId, id), created };
    } catch (err) {
      if (!(err instanceof ReferenceHeld)) throw err;
      const held = await contactByReference(ctx.store.db, input.accountId, err.reference);
      // Deleted since it was seen (before this read, or between it and the contact's): the
      // reference is free again, try once more.
      if (held) {
        const contact = await getContact(ctx, input.accountId, held.id).catch((e: unknown) => {
          if (e instanceof DomainError && e.code === 'contact_not_found') return null;
          throw e;
        });
        if (contact) return { contact, created: false };
      }
    }
  }
}

async function insertContact(
  ctx: DomainContext,
  input: ContactCreateBody,
  reference: string | null,
  opts: ContactWriteOptions,
): Promise<{ id: string; created: boolean }> {
  const id = newId('contact');
  const at = ctx.now();
  return ctx.store.write(async (trx) => {
    if (opts.sameDonor) await lockAccount(trx, input.accountId);
    const defs = input.customFields ? await listCustomFields(trx, input.accountId) : [];
    if (reference !== null) {
      // Its sender's retirement of the reference and this create take turns (retire.ts).
      await lockReference(trx, ctx.store.engine, input.accountId, reference);
      if (await contactByReference(trx, input.accountId, reference)) throw new ReferenceHeld(reference);
      if (await referenceRetired(trx, input.accountId, reference)) throw referenceRetiredError(reference);
    }
    const record = prepareContact(input, defs, id, at, opts.externalId ?? null);
    if (opts.sameDonor) {
      const same = await sameDonorOf(ctx, trx, record.row);
      if (same !== null) return { id: same, created: false };
    }
    await insertContactRecords(trx, [record]);
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
    if (ctx.actor)
      await addContactHistory(trx, {
        accountId: input.accountId,
        contactId: id,
        action: 'created',
        detail: null,
        at,
        actor: ctx.actor,
      });
    await logChange(trx, {
      accountId: input.accountId,
      entityType: 'contact',
      entityId: id,
      op: 'create',
      fields: null,
      push: opts.push,
      at,
    });
    if (opts.onCreated) await opts.onCreated(trx, id);
    return { id, created: true };
  });
}

/**
 * Holds the account's row for the rest of the transaction. On PostgreSQL a no-op UPDATE takes
 * the row lock, so two creates deciding "is this donor already here?" decide one after the
 * other; on SQLite writes are serialised already and this costs one cheap statement.
 */
async function lockAccount(trx: Db, accountId: string): Promise<void> {
  await trx
    .updateTable('accounts')
    .set((eb) => ({ name: eb.ref('name') }))
    .where('id', '=', accountId)
    .execute();
}

/** The account's oldest contact with this one's primary email and the same first and last name. */
async function sameDonorOf(ctx: DomainContext, trx: Db, row: ContactsTable): Promise<string | null> {
  const email = row.email?.trim();
  if (!email) return null;
  // SQLite: the email column compares without case (its collation), on its index; PostgreSQL's
  // collation keeps case, so both sides are lowered there.
  const candidates = await trx
    .selectFrom('contacts')
    .select(['id', 'firstName', 'lastName'])
    .where('accountId', '=', row.accountId)
    .$if(ctx.store.engine === 'sqlite', (q) => q.where('email', '=', email))
    .$if(ctx.store.engine !== 'sqlite', (q) =>
      q.where((eb) => eb(eb.fn('lower', [eb.ref('email')]), '=', email.toLowerCase())),
    )
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  const first = nameKey(row.firstName);
  const last = nameKey(row.lastName);
  const same = candidates.find((c) => nameKey(c.firstName) === first && nameKey(c.lastName) === last);
  return same?.id ?? null;
}

/** A name as compared for "the same donor": accents, case and surrounding spaces ignored. */
function nameKey(name: string): string {
  return foldText(name.trim()).replace(/\s+/g, ' ');
}
