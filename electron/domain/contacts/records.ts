/**
 * A contact's rows: the checks zod cannot see (one primary per collection), tag and blank-field
 * normalisation, the sub-record rows of each collection, and a new contact's rows prepared and
 * inserted. Shared by the API's create and update, the bulk import and the pull from HQ.
 */
import { newId } from '#shared/ids.ts';
import {
  CONTACT_SCALAR_FIELDS,
  type ContactCollection,
  type ContactCreateBody,
  type ContactUpdateBody,
} from '#shared/schemas/contacts.ts';
import { insertObjects } from '../../db/bulk.ts';
import type {
  ContactAddressesTable,
  ContactCustomValuesTable,
  ContactEducationTable,
  ContactEmailsTable,
  ContactEmploymentTable,
  ContactNotesTable,
  ContactPhonesTable,
  ContactsTable,
} from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { type CustomFieldDefinition, checkCustomValues } from './custom-fields.ts';
import { DomainError, type FieldIssue } from '../errors.ts';

type Collections = Pick<ContactUpdateBody, ContactCollection>;

const SUB_TABLE = {
  phoneNumbers: 'contactPhones',
  emailAddresses: 'contactEmails',
  addresses: 'contactAddresses',
  education: 'contactEducation',
  employment: 'contactEmployment',
  notes: 'contactNotes',
} as const;

const COLLECTION_NOUN: Record<ContactCollection, string> = {
  phoneNumbers: 'phone number',
  emailAddresses: 'email address',
  addresses: 'address',
  education: 'education record',
  employment: 'employment record',
  notes: 'note',
};

const b = (v: boolean | undefined): 0 | 1 => (v ? 1 : 0);
const blankToNull = (v: string | null | undefined): string | null =>
  v === undefined || v === null || v === '' ? null : v;

/** Checks the rules zod cannot see: at most one primary per collection. */
export function checkCollections(input: Collections): void {
  const issues: FieldIssue[] = [];
  for (const key of ['phoneNumbers', 'emailAddresses', 'addresses'] as const) {
    const items = input[key];
    if (!items) continue;
    const primaries = items.map((x, i) => (x.isPrimary ? i : -1)).filter((i) => i >= 0);
    if (primaries.length > 1) {
      issues.push({
        field: `${key}[${primaries[1]}].isPrimary`,
        issue: `only one ${COLLECTION_NOUN[key]} can be primary`,
      });
    }
  }
  if (issues.length > 0) {
    const first = issues[0] as FieldIssue;
    throw new DomainError('bad_request', 'validation_failed', `${first.field}: ${first.issue}`, issues);
  }
}

export function normaliseTags(tags: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of tags) {
    const k = t.trim().toLowerCase();
    if (k && !seen.has(k)) {
      seen.add(k);
      out.push(t.trim());
    }
  }
  return out;
}

const subBase = (contactId: string, i: number) => ({ id: newId('subRecord'), contactId, position: i });
type Items<K extends ContactCollection> = NonNullable<Collections[K]>;
const phoneRows = (contactId: string, items: Items<'phoneNumbers'>): ContactPhonesTable[] =>
  items.map((x, i) => ({
    ...subBase(contactId, i),
    phoneNumber: x.phoneNumber,
    phoneType: blankToNull(x.phoneType),
    isPrimary: b(x.isPrimary),
  }));
const emailRows = (contactId: string, items: Items<'emailAddresses'>): ContactEmailsTable[] =>
  items.map((x, i) => ({
    ...subBase(contactId, i),
    emailAddress: x.emailAddress,
    emailType: blankToNull(x.emailType),
    isPrimary: b(x.isPrimary),
  }));
const addressRows = (contactId: string, items: Items<'addresses'>): ContactAddressesTable[] =>
  items.map((x, i) => ({
    ...subBase(contactId, i),
    addressType: blankToNull(x.addressType),
    street1: blankToNull(x.street1),
    street2: blankToNull(x.street2),
    city: blankToNull(x.city),
    state: blankToNull(x.state),
    postalCode: blankToNull(x.postalCode),
    country: blankToNull(x.country),
    isPrimary: b(x.isPrimary),
  }));
const educationRows = (contactId: string, items: Items<'education'>): ContactEducationTable[] =>
  items.map((x, i) => ({
    ...subBase(contactId, i),
    institution: x.institution,
    degree: blankToNull(x.degree),
    fieldOfStudy: blankToNull(x.fieldOfStudy),
    graduationYear: x.graduationYear ?? null,
  }));
const employmentRows = (contactId: string, items: Items<'employment'>): ContactEmploymentTable[] =>
  items.map((x, i) => ({
    ...subBase(contactId, i),
    employer: x.employer,
    title: blankToNull(x.title),
    occupation: blankToNull(x.occupation),
    startDate: blankToNull(x.startDate),
    endDate: blankToNull(x.endDate),
    isCurrent: b(x.isCurrent),
  }));
const noteRows = (contactId: string, items: Items<'notes'>, at: string): ContactNotesTable[] =>
  items.map((x, i) => ({
    ...subBase(contactId, i),
    content: x.content,
    noteType: blankToNull(x.noteType),
    createdAt: at,
  }));

