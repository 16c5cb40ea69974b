import { z } from 'zod';
import { CONTACT_METHODS, CONTACT_SORT_FIELDS, CONTACT_STATUSES, CONTACT_TYPES, GENDERS } from '../enums.ts';
import {
  accountIdField,
  typeError,
  dateOnly,
  emailText,
  optionalText,
  pagingQuery,
  requiredText,
  entryKeyField,
  resentSinceField,
} from './common.ts';

const bool = z.boolean({ error: 'must be true or false' });
const enumOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: typeError(`must be one of: ${values.join(', ')}`) });

/* ---------- sub-records (shapes beyond the spec's phones and emails are GiftDesk's) ---------- */

export const PhoneNumberInput = z.object({
  phoneNumber: requiredText(50),
  phoneType: optionalText(30),
  isPrimary: bool.optional(),
});
export const EmailAddressInput = z.object({
  emailAddress: emailText,
  emailType: optionalText(30),
  isPrimary: bool.optional(),
});
export const AddressInput = z.object({
  addressType: optionalText(30),
  street1: optionalText(200),
  street2: optionalText(200),
  city: optionalText(100),
  state: optionalText(100),
  postalCode: optionalText(20),
  country: optionalText(100),
  isPrimary: bool.optional(),
});
export const EducationInput = z.object({
  institution: requiredText(200),
  degree: optionalText(100),
  fieldOfStudy: optionalText(100),
  graduationYear: z.number().int().min(1900).max(2200).nullish(),
});
export const EmploymentInput = z.object({
  employer: requiredText(200),
  title: optionalText(200),
  occupation: optionalText(200),
  startDate: dateOnly.nullish(),
  endDate: dateOnly.nullish(),
  isCurrent: bool.optional(),
});
export const NoteInput = z.object({
  content: requiredText(10_000),
  noteType: optionalText(30),
});

const withId = <T extends z.ZodRawShape>(shape: T) => z.object({ id: z.string(), ...shape });
export const PhoneNumber = withId({
  phoneNumber: z.string(),
  phoneType: z.string().nullable(),
  isPrimary: z.boolean(),
});
export const EmailAddress = withId({
  emailAddress: z.string(),
  emailType: z.string().nullable(),
  isPrimary: z.boolean(),
});
export const Address = withId({
  addressType: z.string().nullable(),
  street1: z.string().nullable(),
  street2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable(),
  isPrimary: z.boolean(),
}).meta({ id: 'Address' });
export const Education = withId({
  institution: z.string(),
  degree: z.string().nullable(),
  fieldOfStudy: z.string().nullable(),
  graduationYear: z.number().nullable(),
});
export const Employment = withId({
  employer: z.string(),
  title: z.string().nullable(),
  occupation: z.string().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  isCurrent: z.boolean(),
});
export const Note = withId({
  content: z.string(),
  noteType: z.string().nullable(),
  createdAt: z.string(),
});

const maxItems = (n: number) => ({ error: `must have at most ${n} items` });

/** Custom field values keyed by field name (case-insensitive); "" or null clears. */
export const CustomFieldValuesInput = z.record(
  z.string().max(100),
  z.union([z.string().max(10_000), z.number(), z.null()], {
    error: 'must be a string, a number or null',
  }),
);
export type CustomFieldValuesInput = z.infer<typeof CustomFieldValuesInput>;
export const CustomFieldValues = z.record(z.string(), z.union([z.string(), z.number()]));

/** Everything about a contact a caller may write, all optional (the PUT body, C1). */
const profileShape = {
  firstName: requiredText(100),
  lastName: requiredText(100),
  contactType: enumOf(CONTACT_TYPES),
  status: enumOf(CONTACT_STATUSES),
  prefix: optionalText(30),
  middleName: optionalText(100),
  suffix: optionalText(30),
  salutation: optionalText(200),
  formalSalutation: optionalText(200),
  primaryEmail: emailText.or(z.literal('')).nullish(),
  primaryPhone: optionalText(50),
  organization: optionalText(200),
  title: optionalText(200),
  employer: optionalText(200),
  occupation: optionalText(200),
  industry: optionalText(200),
  spouse: optionalText(200),
  birthDate: dateOnly.or(z.literal('')).nullish(),
  gender: enumOf(GENDERS).nullish(),
  politicalParty: optionalText(100),
  capacity: optionalText(100),
  quickNotes: optionalText(10_000),
  source: optionalText(200),
  preferredContactMethod: enumOf(CONTACT_METHODS).nullish(),
  tags: z.array(requiredText(100), { error: 'must be an array of strings' }).max(200, maxItems(200)),
  phoneNumbers: z.array(PhoneNumberInput, { error: 'must be an array' }).max(50, maxItems(50)),
  emailAddresses: z.array(EmailAddressInput, { error: 'must be an array' }).max(50, maxItems(50)),
  addresses: z.array(AddressInput, { error: 'must be an array' }).max(50, maxItems(50)),
  education: z.array(EducationInput, { error: 'must be an array' }).max(50, maxItems(50)),
  employment: z.array(EmploymentInput, { error: 'must be an array' }).max(50, maxItems(50)),
  notes: z.array(NoteInput, { error: 'must be an array' }).max(500, maxItems(500)),
  customFields: CustomFieldValuesInput,
};

