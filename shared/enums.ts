/** Enumerations from the donor API spec. Shared by the server, the CLI and the renderer. */
export const PAYMENT_METHODS = [
  'cash',
  'check',
  'credit_card',
  'ach',
  'wire',
  'paypal',
  'venmo',
  'zelle',
  'cryptocurrency',
  'in_kind',
  'other',
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const ELECTION_TYPES = [
  'primary',
  'general',
  'runoff',
  'special',
  'convention',
  'recount',
  'other',
] as const;
export type ElectionType = (typeof ELECTION_TYPES)[number];

/** `voided`: GiftDesk's own, for a gift cancelled before it was sent to HQ (it is never sent). */
export const DONATION_STATUSES = ['completed', 'refunded', 'disputed', 'voided'] as const;
export type DonationStatus = (typeof DONATION_STATUSES)[number];

export const CONTACT_TYPES = ['INDIVIDUAL', 'ORGANIZATION', 'HOUSEHOLD'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];

export const CONTACT_STATUSES = ['ACTIVE', 'INACTIVE', 'DO_NOT_CONTACT', 'BOUNCED'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export const GENDERS = ['MALE', 'FEMALE', 'OTHER', 'PREFER_NOT_TO_SAY'] as const;
export type Gender = (typeof GENDERS)[number];

export const CONTACT_METHODS = ['EMAIL', 'PHONE', 'TEXT', 'MAIL'] as const;
export type ContactMethod = (typeof CONTACT_METHODS)[number];

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'picklist'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** The kinds of contribution limit a donation account can carry (D6). */
export const LIMIT_KINDS = ['per_election', 'per_cycle', 'per_year', 'per_donor'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

export const FLAG_STATES = ['open', 'reviewed', 'refunded', 'redesignated'] as const;
export type FlagState = (typeof FLAG_STATES)[number];

export const CONTACT_SORT_FIELDS = ['firstName', 'lastName', 'email', 'createdAt', 'relevance'] as const;
export type ContactSortField = (typeof CONTACT_SORT_FIELDS)[number];
