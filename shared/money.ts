/**
 * Money is integer cents everywhere inside GiftDesk; decimal dollars only on the wire.
 * These helpers are the only place the two meet. No float arithmetic on stored amounts.
 */

/** The largest amount accepted on the wire, in dollars: well inside Number.MAX_SAFE_INTEGER cents. */
export const MAX_DOLLARS = 1_000_000_000;

/**
 * Decimal dollars → integer cents, or null when the value is not a whole number of cents
 * (125.005) or is not finite. Parsing goes through the decimal string so 0.29 → 29 exactly.
 */
export function dollarsToCents(dollars: number): number | null {
  if (!Number.isFinite(dollars)) return null;
  const text = Math.abs(dollars).toFixed(10); // 1e9 dollars → well within safe digits
  const [whole = '0', frac = ''] = text.split('.');
  if (/[1-9]/.test(frac.slice(2))) return null;
  const cents = Number(whole) * 100 + Number(frac.slice(0, 2).padEnd(2, '0'));
  return dollars < 0 ? -cents : cents;
}

/** Integer cents → decimal dollars for the wire (exact for every safe integer of cents). */
export function centsToDollars(cents: number): number {
  return Number((cents / 100).toFixed(2));
}

/** Cents → "$1,234.50" for people. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${whole}.${String(abs % 100).padStart(2, '0')}`;
}