/** The scalar profile fields (everything but names, enums-with-defaults and collections). */
export const CONTACT_SCALAR_FIELDS = [
  'prefix',
  'middleName',
  'suffix',
  'salutation',
  'formalSalutation',
  'primaryEmail',
  'primaryPhone',
  'organization',
  'title',
  'employer',
  'occupation',
  'industry',
  'spouse',
  'birthDate',
  'gender',
  'politicalParty',
  'capacity',
  'quickNotes',
  'source',
  'preferredContactMethod',
] as const;
export type ContactScalarField = (typeof CONTACT_SCALAR_FIELDS)[number];
export const CONTACT_COLLECTIONS = [
  'phoneNumbers',
  'emailAddresses',
  'addresses',
  'education',
  'employment',
  'notes',
] as const;
export type ContactCollection = (typeof CONTACT_COLLECTIONS)[number];

export const ContactUpdateBody = z
  .object({ accountId: accountIdField.optional(), ...profileShape })
  .partial()
  .meta({ id: 'ContactUpdate' });
export type ContactUpdateBody = z.infer<typeof ContactUpdateBody>;

export const ContactCreateBody = ContactUpdateBody.required({
  accountId: true,
  firstName: true,
  lastName: true,
}).meta({ id: 'ContactCreate' });
export type ContactCreateBody = z.infer<typeof ContactCreateBody>;

/* ---------- responses ---------- */

const nullableText = z.string().nullable();
const profileOut = {
  id: z.string(),
  contactType: z.enum(CONTACT_TYPES),
  status: z.enum(CONTACT_STATUSES),
  firstName: z.string(),
  lastName: z.string(),
  prefix: nullableText,
  middleName: nullableText,
  suffix: nullableText,
  salutation: nullableText,
  formalSalutation: nullableText,
  primaryEmail: nullableText,
  primaryPhone: nullableText,
  organization: nullableText,
  title: nullableText,
  employer: nullableText,
  occupation: nullableText,
  industry: nullableText,
  spouse: nullableText,
  birthDate: nullableText,
  gender: z.enum(GENDERS).nullable(),
  politicalParty: nullableText,
  capacity: nullableText,
  quickNotes: nullableText,
  source: nullableText,
  preferredContactMethod: z.enum(CONTACT_METHODS).nullable(),
  tags: z.array(z.string()),
  phoneNumbers: z.array(PhoneNumber),
  emailAddresses: z.array(EmailAddress),
  addresses: z.array(Address),
  education: z.array(Education),
  employment: z.array(Employment),
  notes: z.array(Note),
  customFields: CustomFieldValues,
  email: nullableText,
  phone: nullableText,
  address: Address.nullable(),
  lastDonationDate: nullableText,
  createdAt: z.string(),
  updatedAt: z.string(),
};

/** GET and PUT answer this (read shape, `totalDonations`); POST adds `totalDonated`. */
export const Contact = z
  .object({ ...profileOut, totalDonations: z.number(), totalDonated: z.number() })
  .meta({ id: 'Contact' });
export type Contact = z.infer<typeof Contact>;

export const ContactListItem = z
  .object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: nullableText,
    phone: nullableText,
    organization: nullableText,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ContactListItem' });
export type ContactListItem = z.infer<typeof ContactListItem>;

export const ContactListQuery = z.object({
  accountId: accountIdField,
  search: z.string().max(200, { error: 'must be at most 200 characters' }).optional(),
  sortBy: enumOf(CONTACT_SORT_FIELDS).optional(),
  sortOrder: enumOf(['asc', 'desc'] as const).optional(),
  ...pagingQuery,
});
export type ContactListQuery = z.infer<typeof ContactListQuery>;

/**
 * POST /v1/contacts as GiftDesk takes it: the spec's body plus `resentSince` (a station's
 * create to its hub of a record sent before to a lost hub) and `entryKey` (the key of a
 * window's try; common.ts).
 */
export const ContactCreateRequest = ContactCreateBody.extend({
  resentSince: resentSinceField,
  entryKey: entryKeyField,
});

/** The donor API's own sort fields (a spec-only server: no `relevance`, GiftDesk's extension). */
export const SPEC_CONTACT_SORT_FIELDS = ['firstName', 'lastName', 'email', 'createdAt'] as const;
/** GET /contacts as the donor API documents it (`giftdesk serve --spec-only`). */
export const SpecContactListQuery = ContactListQuery.extend({
  sortBy: enumOf(SPEC_CONTACT_SORT_FIELDS).optional(),
});

export const ContactList = z.object({
  data: z.array(ContactListItem),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type ContactList = z.infer<typeof ContactList>;

export const ContactDeleted = z.object({ message: z.string() });
