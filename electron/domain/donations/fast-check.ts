/**
 * A cheaper equivalent of `DonationCreateBody.safeParse` for the bulk import's common case:
 * it answers the parsed body only when every field is certainly valid, exactly as zod would
 * parse it (strings trimmed where the schema trims), and `undefined` otherwise — the import
 * then asks zod, so a bad row gets zod's reason word for word. Never more permissive than
 * the schema: test/unit/donation-fast-check.test.ts compares the two on random bodies.
 */
import { toStoredInstant } from '#shared/dates.ts';
import { ELECTION_TYPES, PAYMENT_METHODS } from '#shared/enums.ts';
import { MAX_DOLLARS, dollarsToCents } from '#shared/money.ts';
import type { DonationCreateBody } from '#shared/schemas/donations.ts';

const PAYMENT = new Set<string>(PAYMENT_METHODS);
const ELECTION = new Set<string>(ELECTION_TYPES);

/** trimmed, non-empty, at most 64 characters (accountId, contactId) */
function requiredId(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t.length >= 1 && t.length <= 64 ? t : undefined;
}

const FAIL = Symbol('fail');
type Fail = typeof FAIL;

/** refId: absent, null, or a trimmed string of at most 64 characters */
function optionalRef(v: unknown): string | null | undefined | Fail {
  if (v === undefined || v === null) return v;
  if (typeof v !== 'string') return FAIL;
  const t = v.trim();
  return t.length <= 64 ? t : FAIL;
}

function optionalDate(v: unknown): string | null | undefined | Fail {
  if (v === undefined || v === null) return v;
  return typeof v === 'string' && toStoredInstant(v) !== null ? v : FAIL;
}

function optionalBool(v: unknown): boolean | undefined | Fail {
  return v === undefined || typeof v === 'boolean' ? v : FAIL;
}

const KNOWN = new Set([
  'accountId',
  'contactId',
  'donationAmount',
  'donationDate',
  'paymentMethod',
  'campaignId',
  'committeeId',
  'donationAccountId',
  'electionType',
  'electionYear',
  'notes',
  'onBehalfOfContactId',
  'facilitatedByContactId',
  'isAnonymous',
  'isRecurring',
  'thankYouSent',
  'thankYouSentDate',
]);

export function fastDonationBody(body: Record<string, unknown>): DonationCreateBody | undefined {
  for (const k in body) if (!KNOWN.has(k)) return undefined;
  const accountId = requiredId(body.accountId);
  const contactId = requiredId(body.contactId);
  if (accountId === undefined || contactId === undefined) return undefined;
  const amount = body.donationAmount;
  if (
    typeof amount !== 'number' ||
    !(amount > 0) ||
    !(amount <= MAX_DOLLARS) ||
    dollarsToCents(amount) === null
  )
    return undefined;
  const date = body.donationDate;
  if (typeof date !== 'string' || toStoredInstant(date) === null) return undefined;
  const method = body.paymentMethod;
  if (typeof method !== 'string' || !PAYMENT.has(method)) return undefined;

  const out: Record<string, unknown> = {
    accountId,
    contactId,
    donationAmount: amount,
    donationDate: date,
    paymentMethod: method,
  };
  for (const k of [
    'campaignId',
    'committeeId',
    'donationAccountId',
    'onBehalfOfContactId',
    'facilitatedByContactId',
  ] as const) {
    const v = optionalRef(body[k]);
    if (v === FAIL) return undefined;
    if (v !== undefined) out[k] = v;
  }
  const type = body.electionType;
  if (type !== undefined && type !== null && (typeof type !== 'string' || !ELECTION.has(type)))
    return undefined;
  if (type !== undefined) out.electionType = type;
  const year = body.electionYear;
  if (
    year !== undefined &&
    year !== null &&
    (typeof year !== 'number' || !Number.isInteger(year) || year < 1900 || year > 2200)
  )
    return undefined;
  if (year !== undefined) out.electionYear = year;
  const notes = body.notes;
  if (notes !== undefined && notes !== null && (typeof notes !== 'string' || notes.length > 10_000))
    return undefined;
  if (notes !== undefined) out.notes = notes;
  for (const k of ['isAnonymous', 'isRecurring', 'thankYouSent'] as const) {
    const v = optionalBool(body[k]);
    if (v === FAIL) return undefined;
    if (v !== undefined) out[k] = v;
  }
  const thanked = optionalDate(body.thankYouSentDate);
  if (thanked === FAIL) return undefined;
  if (thanked !== undefined) out.thankYouSentDate = thanked;
  return out as DonationCreateBody;
}
