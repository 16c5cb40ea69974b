/**
 * Query keys shared by every screen. Invalidate by prefix: after a gift is saved,
 * `invalidateAfterGift` refreshes donations, contacts (totals), campaigns (totals), flags
 * and the account counts; gift entry, whose save answers carry what it shows, calls
 * `refreshAfterGift` instead, which only marks the rest stale (no request).
 */
import type { QueryClient } from '@tanstack/react-query';

export const qk = {
  account: ['account'] as const,
  contacts: ['contacts'] as const,
  contactList: (q: object) => ['contacts', 'list', q] as const,
  contact: (id: string) => ['contacts', 'one', id] as const,
  donations: ['donations'] as const,
  donationList: (q: object) => ['donations', 'list', q] as const,
  donation: (id: string) => ['donations', 'one', id] as const,
  campaigns: ['campaigns'] as const,
  committees: ['committees'] as const,
  donationAccounts: ['donation-accounts'] as const,
  customFields: ['custom-fields'] as const,
  elections: ['elections'] as const,
  flags: ['flags'] as const,
  apiKeys: ['api-keys'] as const,
  users: ['users'] as const,
  me: ['me'] as const,
  sync: ['sync'] as const,
  batches: ['batches'] as const,
  batch: (id: string) => ['batches', 'one', id] as const,
  batchDonations: (id: string) => ['batches', 'donations', id] as const,
  batchDeposit: (id: string) => ['batches', 'deposit', id] as const,
  stats: ['stats'] as const,
  raisedBy: (q: object) => ['stats', 'raised-by', q] as const,
  credits: (id: string) => ['contacts', 'credits', id] as const,
  giftCheck: (q: object) => ['gift-check', q] as const,
  /** What this GiftDesk is in the account's event, and the hub's own lists (stations, close-out). */
  event: ['event'] as const,
  hub: ['hub'] as const,
  /** The account's letter settings, and its print runs (the history, one run as it renders). */
  letterSettings: ['letters', 'settings'] as const,
  letterRuns: ['letters', 'runs'] as const,
  letterRun: (id: string) => ['letters', 'runs', id] as const,
};

export async function invalidateAfterGift(client: QueryClient): Promise<void> {
  await Promise.all(
    [
      qk.donations,
      qk.contacts,
      qk.campaigns,
      qk.flags,
      qk.account,
      qk.sync,
      qk.batches,
      qk.stats,
      ['gift-check'],
    ].map((queryKey) => client.invalidateQueries({ queryKey })),
  );
}

/**
 * What a gift saved in gift entry changes beyond what its answer brought (the row, the batch's
 * count and total, the sync status: showSavedGift puts those in): contacts' and campaigns'
 * totals, donation lists, flags, statistics, the account's counts, donors' checks. None of them
 * is on the gift-entry screen, so none is read now: each is marked stale, and read when a
 * screen that shows it opens (or the window is focused again). A save therefore costs its one
 * request, however long the burst; the next donor picked is checked afresh (a twin's too).
 */
export function refreshAfterGift(client: QueryClient): void {
  for (const queryKey of [
    qk.donations,
    qk.contacts,
    qk.campaigns,
    qk.flags,
    qk.account,
    qk.stats,
    ['gift-check'],
  ])
    void client.invalidateQueries({ queryKey, refetchType: 'none' });
}
