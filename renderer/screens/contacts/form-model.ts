/**
 * The contact form's values and their translation to and from the API: what the form holds
 * (strings, as inputs give them), the create body (only what was filled in) and the update
 * body (only what changed: C1, whole collections for C3, single custom fields for C4). How
 * an error finds its form control is in form-issues.ts. Pure: no React, no DOM.
 */
import { tagsForPeople, tagsKeepingReferences } from '#shared/sync-reference.ts';
import type { z } from 'zod';
import type { CONTACT_METHODS, ContactStatus, ContactType, CustomFieldType, GENDERS } from '#shared/enums.ts';
import type { Contact, ContactCreateBody, ContactUpdateBody } from '#shared/schemas/contacts.ts';

type Gender = (typeof GENDERS)[number];
type ContactMethod = (typeof CONTACT_METHODS)[number];

export interface CustomFieldDef {
  id: string;
  name: string;
  type: CustomFieldType;
  archived: boolean;
  options: ReadonlyArray<{ id: string; name: string; retired: boolean }>;
}

export interface PhoneValues {
  phoneNumber: string;
  phoneType: string;
  isPrimary: boolean;
}
export interface EmailValues {
  emailAddress: string;
  emailType: string;
  isPrimary: boolean;
}
export interface AddressValues {
  addressType: string;
  street1: string;
  street2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  isPrimary: boolean;
}
export interface EducationValues {
  institution: string;
  degree: string;
  fieldOfStudy: string;
  graduationYear: string;
}
export interface EmploymentValues {
  employer: string;
  title: string;
  occupation: string;
  startDate: string;
  endDate: string;
  isCurrent: boolean;
}
export interface NoteValues {
  content: string;
  noteType: string;
}

export const TEXT_FIELDS = [
  'prefix',
  'firstName',
  'middleName',
  'lastName',
  'suffix',
  'primaryEmail',
  'primaryPhone',
  'organization',
  'title',
  'employer',
  'occupation',
  'industry',
  'spouse',
  'birthDate',
  'salutation',
  'formalSalutation',
  'politicalParty',
  'capacity',
  'source',
  'quickNotes',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export type ContactFormValues = Record<TextField, string> & {
  contactType: ContactType;
  status: ContactStatus;
  gender: Gender | '';
  preferredContactMethod: ContactMethod | '';
  tags: string[];
  phoneNumbers: PhoneValues[];
  emailAddresses: EmailValues[];
  addresses: AddressValues[];
  education: EducationValues[];
  employment: EmploymentValues[];
  notes: NoteValues[];
  /** Custom field values as typed, keyed by the field's id (names may hold dots). */
  custom: Record<string, string>;
};

export const COLLECTIONS = [
  'phoneNumbers',
  'emailAddresses',
  'addresses',
  'education',
  'employment',
  'notes',
] as const;
export type Collection = (typeof COLLECTIONS)[number];

export const EMPTY_ITEM = {
  phoneNumbers: (): PhoneValues => ({ phoneNumber: '', phoneType: '', isPrimary: false }),
  emailAddresses: (): EmailValues => ({ emailAddress: '', emailType: '', isPrimary: false }),
  addresses: (): AddressValues => ({
    addressType: '',
    street1: '',
    street2: '',
    city: '',
    state: '',
    postalCode: '',
    country: '',
    isPrimary: false,
  }),
  education: (): EducationValues => ({ institution: '', degree: '', fieldOfStudy: '', graduationYear: '' }),
  employment: (): EmploymentValues => ({
    employer: '',
    title: '',
    occupation: '',
    startDate: '',
    endDate: '',
    isCurrent: false,
  }),
  notes: (): NoteValues => ({ content: '', noteType: '' }),
} satisfies { [K in Collection]: () => ContactFormValues[K][number] };

const s = (v: string | number | null | undefined): string => (v === null || v === undefined ? '' : String(v));

/** Fields visible in the app: archived ones are neither shown nor sent. */
export function liveFields(defs: readonly CustomFieldDef[]): CustomFieldDef[] {
  return defs.filter((d) => !d.archived);
}

export function emptyValues(defs: readonly CustomFieldDef[]): ContactFormValues {
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, ''])) as Record<TextField, string>;
  return {
    ...text,
    contactType: 'INDIVIDUAL',
    status: 'ACTIVE',
    gender: '',
    preferredContactMethod: '',
    tags: [],
    phoneNumbers: [],
    emailAddresses: [],
    addresses: [],
    education: [],
    employment: [],
    notes: [],
    custom: Object.fromEntries(liveFields(defs).map((d) => [d.id, ''])),
  };
}

