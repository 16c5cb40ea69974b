/**
 * Money is integer cents everywhere inside GiftDesk; decimal dollars only on the wire.
 * These helpers are the only place the two meet, and where amounts are read from what people
 * type and written for them to read. No float arithmetic on stored amounts.
 */

/** The largest amount accepted on the wire, in dollars: well inside Number.MAX_SAFE_INTEGER cents. */
export const MAX_DOLLARS = 1_000_000_000;

/**
 * Decimal dollars → integer cents, or null when the value is not a whole number of cents
 * (125.005), is not finite, or is too large to hold cents exactly (≥ 1e13 dollars).
 * Parsing goes through the decimal string so 0.29 → 29 exactly: 15 significant digits
 * show every amount a person can type (1234567.89) and hide binary noise (0.1 + 0.2).
 */
export function dollarsToCents(dollars: number): number | null {
  if (!Number.isFinite(dollars) || Math.abs(dollars) >= 1e13) return null;
  const text = Math.abs(dollars).toPrecision(15);
  if (text.includes('e')) return null; // below 1e-6 and not zero: not a whole number of cents
  const [whole = '0', frac = ''] = text.split('.');
  if (/[1-9]/.test(frac.slice(2))) return null;
  const cents = Number(whole) * 100 + Number(frac.slice(0, 2).padEnd(2, '0'));
  return dollars < 0 ? -cents : cents;
}

/** Integer cents → decimal dollars for the wire (exact, and back through dollarsToCents, below 1e15 cents). */
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

/**
 * Decimal dollars as the API sends them → integer cents, for showing and comparing: they are
 * whole cents, so this is dollarsToCents; a value that is not (binary noise from arithmetic
 * on the page) is rounded to the nearest cent rather than refused.
 */
export function wireCents(dollars: number): number {
  return dollarsToCents(dollars) ?? Math.round(dollars * 100);
}

/** Decimal dollars from the API → "$1,234.50" for people. */
export function formatDollars(dollars: number): string {
  return formatCents(wireCents(dollars));
}

/** Decimal dollars from the API → the text an amount box starts with ("1250.50"). */
export function dollarsForInput(dollars: number): string {
  return (wireCents(dollars) / 100).toFixed(2);
}

/** An amount as typed — "1,234.5" / "$12" / "12.00" → cents; null when it is not an amount. */
export function parseAmountCents(text: string): number | null {
  const t = text.replace(/[$,\s]/g, '');
  if (!/^\d+(\.\d{0,2})?$/.test(t)) return null;
  const [whole = '0', frac = ''] = t.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/**
 * An optional amount typed in dollars (a contribution limit) → dollars for the form's schema:
 * "" is none (null), "3,300.00" reads 3300, anything else stays NaN for the schema to refuse in
 * its own words.
 */
export function optionalDollarsFromInput(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const t = String(v).trim().replace(/^\$/, '').replace(/,/g, '');
  if (t === '') return null;
  return /^-?\d*(\.\d*)?$/.test(t) ? Number(t) : Number.NaN;
}
