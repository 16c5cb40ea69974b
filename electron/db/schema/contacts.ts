/**
 * The tables of contacts: the contact, its sub-records (phones, emails, addresses,
 * education, employment, notes) and its custom fields' definitions and values. Part of the
 * one description of the tables (../schema.ts); camelCase here, snake_case in the database.
 */
import type { ContactMethod, ContactStatus, ContactType, CustomFieldType, Gender } from '#shared/enums.ts';
import type { Flag01 } from './columns.ts';

export interface ContactsTable {
  id: string;
  accountId: string;
  contactType: ContactType;
  status: ContactStatus;
  firstName: string;
  lastName: string;
  prefix: string | null;
  middleName: string | null;
  suffix: string | null;
  salutation: string | null;
  formalSalutation: string | null;
  primaryEmail: string | null;
  primaryPhone: string | null;
  organization: string | null;
  title: string | null;
  employer: string | null;
  occupation: string | null;
  industry: string | null;
  spouse: string | null;
  birthDate: string | null;
  gender: Gender | null;
  politicalParty: string | null;
  capacity: string | null;
  quickNotes: string | null;
  source: string | null;
  preferredContactMethod: ContactMethod | null;
  /** JSON array of strings. */
  tags: string;
  /** The email shown in lists and searched: primaryEmail, else the primary email sub-record. */
  email: string | null;
  /** The phone shown in lists: primaryPhone, else the primary phone sub-record. */
  phone: string | null;
  /** Reference from a bulk import, so a re-run adds nothing twice. */
  externalId: string | null;
  /** Sum of completed donations, cents. */
  totalCents: number;
  lastDonationDate: string | null;
  createdAt: string;
  updatedAt: string;
}

interface SubRecord {
  id: string;
  contactId: string;
  position: number;
}

export interface ContactPhonesTable extends SubRecord {
  phoneNumber: string;
  phoneType: string | null;
  isPrimary: Flag01;
}

export interface ContactEmailsTable extends SubRecord {
  emailAddress: string;
  emailType: string | null;
  isPrimary: Flag01;
}

export interface ContactAddressesTable extends SubRecord {
  addressType: string | null;
  street1: string | null;
  street2: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
  isPrimary: Flag01;
}

export interface ContactEducationTable extends SubRecord {
  institution: string;
  degree: string | null;
  fieldOfStudy: string | null;
  graduationYear: number | null;
}

export interface ContactEmploymentTable extends SubRecord {
  employer: string;
  title: string | null;
  occupation: string | null;
  startDate: string | null;
  endDate: string | null;
  isCurrent: Flag01;
}

export interface ContactNotesTable extends SubRecord {
  content: string;
  noteType: string | null;
  createdAt: string;
}

export interface CustomFieldsTable {
  id: string;
  accountId: string;
  name: string;
  /** lower-case name: field names are unique per account, case-insensitively. */
  nameKey: string;
  fieldType: CustomFieldType;
  position: number;
  archivedAt: string | null;
  createdAt: string;
}

export interface CustomFieldOptionsTable {
  id: string;
  fieldId: string;
  name: string;
  position: number;
  retiredAt: string | null;
}

export interface ContactCustomValuesTable {
  contactId: string;
  fieldId: string;
  valueText: string | null;
  valueNumber: number | null;
  optionId: string | null;
}
