/**
 * Updating a contact (C1–C5): only the fields sent change, a collection sent is replaced
 * whole, custom fields change one by one, and the displayed email/phone follow.
 */
import { CONTACT_COLLECTIONS, type Contact, type ContactUpdateBody } from '#shared/schemas/contacts.ts';
import type { ContactsTable } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import { contactNotFound, getContact, getContactRow, lockContact } from './read.ts';
import { checkCollections, replaceCollection, scalarPatch } from './records.ts';
import type { DomainContext, WriteOptions } from '../context.ts';
import { applyCustomValues, resolveCustomValues } from './custom-fields.ts';
import { addContactHistory, contactEditDetail } from './history.ts';

/** The displayed email/phone: the primary field, else the primary sub-record, else the first. */
async function deriveEmailPhone(
  trx: Db,
  contactId: string,
  row: Pick<ContactsTable, 'primaryEmail' | 'primaryPhone'>,
) {
  let email = row.primaryEmail;
  if (!email) {
    const e = await trx
      .selectFrom('contactEmails')
      .select('emailAddress')
      .where('contactId', '=', contactId)
      .orderBy('isPrimary', 'desc')
      .orderBy('position')
      .limit(1)
      .executeTakeFirst();
    email = e?.emailAddress ?? null;
  }
  let phone = row.primaryPhone;
  if (!phone) {
    const p = await trx
      .selectFrom('contactPhones')
      .select('phoneNumber')
      .where('contactId', '=', contactId)
      .orderBy('isPrimary', 'desc')
      .orderBy('position')
      .limit(1)
      .executeTakeFirst();
    phone = p?.phoneNumber ?? null;
  }
  return { email, phone };
}

/** The wire names a body sends (for the change log: C1, only sent fields). */
function sentFields(input: ContactUpdateBody): string[] {
  const fields = Object.keys(input).filter(
    (k) => k !== 'accountId' && input[k as keyof ContactUpdateBody] !== undefined,
  );
  // C4: custom fields change one by one, so the outbox names each one sent (`customFields.<name>`);
  // the sync engine sends exactly those, a cleared one as null.
  for (const name of Object.keys(input.customFields ?? {})) fields.push(`customFields.${name}`);
  return fields;
}

export async function updateContact(
  ctx: DomainContext,
  accountId: string,
  id: string,
  input: ContactUpdateBody,
  opts: WriteOptions = {},
): Promise<Contact> {
  checkCollections(input);
  const at = ctx.now();
  const fields = sentFields(input);
  await ctx.store.write(async (trx) => {
    if (!(await lockContact(trx, accountId, id))) throw contactNotFound(id);
    const current = await getContactRow(trx, accountId, id);
    if (!current) throw contactNotFound(id);
    const custom = input.customFields ? await resolveCustomValues(trx, accountId, input.customFields) : [];
    if (fields.length === 0) return;
    const patch = scalarPatch(input);
    await trx
      .updateTable('contacts')
      .set({ ...patch, updatedAt: at })
      .where('id', '=', id)
      .execute();
    for (const key of CONTACT_COLLECTIONS)
      if (input[key] !== undefined) await replaceCollection(trx, id, key, input, at);
    if (['primaryEmail', 'primaryPhone', 'emailAddresses', 'phoneNumbers'].some((f) => fields.includes(f))) {
      const derived = await deriveEmailPhone(trx, id, {
        primaryEmail: patch.primaryEmail !== undefined ? patch.primaryEmail : current.primaryEmail,
        primaryPhone: patch.primaryPhone !== undefined ? patch.primaryPhone : current.primaryPhone,
      });
      await trx.updateTable('contacts').set(derived).where('id', '=', id).execute();
    }
    await applyCustomValues(trx, id, custom);
    await addContactHistory(trx, {
      accountId,
      contactId: id,
      action: 'edited',
      detail: contactEditDetail(current, patch, fields),
      at,
      actor: ctx.actor,
    });
    await logChange(trx, {
      accountId,
      entityType: 'contact',
      entityId: id,
      op: 'update',
      fields,
      push: opts.push,
      at,
    });
  });
  return getContact(ctx, accountId, id);
}
