/**
 * The count set against what was entered, as the deposit page shows it while it is typed:
 * which payment methods get a line, each line's difference, and the difference in words.
 * Pure (cents in, words out), so it is tested without a browser.
 */
import { PAYMENT_METHODS, type PaymentMethod } from '#shared/enums.ts';
import { formatCents, parseAmountCents, wireCents } from '#shared/money.ts';
import type { DepositSummary } from '#shared/schemas/batch-balance.ts';

/** What a person types for one method: the number of items (not for cash) and the total. */
export interface CountedInput {
  count: string;
  total: string;
}

/** Cash, checks and cards always (a cash box is counted even when no cash was typed), and any other method with gifts. */
export function countedMethods(summary: Pick<DepositSummary, 'byMethod'>): PaymentMethod[] {
  const withGifts = new Set(summary.byMethod.map((m) => m.paymentMethod));
  return PAYMENT_METHODS.filter(
    (m) => m === 'cash' || m === 'check' || m === 'credit_card' || withGifts.has(m),
  );
}

/** Cash is counted as money; everything else as items and money. */
export const countsItems = (m: PaymentMethod): boolean => m !== 'cash';

export interface LineState {
  paymentMethod: PaymentMethod;
  enteredCount: number;
  enteredCents: number;
  /** Null: nothing (or no amount) typed yet. */
  countedCents: number | null;
  countedCount: number | null;
  /** Counted − entered, cents; null until a total is typed. */
  differenceCents: number | null;
  /** The number of items differs from the gifts entered. */
  countDiffers: boolean;
}

export function lineState(
  summary: Pick<DepositSummary, 'byMethod'>,
  m: PaymentMethod,
  input: CountedInput | undefined,
): LineState {
  const entered = summary.byMethod.find((x) => x.paymentMethod === m);
  const enteredCount = entered?.count ?? 0;
  const enteredCents = entered ? wireCents(entered.total) : 0;
  const countedCents = input?.total.trim() ? parseAmountCents(input.total) : null;
  const countText = input?.count.trim() ?? '';
  const countedCount = countsItems(m) && /^\d+$/.test(countText) ? Number(countText) : null;
  return {
    paymentMethod: m,
    enteredCount,
    enteredCents,
    countedCents,
    countedCount,
    differenceCents: countedCents === null ? null : countedCents - enteredCents,
    countDiffers: countedCount !== null && countedCount !== enteredCount,
  };
}

/** "$20.00 short", "$5.00 over", "balances". */
export function differenceWords(cents: number): string {
  if (cents === 0) return 'balances';
  return cents < 0 ? `${formatCents(-cents)} short` : `${formatCents(cents)} over`;
}

/**
 * The whole count in a sentence, once every line with gifts has a total: "Counted $1,000.00
 * against $1,020.00 entered: $20.00 short (cash $20.00 short)." Null while lines are missing.
 */
export function countSentence(lines: readonly LineState[]): { differs: boolean; text: string } | null {
  if (lines.some((l) => l.countedCents === null && l.enteredCount > 0)) return null;
  const counted = lines.reduce((a, l) => a + (l.countedCents ?? 0), 0);
  const entered = lines.reduce((a, l) => a + l.enteredCents, 0);
  const off = lines.filter((l) => (l.differenceCents ?? 0) !== 0 || l.countDiffers);
  const where = off.map((l) =>
    [
      METHOD_WORD[l.paymentMethod],
      (l.differenceCents ?? 0) !== 0 ? differenceWords(l.differenceCents ?? 0) : null,
      l.countDiffers ? `${l.countedCount} counted, ${l.enteredCount} entered` : null,
    ]
      .filter(Boolean)
      .join(' '),
  );
  if (off.length === 0)
    return { differs: false, text: `Counted ${formatCents(counted)}: it balances with what was entered.` };
  return {
    differs: true,
    text: `Counted ${formatCents(counted)} against ${formatCents(entered)} entered: ${counted === entered ? 'the same total' : differenceWords(counted - entered)} (${where.join('; ')}).`,
  };
}

export const METHOD_WORD: Record<PaymentMethod, string> = {
  cash: 'cash',
  check: 'checks',
  credit_card: 'cards',
  ach: 'ACH',
  wire: 'wires',
  paypal: 'PayPal',
  venmo: 'Venmo',
  zelle: 'Zelle',
  cryptocurrency: 'cryptocurrency',
  in_kind: 'in kind',
  other: 'other',
};
