/**
 * A donor of an event hub's feed, written at a station beyond the five fields a directory
 * shows (names, email, phone, organization: contacts.ts): every other field, the tags, each
 * collection of sub-records (phones, emails, addresses, education, employment, notes, kept
 * under the hub's ids and order) and the primary email and phone as the hub holds them, so the
 * donor's page here is the hub's. A field the station keeps (`kept`: changed here and not
 * pushed yet, or pushed after the page was read) is left as it is. Written only where something
 * differs, logged with push = 0 (the hub has it), in the caller's transaction.
 */
import { CONTACT_SCALAR_FIELDS, type Contact } from '#shared/schemas/contacts.ts';
import type { ContactsTable } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import { readContacts } from '../contacts/read.ts';

/** What the feed may carry of a donor (a hub of an earlier version, or a test, may send less). */
export type EventContactDetail = Partial<Contact> & { id: string };

const flag = (v: boolean | undefined): 0 | 1 => (v ? 1 : 0);

type Collection = 'phoneNumbers' | 'emailAddresses' | 'addresses' | 'education' | 'employment' | 'notes';
const COLLECTIONS: readonly Collection[] = [
  'phoneNumbers',
  'emailAddresses',
  'addresses',
  'education',
  'employment',
  'notes',
];

/** Replaces one collection with the hub's rows (the hub's ids and order). */
async function writeCollection(trx: Db, contactId: string, key: Collection, c: EventContactDetail) {
  const base = (id: string, position: number) => ({ id, contactId, position });
  switch (key) {
    case 'phoneNumbers': {
      await trx.deleteFrom('contactPhones').where('contactId', '=', contactId).execute();
      const rows = (c.phoneNumbers ?? []).map((x, i) => ({
        ...base(x.id, i),
        phoneNumber: x.phoneNumber,
        phoneType: x.phoneType,
        isPrimary: flag(x.isPrimary),
      }));
      if (rows.length > 0) await trx.insertInto('contactPhones').values(rows).execute();
      return;
    }
    case 'emailAddresses': {
      await trx.deleteFrom('contactEmails').where('contactId', '=', contactId).execute();
      const rows = (c.emailAddresses ?? []).map((x, i) => ({
        ...base(x.id, i),
        emailAddress: x.emailAddress,
        emailType: x.emailType,
        isPrimary: flag(x.isPrimary),
      }));
      if (rows.length > 0) await trx.insertInto('contactEmails').values(rows).execute();
      return;
    }
    case 'addresses': {
      await trx.deleteFrom('contactAddresses').where('contactId', '=', contactId).execute();
      const rows = (c.addresses ?? []).map((x, i) => {
        const { id, isPrimary, ...rest } = x;
        return { ...base(id, i), ...rest, isPrimary: flag(isPrimary) };
      });
      if (rows.length > 0) await trx.insertInto('contactAddresses').values(rows).execute();
      return;
    }
    case 'education': {
      await trx.deleteFrom('contactEducation').where('contactId', '=', contactId).execute();
      const rows = (c.education ?? []).map((x, i) => {
        const { id, ...rest } = x;
        return { ...base(id, i), ...rest };
      });
      if (rows.length > 0) await trx.insertInto('contactEducation').values(rows).execute();
      return;
    }
    case 'employment': {
      await trx.deleteFrom('contactEmployment').where('contactId', '=', contactId).execute();
      const rows = (c.employment ?? []).map((x, i) => {
        const { id, isCurrent, ...rest } = x;
        return { ...base(id, i), ...rest, isCurrent: flag(isCurrent) };
      });
      if (rows.length > 0) await trx.insertInto('contactEmployment').values(rows).execute();
      return;
    }
    case 'notes': {
      await trx.deleteFrom('contactNotes').where('contactId', '=', contactId).execute();
      const rows = (c.notes ?? []).map((x, i) => {
        const { id, ...rest } = x;
        return { ...base(id, i), ...rest };
      });
      if (rows.length > 0) await trx.insertInto('contactNotes').values(rows).execute();
      return;
    }
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The row fields of the scalars, the tags and the primary email and phone that differ. */
function rowPatch(
  here: Contact,
  c: EventContactDetail,
  kept: (field: string) => boolean,
): { patch: Partial<ContactsTable>; fields: string[] } {
  const patch: Partial<Record<keyof ContactsTable, unknown>> = {};
  const fields: string[] = [];
  const scalars = [...CONTACT_SCALAR_FIELDS, 'contactType', 'status'] as const;
  for (const f of scalars) {
    if (f === 'primaryEmail' || f === 'primaryPhone' || c[f] === undefined || kept(f)) continue;
    if (!same(here[f], c[f])) {
      patch[f] = c[f];
      fields.push(f);
    }
  }
  if (c.tags !== undefined && !kept('tags') && !same(here.tags, c.tags)) {
    patch.tags = JSON.stringify(c.tags);
    fields.push('tags');
  }
  const pairs = [
    ['primaryEmail', 'emailAddresses', 'email'],
    ['primaryPhone', 'phoneNumbers', 'phone'],
  ] as const;
  for (const [primary, collection, shown] of pairs) {
    if (c[primary] === undefined || kept(primary) || kept(collection)) continue;
    if (!same(here[primary], c[primary]) || (c[shown] !== undefined && !same(here[shown], c[shown]))) {
      patch[primary] = c[primary];
      if (c[shown] !== undefined) patch[shown] = c[shown];
      fields.push(primary);
    }
  }
  return { patch: patch as Partial<ContactsTable>, fields };
}

/** A sub-record without its id (each end mints its own ids for them). */
function withoutId(rows: readonly object[] | undefined): unknown[] {
  return (rows ?? []).map((r) => {
    const { id: _id, ...rest } = r as { id?: unknown };
    return rest;
  });
}

/** Tags without the sync reference (a `gd:` tag the hub keeps and the typing end does not). */
const plainTags = (tags: readonly string[] | undefined) =>
  (tags ?? []).filter((t) => !/^gd:/i.test(t.trim()));

/** Whether the donor here holds another value of a field than the hub's page. */
function differsFromHub(here: Contact, c: EventContactDetail, field: string): boolean {
  if ((COLLECTIONS as readonly string[]).includes(field)) {
    const key = field as Collection;
    return c[key] !== undefined && !same(withoutId(here[key]), withoutId(c[key]));
  }
  if (field === 'tags') return c.tags !== undefined && !same(plainTags(here.tags), plainTags(c.tags));
  const k = field as keyof Contact;
  return c[k] !== undefined && !same(here[k], c[k]);
}

/** Brings a donor here to the hub's record (see the top); returns the wire names written. */
export async function applyEventContactDetail(
  trx: Db,
  accountId: string,
  localId: string,
  c: EventContactDetail,
  kept: (field: string) => boolean,
  at: string,
): Promise<string[]> {
  const [here] = await readContacts(trx, accountId, [localId]);
  if (!here) return [];
  const { patch, fields } = rowPatch(here, c, kept);
  for (const key of COLLECTIONS) {
    const theirs = c[key];
    if (theirs === undefined || kept(key) || same(here[key], theirs)) continue;
    await writeCollection(trx, localId, key, c);
    fields.push(key);
  }
  // A field kept here whose value is the hub's already (the page was read after the hub took
  // this station's edit, before the push's answer was written down) holds nothing of its own.
  const anyKept = [...CONTACT_SCALAR_FIELDS, 'tags', ...COLLECTIONS, 'firstName', 'lastName'].some(
    (f) => kept(f) && differsFromHub(here, c, f),
  );
  // Nothing of its own kept here: the record is the hub's, its times too.
  if (!anyKept && c.createdAt !== undefined && here.createdAt !== c.createdAt) patch.createdAt = c.createdAt;
  if (fields.length > 0 || patch.createdAt !== undefined)
    patch.updatedAt = !anyKept && c.updatedAt !== undefined ? c.updatedAt : at;
  else if (!anyKept && c.updatedAt !== undefined && here.updatedAt !== c.updatedAt)
    patch.updatedAt = c.updatedAt;
  if (Object.keys(patch).length > 0)
    await trx.updateTable('contacts').set(patch).where('id', '=', localId).execute();
  if (fields.length > 0)
    await logChange(trx, {
      accountId,
      entityType: 'contact',
      entityId: localId,
      op: 'update',
      fields,
      push: false,
      at,
    });
  return fields;
}
