/** How the contact screen writes money, dates and counts for people. */
export { money } from '../../ui/format.ts';

const dateFmt = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** An ISO timestamp or YYYY-MM-DD → "Mar 1, 2026" (the UTC day: gifts are dated in UTC, D4). */
export function day(iso: string | null | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  return Number.isNaN(t) ? iso : dateFmt.format(t);
}

export { count } from '../../ui/format.ts';

/** ENUM_VALUE → "Enum value". */
export function enumLabel(v: string | null | undefined): string {
  if (!v) return '';
  const s = v.toLowerCase().replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}
