/**
 * Dates on the wire: ISO 8601. Timestamps leave GiftDesk in UTC with a `Z`; a date-only
 * value means midnight UTC (D4). Impossible dates (2025-02-30) are rejected, never rolled.
 */

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** The stored form, `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
const CANONICAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{3}Z$/;

function isRealDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days && y >= 1 && y <= 9999;
}

/** True when `s` is a real calendar date written YYYY-MM-DD. */
export function isDateOnly(s: string): boolean {
  const m = DATE_ONLY.exec(s);
  return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * Parse an ISO 8601 date or date-time into the canonical stored form
 * `YYYY-MM-DDTHH:MM:SS.mmmZ`, or null when it is not a real instant.
 * A date-time needs an explicit zone (Z or ±hh:mm): a zoneless time is ambiguous.
 */
export function toIsoInstant(s: string): string | null {
  // Already canonical (what GiftDesk itself writes and exports): valid fields mean it is its own answer.
  const cm = CANONICAL.exec(s);
  if (cm) {
    const h = Number(cm[4]);
    const mi = Number(cm[5]);
    const sec = Number(cm[6]);
    return isRealDate(Number(cm[1]), Number(cm[2]), Number(cm[3])) && h <= 23 && mi <= 59 && sec <= 59
      ? s
      : null;
  }
  const dm = DATE_ONLY.exec(s);
  if (dm) {
    if (!isRealDate(Number(dm[1]), Number(dm[2]), Number(dm[3]))) return null;
    return `${s}T00:00:00.000Z`;
  }
  const m = DATE_TIME.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isRealDate(y, mo, d) || h > 23 || mi > 59 || sec > 59) return null;
  const t = Date.parse(s.replace(' ', 'T'));
  if (Number.isNaN(t)) return null;
  const iso = new Date(t).toISOString();
  // An offset can carry 9999-12-31 past year 9999 ("+010000-…") or 0001-01-01 into year 0:
  // neither is the canonical four-digit form that stored dates sort by.
  return /^(?!0000)\d{4}-/.test(iso) ? iso : null;
}

/**
 * The years a stored date may have: a gift, a thank-you, a birth date, an election. HQ refuses
 * election years (derived from the gift's date) outside these, so a date beyond them is
 * refused where it is typed, not parked by the sync days later.
 */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2200;
export const YEAR_RANGE_ISSUE = `must be a date from ${MIN_YEAR} to ${MAX_YEAR}`;

/** True when a parsed date (YYYY-MM-DD… in UTC) falls in MIN_YEAR–MAX_YEAR. */
export function inYearRange(isoOrDate: string): boolean {
  const y = Number(isoOrDate.slice(0, 4));
  return y >= MIN_YEAR && y <= MAX_YEAR;
}

/** toIsoInstant for a date being stored: null also when its year is outside MIN_YEAR–MAX_YEAR. */
export function toStoredInstant(s: string): string | null {
  const iso = toIsoInstant(s);
  return iso !== null && inYearRange(iso) ? iso : null;
}

/** The end of a filter range: a date-only value covers that whole UTC day. */
export function toRangeEnd(s: string): string | null {
  if (isDateOnly(s)) return `${s}T23:59:59.999Z`;
  return toIsoInstant(s);
}

/** YYYY-MM-DD of an instant, in UTC. */
export function utcDay(iso: string): string {
  return iso.slice(0, 10);
}

export function nowIso(): string {
  return new Date().toISOString();
}

const MONTH_DAY_YEAR = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;

/**
 * A date as a person types it in one field: `2026-12-01`, or month/day/year (`12/01/2026`,
 * `12/1/2026`, `12-01-2026`), surrounding spaces ignored. Its YYYY-MM-DD, or null when it is
 * not a real calendar date (`02/30/2026`) or not written one of those ways.
 */
export function typedDateOnly(s: string): string | null {
  const t = s.trim();
  if (isDateOnly(t)) return t;
  const m = MONTH_DAY_YEAR.exec(t);
  if (!m) return null;
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!isRealDate(year, month, day)) return null;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${m[3]}-${two(month)}-${two(day)}`;
}

/** YYYY-MM-DD as month/day/year (`12/01/2026`), the way it is typed back. */
export function monthDayYear(isoDate: string): string {
  const m = DATE_ONLY.exec(isoDate);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : isoDate;
}
