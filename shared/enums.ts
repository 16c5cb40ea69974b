/**
 * Enumerations from the donor API spec, and GiftDesk's own where said (the sync engine's codes
 * at the end). Shared by the server, the CLI and the renderer.
 */
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

/**
 * A payment method as people write it, the one wording of every screen, receipt, letter and
 * deposit slip ("ACH", not "Ach"; "PayPal", not "Paypal").
 */
export const PAYMENT_METHOD_LABEL: Record<PaymentMethod, string> = {
  cash: 'Cash',
  check: 'Check',
  credit_card: 'Credit card',
  ach: 'ACH',
  wire: 'Wire',
  paypal: 'PayPal',
  venmo: 'Venmo',
  zelle: 'Zelle',
  cryptocurrency: 'Cryptocurrency',
  in_kind: 'In kind',
  other: 'Other',
};

/** A stored payment method's wording; an unknown one (from a newer HQ) as it is, spaced. */
export function paymentMethodLabel(m: string): string {
  return (PAYMENT_METHOD_LABEL as Record<string, string>)[m] ?? m.replace(/_/g, ' ');
}

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

/**
 * Why the sync engine parked a record for a person (its needs-attention list; the reason says it
 * in words, the Sync settings screen gives each a title):
 * - remote_refused: HQ refused the request (a 4xx that retrying cannot fix); HQ's message kept;
 * - deleted_at_hq: HQ answered an update with 404: the record was deleted there;
 * - confirm_delete: a contact deleted here whose delete would also remove its gifts at HQ;
 * - reference_not_linked: a gift credited to a campaign, committee or donation account not linked
 *   to HQ's (the engine re-checks it on every pass);
 * - not_linked: a record changed here that HQ has, without a link to it (history imported with
 *   --no-push);
 * - possible_duplicate: a gift whose create's outcome was unknown, and HQ has a lookalike of it
 *   that carries no GiftDesk reference;
 * - duplicate_at_hq: a gift found at HQ more than once;
 * - not_completed: a gift not completed here (HQ records only completed gifts);
 * - hq_has_no_donation_update: a gift changed here after it reached HQ (HQ's API cannot change one);
 * - kept_at_hub: at a station, a donor deleted here that the event hub keeps (it has gifts typed at
 *   another station or at the hub): the station gets the donor back from the hub by itself.
 */
export const SYNC_ATTENTION_CODES = [
  'remote_refused',
  'deleted_at_hq',
  'confirm_delete',
  'reference_not_linked',
  'not_linked',
  'possible_duplicate',
  'duplicate_at_hq',
  'not_completed',
  'hq_has_no_donation_update',
  'kept_at_hub',
] as const;
export type SyncAttentionCode = (typeof SYNC_ATTENTION_CODES)[number];

/**
 * A person's retry of a parked record that the engine acts on at its next pass, kept where the
 * code was: delete_confirmed (after confirm_delete: the contact's delete goes to HQ) and
 * create_confirmed (after not_linked: the record is created at HQ).
 */
export const SYNC_CONFIRMATIONS = ['delete_confirmed', 'create_confirmed'] as const;
export type SyncConfirmation = (typeof SYNC_CONFIRMATIONS)[number];
