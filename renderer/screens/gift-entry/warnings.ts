/**
 * The gift-entry row's warnings while typing. They never block a save: the volunteer sees
 * them, the treasurer sorts them out (over-limit gifts land in the review queue, D6; cash over
 * $100 is listed in Review with the same sentence: #shared/cash-rules.ts).
 * Pure: amounts in integer cents.
 */
import { CASH_LIMIT_CENTS, CASH_OVER_WARNING } from '#shared/cash-rules.ts';
import { formatCents, wireCents } from '#shared/money.ts';
import type { GiftCheck } from '#shared/schemas/gift-checks.ts';

export interface WarningInput {
  amountCents: number | null;
  method: string;
  isAnonymous: boolean;
  /** The donor's check (null while unknown, or for a new donor). */
  check: GiftCheck | null;
  /** Employer and occupation as they will be on file (typed ones for a new donor). */
  employer: string | null;
  occupation: string | null;
  donationAccountName: string | null;
}

export interface Warning {
  id: 'limit' | 'aggregate' | 'cash' | 'anonymous-cash';
  text: string;
}

export function giftWarnings(w: WarningInput): Warning[] {
  const out: Warning[] = [];
  const amount = w.amountCents;
  if (amount === null || amount <= 0) return out;
  for (const l of w.check?.limits ?? []) {
    const room = wireCents(l.room);
    if (amount > room) {
      out.push({
        id: 'limit',
        text: `Over the ${l.label} limit of ${formatCents(wireCents(l.limit))}${w.donationAccountName ? ` for ${w.donationAccountName}` : ''}: this donor has ${formatCents(room)} of room left (given ${formatCents(wireCents(l.donorTotal))}). It will be saved and flagged for review.`,
      });
    }
  }
  const yearTotal = wireCents(w.check?.yearTotal ?? 0) + amount;
  const missing = [!w.employer?.trim() && 'employer', !w.occupation?.trim() && 'occupation'].filter(Boolean);
  if (yearTotal > 20_000 && missing.length > 0) {
    out.push({
      id: 'aggregate',
      text: `This donor's ${w.check?.year ?? 'year'} total would be ${formatCents(yearTotal)}, over $200: ask for their ${missing.join(' and ')}.`,
    });
  }
  if (w.method === 'cash' && amount > CASH_LIMIT_CENTS) out.push({ id: 'cash', text: CASH_OVER_WARNING });
  if (w.method === 'cash' && w.isAnonymous && amount > 5_000)
    out.push({
      id: 'anonymous-cash',
      text: 'Anonymous cash over $50 cannot be kept: ask for the donor’s name or return the excess.',
    });
  return out;
}
