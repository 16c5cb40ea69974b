/** Formatting for people, shared by the screens. */
/** Decimal dollars from the API → "$1,234.50" (shared/money's formatDollars). */
export { formatDollars as money } from '#shared/money.ts';

/** "primary", 2026 → "Primary 2026". */
export const electionLabel = (type: string, year: number): string =>
  `${type[0]?.toUpperCase() ?? ''}${type.slice(1)} ${year}`;

/** 6000 → "6,000". */
export const whole = (n: number): string => n.toLocaleString('en-US');

/** 6000, "gift" → "6,000 gifts"; 1 → "1 gift". */
export const count = (n: number, one: string, many = `${one}s`): string =>
  `${whole(n)} ${n === 1 ? one : many}`;

const stamp = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO instant → its day and time in the user's own terms ("27 Nov 2026, 13:09"); "—" for none. */
export const dateTime = (iso: string | null): string => (iso ? stamp.format(new Date(iso)) : '—');
