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
import { insertObjects } from '../../db/bulk.ts';
import type { Db } from '../../db/store.ts';
import { changeLogRow, logChange } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import { insertContactRecords, type NewContactRecord, prepareContact } from '../contacts/records.ts';
import { readContacts } from '../contacts/read.ts';
import type { PulledContactFields } from './contacts.ts';
import { eventCustomFields, newEventCustomRows } from './event-custom.ts';

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

/** The hub's rows of one collection (the hub's ids and order). */
function collectionRows(contactId: string, c: EventContactDetail) {
  const base = (id: string, position: number) => ({ id, contactId, position });
  return {
    phoneNumbers: (c.phoneNumbers ?? []).map((x, i) => ({
      ...base(x.id, i),
      phoneNumber: x.phoneNumber,
      phoneType: x.phoneType,
      isPrimary: flag(x.isPrimary),
    })),
    emailAddresses: (c.emailAddresses ?? []).map((x, i) => ({
      ...base(x.id, i),
      emailAddress: x.emailAddress,
      emailType: x.emailType,
      isPrimary: flag(x.isPrimary),
    })),
    addresses: (c.addresses ?? []).map((x, i) => {
      const { id, isPrimary, ...rest } = x;
      return { ...base(id, i), ...rest, isPrimary: flag(isPrimary) };
    }),
    education: (c.education ?? []).map((x, i) => {
      const { id, ...rest } = x;
      return { ...base(id, i), ...rest };
    }),
    employment: (c.employment ?? []).map((x, i) => {
      const { id, isCurrent, ...rest } = x;
      return { ...base(id, i), ...rest, isCurrent: flag(isCurrent) };
    }),
    notes: (c.notes ?? []).map((x, i) => {
      const { id, ...rest } = x;
      return { ...base(id, i), ...rest };
    }),
  };
}

/** Replaces one collection with the hub's rows (the hub's ids and order). */
async function writeCollection(trx: Db, contactId: string, key: Collection, c: EventContactDetail) {
  const rows = collectionRows(contactId, { id: c.id, [key]: c[key] });
  switch (key) {
    case 'phoneNumbers':
      await trx.deleteFrom('contactPhones').where('contactId', '=', contactId).execute();
      if (rows.phoneNumbers.length > 0)
        await trx.insertInto('contactPhones').values(rows.phoneNumbers).execute();
      return;
    case 'emailAddresses':
      await trx.deleteFrom('contactEmails').where('contactId', '=', contactId).execute();
      if (rows.emailAddresses.length > 0)
        await trx.insertInto('contactEmails').values(rows.emailAddresses).execute();
      return;
    case 'addresses':
      await trx.deleteFrom('contactAddresses').where('contactId', '=', contactId).execute();
      if (rows.addresses.length > 0)
        await trx.insertInto('contactAddresses').values(rows.addresses).execute();
      return;
    case 'education':
      await trx.deleteFrom('contactEducation').where('contactId', '=', contactId).execute();
      if (rows.education.length > 0)
        await trx.insertInto('contactEducation').values(rows.education).execute();
      return;
    case 'employment':
      await trx.deleteFrom('contactEmployment').where('contactId', '=', contactId).execute();
      if (rows.employment.length > 0)
        await trx.insertInto('contactEmployment').values(rows.employment).execute();
      return;
    case 'notes':
      await trx.deleteFrom('contactNotes').where('contactId', '=', contactId).execute();
      if (rows.notes.length > 0) await trx.insertInto('contactNotes').values(rows.notes).execute();
      return;
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

/** A donor of the feed that is not here, with its five directory fields checked (pulledContactFields). */
export interface NewEventContact {
  c: EventContactDetail & { customFields?: Record<string, string | number> | undefined };
  fields: PulledContactFields;
}

/**
 * Donors of the hub not here at all (a station catching up with its hub: a page of them), each
 * under its id (the hub's), written as the one-by-one path leaves a new donor — its five fields
 * as insertPulledContact writes them, then every field, tag, sub-record (the hub's ids and
 * order), custom value and time of the hub's record as applyEventCustomValues and
 * applyEventContactDetail bring them — with a statement per table instead of some twenty per
 * donor. The account's count of donors moves with them; each is logged once, as created
 * (push = 0). The caller vouches that none of them is here or linked yet.
 */
export async function insertEventContacts(
  trx: Db,
  accountId: string,
  donors: readonly NewEventContact[],
  at: string,
): Promise<void> {
  if (donors.length === 0) return;
  const defs = await eventCustomFields(trx, accountId);
  const records: NewContactRecord[] = donors.map(({ c, fields: f }) => {
    const record = prepareContact(
      {
        accountId,
        firstName: f.firstName,
        lastName: f.lastName,
        primaryEmail: f.email,
        primaryPhone: f.phone,
        organization: f.organization,
      },
      [],
      c.id,
      at,
    );
    const scalars: Partial<Record<keyof ContactsTable, unknown>> = {};
    for (const k of [...CONTACT_SCALAR_FIELDS, 'contactType', 'status'] as const)
      if (k !== 'primaryEmail' && k !== 'primaryPhone' && c[k] !== undefined) scalars[k] = c[k];
    Object.assign(record.row, scalars as Partial<ContactsTable>);
    if (c.tags !== undefined) record.row.tags = JSON.stringify(c.tags);
    if (c.primaryEmail !== undefined) {
      record.row.primaryEmail = c.primaryEmail;
      if (c.email !== undefined) record.row.email = c.email;
    }
    if (c.primaryPhone !== undefined) {
      record.row.primaryPhone = c.primaryPhone;
      if (c.phone !== undefined) record.row.phone = c.phone;
    }
    if (c.createdAt !== undefined) record.row.createdAt = c.createdAt;
    if (c.updatedAt !== undefined) record.row.updatedAt = c.updatedAt;
    const sub = collectionRows(c.id, c);
    return {
      ...record,
      phones: sub.phoneNumbers,
      emails: sub.emailAddresses,
      addresses: sub.addresses,
      education: sub.education,
      employment: sub.employment,
      notes: sub.notes,
      customValues: c.customFields ? newEventCustomRows(defs, c.id, c.customFields) : [],
    };
  });
  await insertContactRecords(trx, records);
  await bumpCounters(trx, accountId, { contacts: records.length });
  await insertObjects(
    trx,
    'changeLog',
    records.map((r) =>
      changeLogRow({
        accountId,
        entityType: 'contact',
        entityId: r.row.id,
        op: 'create',
        fields: null,
        push: false,
        at,
      }),
    ),
  );
}
