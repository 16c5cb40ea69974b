/**
 * The Dashboard's periods as statistics queries (pure: the browser tests compute the same
 * queries to compare the screen with the API). "Today" is this machine's calendar day and
 * counts gifts by when they were entered, by hour; longer periods count gifts by their
 * date, by day.
 */
export type Period = 'today' | '7d' | '30d';

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD of this machine's calendar day. */
export const localDate = (d: Date): string =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** This machine's calendar day, as the instants it spans. */
export function localDayRange(now = new Date()): { startDate: string; endDate: string } {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const end = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return { startDate: start.toISOString(), endDate: new Date(end.getTime() - 1).toISOString() };
}

export interface PeriodQuery {
  startDate: string;
  endDate: string;
  basis: 'entered' | 'donationDate';
  bucket: 'hour' | 'day';
}

export function periodQuery(p: Period, now = new Date()): PeriodQuery {
  if (p === 'today') return { ...localDayRange(now), basis: 'entered', bucket: 'hour' };
  const days = p === '7d' ? 6 : 29;
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - days);
  return { startDate: localDate(from), endDate: localDate(now), basis: 'donationDate', bucket: 'day' };
}