export async function replaceCollection(
  trx: Db,
  contactId: string,
  key: ContactCollection,
  input: Collections,
  at: string,
): Promise<void> {
  const table = SUB_TABLE[key];
  await trx.deleteFrom(table).where('contactId', '=', contactId).execute();
  const items = input[key] ?? [];
  if (items.length === 0) return;
  switch (key) {
    case 'phoneNumbers':
      await trx.insertInto('contactPhones').values(phoneRows(contactId, input.phoneNumbers!)).execute();
      break;
    case 'emailAddresses':
      await trx.insertInto('contactEmails').values(emailRows(contactId, input.emailAddresses!)).execute();
      break;
    case 'addresses':
      await trx.insertInto('contactAddresses').values(addressRows(contactId, input.addresses!)).execute();
      break;
    case 'education':
      await trx.insertInto('contactEducation').values(educationRows(contactId, input.education!)).execute();
      break;
    case 'employment':
      await trx
        .insertInto('contactEmployment')
        .values(employmentRows(contactId, input.employment!))
        .execute();
      break;
    case 'notes':
      await trx
        .insertInto('contactNotes')
        .values(noteRows(contactId, input.notes!, at))
        .execute();
      break;
  }
}

export function scalarPatch(input: ContactUpdateBody): Partial<ContactsTable> {
  const patch: Partial<Record<keyof ContactsTable, unknown>> = {};
  for (const f of CONTACT_SCALAR_FIELDS) {
    if (input[f] !== undefined) patch[f] = blankToNull(input[f]);
  }
  if (input.firstName !== undefined) patch.firstName = input.firstName;
  if (input.lastName !== undefined) patch.lastName = input.lastName;
  if (input.contactType !== undefined) patch.contactType = input.contactType;
  if (input.status !== undefined) patch.status = input.status;
  if (input.tags !== undefined) patch.tags = JSON.stringify(normaliseTags(input.tags));
  return patch as Partial<ContactsTable>;
}

/** A new contact as the rows to insert, before anything is written. */
export interface NewContactRecord {
  row: ContactsTable;
  phones: ContactPhonesTable[];
  emails: ContactEmailsTable[];
  addresses: ContactAddressesTable[];
  education: ContactEducationTable[];
  employment: ContactEmploymentTable[];
  notes: ContactNotesTable[];
  customValues: ContactCustomValuesTable[];
}

/**
 * Checks a create body against the rules zod cannot see (one primary per collection, the
 * account's custom field definitions) and builds its rows. Pure: the API's create and the
 * bulk import both go through it, so they accept and store exactly the same things.
 */
export function prepareContact(
  input: ContactCreateBody,
  defs: readonly CustomFieldDefinition[],
  id: string,
  at: string,
  externalId: string | null = null,
): NewContactRecord {
  checkCollections(input);
  const custom = input.customFields ? checkCustomValues(defs, input.customFields) : [];
  const phones = input.phoneNumbers ? phoneRows(id, input.phoneNumbers) : [];
  const emails = input.emailAddresses ? emailRows(id, input.emailAddresses) : [];
  const row = {
    id,
    accountId: input.accountId,
    contactType: input.contactType ?? 'INDIVIDUAL',
    status: input.status ?? 'ACTIVE',
    firstName: input.firstName,
    lastName: input.lastName,
    prefix: null,
    middleName: null,
    suffix: null,
    salutation: null,
    formalSalutation: null,
    primaryEmail: null,
    primaryPhone: null,
    organization: null,
    title: null,
    employer: null,
    occupation: null,
    industry: null,
    spouse: null,
    birthDate: null,
    gender: null,
    politicalParty: null,
    capacity: null,
    quickNotes: null,
    source: null,
    preferredContactMethod: null,
    tags: '[]',
    ...scalarPatch(input),
    email: null as string | null,
    phone: null as string | null,
    externalId,
    totalCents: 0,
    lastDonationDate: null,
    createdAt: at,
    updatedAt: at,
  } satisfies ContactsTable;
  // The displayed email/phone: the primary field, else the primary sub-record, else the first.
  row.email = row.primaryEmail ?? (emails.find((e) => e.isPrimary === 1) ?? emails[0])?.emailAddress ?? null;
  row.phone = row.primaryPhone ?? (phones.find((p) => p.isPrimary === 1) ?? phones[0])?.phoneNumber ?? null;
  return {
    row,
    phones,
    emails,
    addresses: input.addresses ? addressRows(id, input.addresses) : [],
    education: input.education ? educationRows(id, input.education) : [],
    employment: input.employment ? employmentRows(id, input.employment) : [],
    notes: input.notes ? noteRows(id, input.notes, at) : [],
    customValues: custom.flatMap((w) =>
      w.value === null ? [] : [{ contactId: id, fieldId: w.fieldId, ...w.value }],
    ),
  };
}

/** Inserts prepared contacts with everything attached (no counters, no outbox: the caller's). */
export async function insertContactRecords(trx: Db, records: readonly NewContactRecord[]): Promise<void> {
  await insertObjects(
    trx,
    'contacts',
    records.map((r) => r.row),
  );
  await insertObjects(
    trx,
    'contactPhones',
    records.flatMap((r) => r.phones),
  );
  await insertObjects(
    trx,
    'contactEmails',
    records.flatMap((r) => r.emails),
  );
  await insertObjects(
    trx,
    'contactAddresses',
    records.flatMap((r) => r.addresses),
  );
  await insertObjects(
    trx,
    'contactEducation',
    records.flatMap((r) => r.education),
  );
  await insertObjects(
    trx,
    'contactEmployment',
    records.flatMap((r) => r.employment),
  );
  await insertObjects(
    trx,
    'contactNotes',
    records.flatMap((r) => r.notes),
  );
  await insertObjects(
    trx,
    'contactCustomValues',
    records.flatMap((r) => r.customValues),
  );
}
