/**
 * One contact: its row (locked for a write, or read), and the full record with every
 * collection and custom field, as the API answers it.
 */
import { centsToDollars } from '#shared/money.ts';
import type { Contact } from '#shared/schemas/contacts.ts';
import type { Selectable } from 'kysely';
import type {
  ContactAddressesTable,
  ContactEducationTable,
  ContactEmailsTable,
  ContactEmploymentTable,
  ContactNotesTable,
  ContactPhonesTable,
  ContactRow,
} from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import type { DomainContext } from '../context.ts';
import { readCustomValues } from './custom-fields.ts';
import { DomainError } from '../errors.ts';
import {
  addressFromRow,
  educationFromRow,
  emailFromRow,
  employmentFromRow,
  noteFromRow,
  phoneFromRow,
} from '../row-mappers.ts';

export function contactNotFound(id: string): DomainError {
  return new DomainError('not_found', 'contact_not_found', `Contact ${id} was not found`, [
    { field: 'id', issue: 'does not exist in this account' },
  ]);
}

/**
 * Locks a contact's row for the rest of the transaction and says whether it exists in the
 * account. On PostgreSQL a no-op UPDATE takes the row lock, so writes to one contact (its
 * gifts' limit checks, an update racing a delete) happen one after another; on SQLite,
 * writes are serialised already and this costs one cheap statement.
 */
export async function lockContact(trx: Db, accountId: string, id: string): Promise<boolean> {
  const r = await trx
    .updateTable('contacts')
    .set((eb) => ({ totalCents: eb.ref('totalCents') }))
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function getContactRow(db: Db, accountId: string, id: string): Promise<ContactRow | undefined> {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
}

export async function getContact(
  ctx: DomainContext,
  accountId: string,
  id: string,
  db: Db = ctx.store.db,
): Promise<Contact> {
  const [c] = await readContacts(db, accountId, [id]);
  if (!c) throw contactNotFound(id);
  return c;
}

/** Rows of a contact's sub-records, grouped by contact (ordered by position). */
function byContact<R extends { contactId: string }>(rows: R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const r of rows) {
    const list = out.get(r.contactId);
    if (list) list.push(r);
    else out.set(r.contactId, [r]);
  }
  return out;
}

/**
 * Full records of the given contacts in the order asked, those not in the account left out:
 * one query per table for the whole list (the hub's feed reads a page of donors at once).
 */
export async function readContacts(db: Db, accountId: string, ids: readonly string[]): Promise<Contact[]> {
  if (ids.length === 0) return [];
  const list = [...new Set(ids)];
  // By id alone, the account tested on the rows: with the account in the query SQLite walks an
  // index of the account's every contact for each list (a page of the hub's feed was O(n)).
  const rows = (await db.selectFrom('contacts').selectAll().where('id', 'in', list).execute()).filter(
    (r) => r.accountId === accountId,
  );
  if (rows.length === 0) return [];
  const found = rows.map((r) => r.id);
  const [phones, emails, addresses, education, employment, notes, custom] = await Promise.all([
    db
      .selectFrom('contactPhones')
      .selectAll()
      .where('contactId', 'in', found)
      .orderBy('position')
      .execute()
      .then(byContact),
    db
      .selectFrom('contactEmails')
      .selectAll()
      .where('contactId', 'in', found)
      .orderBy('position')
      .execute()
      .then(byContact),
    db
      .selectFrom('contactAddresses')
      .selectAll()
      .where('contactId', 'in', found)
      .orderBy('position')
      .execute()
      .then(byContact),
    db
      .selectFrom('contactEducation')
      .selectAll()
      .where('contactId', 'in', found)
      .orderBy('position')
      .execute()
      .then(byContact),
    db
      .selectFrom('contactEmployment')
      .selectAll()
      .where('contactId', 'in', found)
      .orderBy('position')
      .execute()
      .then(byContact),
    db
      .selectFrom('contactNotes')
      .selectAll()
      .where('contactId', 'in', found)
      .orderBy('position')
      .execute()
      .then(byContact),
    readCustomValues(db, found),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return list.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      contactOf(row, {
        phones: phones.get(id) ?? [],
        emails: emails.get(id) ?? [],
        addresses: addresses.get(id) ?? [],
        education: education.get(id) ?? [],
        employment: employment.get(id) ?? [],
        notes: notes.get(id) ?? [],
        custom: custom.get(id) ?? {},
      }),
    ];
  });
}

interface SubRows {
  phones: Selectable<ContactPhonesTable>[];
  emails: Selectable<ContactEmailsTable>[];
  addresses: Selectable<ContactAddressesTable>[];
  education: Selectable<ContactEducationTable>[];
  employment: Selectable<ContactEmploymentTable>[];
  notes: Selectable<ContactNotesTable>[];
  custom: Contact['customFields'];
}

function contactOf(row: ContactRow, s: SubRows): Contact {
  const { phones, emails, addresses, education, employment, notes } = s;
  const addressList = addresses.map(addressFromRow);
  const total = centsToDollars(Number(row.totalCents));
  return {
    id: row.id,
    contactType: row.contactType,
    status: row.status,
    firstName: row.firstName,
    lastName: row.lastName,
    prefix: row.prefix,
    middleName: row.middleName,
    suffix: row.suffix,
    salutation: row.salutation,
    formalSalutation: row.formalSalutation,
    primaryEmail: row.primaryEmail,
    primaryPhone: row.primaryPhone,
    organization: row.organization,
    title: row.title,
    employer: row.employer,
    occupation: row.occupation,
    industry: row.industry,
    spouse: row.spouse,
    birthDate: row.birthDate,
    gender: row.gender,
    politicalParty: row.politicalParty,
    capacity: row.capacity,
    quickNotes: row.quickNotes,
    source: row.source,
    preferredContactMethod: row.preferredContactMethod,
    tags: JSON.parse(row.tags) as string[],
    phoneNumbers: phones.map(phoneFromRow),
    emailAddresses: emails.map(emailFromRow),
    addresses: addressList,
    education: education.map(educationFromRow),
    employment: employment.map(employmentFromRow),
    notes: notes.map(noteFromRow),
    customFields: s.custom,
    email: row.email,
    phone: row.phone,
    address: addressList.find((a) => a.isPrimary) ?? addressList[0] ?? null,
    totalDonations: total,
    totalDonated: total,
    lastDonationDate: row.lastDonationDate,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
