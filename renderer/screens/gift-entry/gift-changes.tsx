/**
 * What happened to a saved gift after it was saved, one line per correction or void, from its
 * history (`changes` on the gift): "Voided at the hub", "Corrected at the hub: amount $500.00 →
 * $50.00". At a station this is how the person who typed a gift learns that the hub changed it.
 */
import { formatDollars } from '#shared/money.ts';
import type { DonationChange, DonationDetail } from '#shared/schemas/donations.ts';
import { METHOD_LABEL } from './reference.ts';

type Value = DonationChange['changes'][number]['before'];

const FIELD_LABEL: Record<string, string> = {
  donationAmount: 'amount',
  donationDate: 'date',
  paymentMethod: 'method',
  contactId: 'donor',
  campaignId: 'campaign',
  committeeId: 'committee',
  donationAccountId: 'donation account',
  electionType: 'election',
  electionYear: 'election year',
  onBehalfOfContactId: 'credited to',
  facilitatedByContactId: 'raised by',
  isAnonymous: 'anonymous',
  isRecurring: 'recurring',
  thankYouSent: 'thanked',
  thankYouSentDate: 'thanked on',
  notes: 'notes',
  firstName: 'first name',
  lastName: 'last name',
  primaryEmail: 'email',
  primaryPhone: 'phone',
};

/** Fields whose values are ids: the line says that they changed, not the ids. */
const ID_FIELDS = new Set([
  'contactId',
  'campaignId',
  'committeeId',
  'donationAccountId',
  'onBehalfOfContactId',
  'facilitatedByContactId',
]);

function shown(field: string, v: Value): string {
  if (v === null || v === '') return 'none';
  if (field === 'donationAmount' && typeof v === 'number') return formatDollars(v);
  if (field === 'paymentMethod' && typeof v === 'string')
    return METHOD_LABEL[v as keyof typeof METHOD_LABEL] ?? v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}

/** One field's change in words: "amount $500.00 → $50.00", or "donor changed" for an id. */
export function fieldChange(x: DonationChange['changes'][number]): string {
  return ID_FIELDS.has(x.field)
    ? `${FIELD_LABEL[x.field] ?? x.field} changed`
    : `${FIELD_LABEL[x.field] ?? x.field} ${shown(x.field, x.before)} → ${shown(x.field, x.after)}`;
}

/** One change in words, e.g. "Corrected at the hub: amount $500.00 → $50.00". */
export function changeLine(c: DonationChange): string {
  const where = c.atHub ? ' at the hub' : '';
  if (c.action === 'voided') return `Voided${where}`;
  const parts = c.changes.map(fieldChange);
  return `Corrected${where}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}

/** The gift's corrections and void, a line each (nothing when it was never changed). */
export function GiftChangeLines({ gift }: { gift: Pick<DonationDetail, 'changes'> }) {
  if (gift.changes.length === 0) return null;
  return (
    <span className="row-notes" data-gift-changes>
      {gift.changes.map((c, i) => (
        <span key={`${c.at}-${i}`} className="gift-change">
          {changeLine(c)}
          {i < gift.changes.length - 1 ? '; ' : ''}
        </span>
      ))}
    </span>
  );
}