/** The form's values for an existing contact. */
export function valuesFromContact(c: Contact, defs: readonly CustomFieldDef[]): ContactFormValues {
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, s(c[f])])) as Record<TextField, string>;
  const byName = new Map(Object.entries(c.customFields).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    ...text,
    contactType: c.contactType,
    status: c.status,
    gender: c.gender ?? '',
    preferredContactMethod: c.preferredContactMethod ?? '',
    tags: tagsForPeople(c.tags), // the sync's reference tags are not shown; kept on save
    phoneNumbers: c.phoneNumbers.map((p) => ({
      phoneNumber: p.phoneNumber,
      phoneType: s(p.phoneType),
      isPrimary: p.isPrimary,
    })),
    emailAddresses: c.emailAddresses.map((e) => ({
      emailAddress: e.emailAddress,
      emailType: s(e.emailType),
      isPrimary: e.isPrimary,
    })),
    addresses: c.addresses.map((a) => ({
      addressType: s(a.addressType),
      street1: s(a.street1),
      street2: s(a.street2),
      city: s(a.city),
      state: s(a.state),
      postalCode: s(a.postalCode),
      country: s(a.country),
      isPrimary: a.isPrimary,
    })),
    education: c.education.map((e) => ({
      institution: e.institution,
      degree: s(e.degree),
      fieldOfStudy: s(e.fieldOfStudy),
      graduationYear: s(e.graduationYear),
    })),
    employment: c.employment.map((e) => ({
      employer: e.employer,
      title: s(e.title),
      occupation: s(e.occupation),
      startDate: s(e.startDate),
      endDate: s(e.endDate),
      isCurrent: e.isCurrent,
    })),
    notes: c.notes.map((n) => ({ content: n.content, noteType: s(n.noteType) })),
    custom: Object.fromEntries(liveFields(defs).map((d) => [d.id, s(byName.get(d.name.toLowerCase()))])),
  };
}

/** The create and update bodies as the form builds them (the account is added when sent). */
export type CreateInput = Omit<z.input<typeof ContactCreateBody>, 'accountId'>;
export type UpdateInput = Omit<z.input<typeof ContactUpdateBody>, 'accountId'>;

/** "" → null (clears on update); anything else trimmed by the schema. */
const orNull = (v: string): string | null => (v.trim() === '' ? null : v);

