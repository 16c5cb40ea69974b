/**
 * The values kept "until changed" (StickyValues), kept per account and batch in this window's
 * localStorage (the host a batch's gifts are raised by with their name, as the box shows
 * them): what the sticky line shows is what the next gift gets, also after a switch to
 * another screen (the entry row is built again) and after a reload or a restart. Only the
 * values that differ from the batch's own are kept; putting one back removes it.
 */
import { useEffect } from 'react';
import { ContactSummary } from '#shared/schemas/contact-views.ts';
import type { StickyField, StickyValuesOf } from './StickyValues.tsx';

const FIELDS: readonly StickyField[] = [
  'date',
  'method',
  'campaignId',
  'committeeId',
  'donationAccountId',
  'facilitatedByContactId',
];

const keyOf = (accountId: string, batchId: string) => `giftdesk.sticky.${accountId}.${batchId}`;

/** The values kept for this batch (those changed from the batch's own); none when nothing is kept. */
export function keptSticky(accountId: string, batchId: string): Partial<StickyValuesOf> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(localStorage.getItem(keyOf(accountId, batchId)) ?? '{}');
  } catch {
    return {}; // not ours, or cut short: the batch's own values
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const kept: Partial<StickyValuesOf> = {};
  for (const f of FIELDS) {
    const v = (parsed as Record<string, unknown>)[f];
    if (typeof v === 'string') kept[f] = v;
  }
  // The host only with the name the box shows: never a gift raised by someone not on screen.
  const host = keptHost(accountId, batchId);
  if (host) kept.facilitatedByContactId = host.id;
  else delete kept.facilitatedByContactId;
  return kept;
}

/** Keeps `values` where they differ from the batch's own, each time they change. */
export function useKeepSticky(
  accountId: string,
  batchId: string,
  values: StickyValuesOf,
  batch: StickyValuesOf,
): void {
  const changed = JSON.stringify(
    Object.fromEntries(FIELDS.filter((f) => values[f] !== batch[f]).map((f) => [f, values[f]])),
  );
  useEffect(() => {
    try {
      if (changed === '{}') localStorage.removeItem(keyOf(accountId, batchId));
      else localStorage.setItem(keyOf(accountId, batchId), changed);
    } catch {
      // Storage full or refused: the row still shows and uses the values; only a reload forgets them.
    }
  }, [accountId, batchId, changed]);
}

const hostKeyOf = (accountId: string, batchId: string) => `giftdesk.sticky-host.${accountId}.${batchId}`;

/** The host kept for this batch ("raised by"), as the box shows them; null when none is kept. */
export function keptHost(accountId: string, batchId: string): ContactSummary | null {
  try {
    const parsed = ContactSummary.safeParse(
      JSON.parse(localStorage.getItem(hostKeyOf(accountId, batchId)) ?? 'null'),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Keeps the batch's host (or forgets it) each time it changes. */
export function useKeepHost(accountId: string, batchId: string, host: ContactSummary | null): void {
  const kept = host ? JSON.stringify(host) : null;
  useEffect(() => {
    try {
      if (kept === null) localStorage.removeItem(hostKeyOf(accountId, batchId));
      else localStorage.setItem(hostKeyOf(accountId, batchId), kept);
    } catch {
      // Storage full or refused: the row still uses the host; only a reload forgets it.
    }
  }, [accountId, batchId, kept]);
}
