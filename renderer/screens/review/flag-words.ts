/**
 * The Review screen's words: which limit a flag is over and its window ("toward the Primary
 * 2026 election"), a flag's state, the actions in a gift's history and what a redesignation
 * moved, and the dates as they are shown.
 */
import type { LimitKind } from '#shared/enums.ts';
import type { useApi } from '../../api/provider.tsx';
import { electionLabel } from '../../ui/format.ts';

type Api = ReturnType<typeof useApi>;
/** A flagged gift, as the API lists it. */
export type Flag = Awaited<ReturnType<Api['flags']['list']>>['flagged'][number];
/** What the treasurer does with a flag. */
export type Action = 'review' | 'refund' | 'redesignate';

export const LIMIT_LABEL: Record<LimitKind, string> = {
  per_election: 'per-election limit',
  per_cycle: 'two-year cycle limit',
  per_year: 'calendar-year limit',
  per_donor: 'lifetime limit per donor',
};

export const STATE_LABEL: Record<Flag['state'], string> = {
  open: 'Needs review',
  reviewed: 'Reviewed',
  refunded: 'Refunded',
  redesignated: 'Redesignated',
};

export const ACTION_LABEL: Record<string, string> = {
  flagged: 'Flagged over a limit',
  reviewed: 'Marked reviewed',
  refunded: 'Refunded',
  redesignated: 'Redesignated',
};

/** When something was done, to the minute. */
export const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** A gift's date (a calendar day, kept as midnight UTC). */
export const giftDay = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** The window a flag's limit counts in, as the end of a sentence: "in 2026", "over all time". */
export function windowLabel(f: Flag): string {
  switch (f.limitKind) {
    case 'per_election': {
      // The window is the election the flag was raised for ("primary-2026"), which a
      // redesignated gift no longer counts toward.
      const m = /^(.+)-(\d{4})$/.exec(f.window);
      return `toward the ${m ? electionLabel(m[1]!, Number(m[2])) : electionLabel(f.electionType, f.electionYear)} election`;
    }
    case 'per_cycle':
      return `in the ${f.window.replace('-', '–')} cycle`;
    case 'per_year':
      return `in ${f.window}`;
    case 'per_donor':
      return 'over all time';
  }
}

/** What a redesignation moved: "from Primary 2026 to General 2026" ('' when the history lacks it). */
export function describeMove(detail: Record<string, unknown>): string {
  const from = detail.from as { electionType?: string; electionYear?: number } | undefined;
  const to = detail.to as { electionType?: string; electionYear?: number } | undefined;
  if (!from?.electionType || !to?.electionType || !from.electionYear || !to.electionYear) return '';
  return `from ${electionLabel(from.electionType, from.electionYear)} to ${electionLabel(to.electionType, to.electionYear)}`;
}