/** A number typed in a box: "" → null, "12.5" → 12.5; text that is no number stays text so the checks say so. */
function numberOrText(v: string): number | string | null {
  if (v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
}

function collectionBody<K extends Collection>(key: K, items: ContactFormValues[K]) {
  switch (key) {
    case 'phoneNumbers':
      return (items as PhoneValues[]).map((p) => ({
        phoneNumber: p.phoneNumber,
        phoneType: orNull(p.phoneType),
        isPrimary: p.isPrimary,
      }));
    case 'emailAddresses':
      return (items as EmailValues[]).map((e) => ({
        emailAddress: e.emailAddress.trim(),
        emailType: orNull(e.emailType),
        isPrimary: e.isPrimary,
      }));
    case 'addresses':
      return (items as AddressValues[]).map((a) => ({
        addressType: orNull(a.addressType),
        street1: orNull(a.street1),
        street2: orNull(a.street2),
        city: orNull(a.city),
        state: orNull(a.state),
        postalCode: orNull(a.postalCode),
        country: orNull(a.country),
        isPrimary: a.isPrimary,
      }));
    case 'education':
      return (items as EducationValues[]).map((e) => ({
        institution: e.institution,
        degree: orNull(e.degree),
        fieldOfStudy: orNull(e.fieldOfStudy),
        graduationYear: numberOrText(e.graduationYear),
      }));
    case 'employment':
      return (items as EmploymentValues[]).map((e) => ({
        employer: e.employer,
        title: orNull(e.title),
        occupation: orNull(e.occupation),
        startDate: orNull(e.startDate),
        endDate: orNull(e.endDate),
        isCurrent: e.isCurrent,
      }));
    case 'notes':
      return (items as NoteValues[]).map((n) => ({ content: n.content, noteType: orNull(n.noteType) }));
  }
  throw new Error(`unknown collection ${String(key)}`);
}

function customValue(def: CustomFieldDef, raw: string): string | number | null {
  if (raw.trim() === '') return null;
  return def.type === 'number' ? numberOrText(raw) : raw;
}

/** POST body: every field filled in (empty ones left out), every collection item, every custom value set. */
export function createBody(v: ContactFormValues, defs: readonly CustomFieldDef[]): CreateInput {
  const body: Record<string, unknown> = { contactType: v.contactType, status: v.status };
  for (const f of TEXT_FIELDS)
    if (v[f].trim() !== '' || f === 'firstName' || f === 'lastName') body[f] = v[f];
  if (v.gender) body.gender = v.gender;
  if (v.preferredContactMethod) body.preferredContactMethod = v.preferredContactMethod;
  if (v.tags.length > 0) body.tags = v.tags;
  for (const key of COLLECTIONS) if (v[key].length > 0) body[key] = collectionBody(key, v[key]);
  const custom: Record<string, string | number | null> = {};
  for (const def of liveFields(defs)) {
    const value = customValue(def, v.custom[def.id] ?? '');
    if (value !== null) custom[def.name] = value;
  }
  if (Object.keys(custom).length > 0) body.customFields = custom;
  return body as CreateInput;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** PUT body: only what differs from `initial` (C1); a changed collection whole (C3); changed custom fields only (C4). */
export function updateBody(
  v: ContactFormValues,
  initial: ContactFormValues,
  defs: readonly CustomFieldDef[],
  /** The contact's tags as stored: the sync's reference tags among them go back with an edit. */
  storedTags: readonly string[] = [],
): UpdateInput {
  const body: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) {
    if (v[f] === initial[f]) continue;
    body[f] = f === 'firstName' || f === 'lastName' ? v[f] : orNull(v[f]);
  }
  if (v.contactType !== initial.contactType) body.contactType = v.contactType;
  if (v.status !== initial.status) body.status = v.status;
  if (v.gender !== initial.gender) body.gender = v.gender || null;
  if (v.preferredContactMethod !== initial.preferredContactMethod)
    body.preferredContactMethod = v.preferredContactMethod || null;
  if (!same(v.tags, initial.tags)) body.tags = tagsKeepingReferences(storedTags, v.tags);
  for (const key of COLLECTIONS) if (!same(v[key], initial[key])) body[key] = collectionBody(key, v[key]);
  const custom: Record<string, string | number | null> = {};
  for (const def of liveFields(defs)) {
    const now = v.custom[def.id] ?? '';
    if (now === (initial.custom[def.id] ?? '')) continue;
    custom[def.name] = customValue(def, now);
  }
  if (Object.keys(custom).length > 0) body.customFields = custom;
  return body as UpdateInput;
}

/** The display name of a contact, as lists and headings show it. */
export function displayName(c: {
  firstName: string;
  lastName: string;
  prefix?: string | null;
  suffix?: string | null;
}): string {
  return [c.firstName, c.lastName].filter((x) => x.trim() !== '').join(' ');
}
