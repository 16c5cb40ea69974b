/**
 * Query keys shared by every screen. Invalidate by prefix: after a gift is saved,
 * `invalidateAfterGift` refreshes donations, contacts (totals), campaigns (totals), flags
 * and the account counts; gift entry, which saves gifts in bursts, asks for it through
 * `refreshAfterGift`, once per burst.
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
  sync: ['sync'] as const,
  batches: ['batches'] as const,
  batch: (id: string) => ['batches', 'one', id] as const,
  batchDonations: (id: string) => ['batches', 'donations', id] as const,
  stats: ['stats'] as const,
  giftCheck: (q: object) => ['gift-check', q] as const,
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

/** A burst of saves is over when none came for this long. */
const BURST_QUIET_MS = 1_000;
/** During a long burst (a scanner at 200 gifts a minute), totals are refreshed this often. */
const BURST_MAX_WAIT_MS = 10_000;
/** A refresh due while a gift is being saved looks again this much later. */
const SAVE_POLL_MS = 50;
const pendingRefresh = new WeakMap<QueryClient, { timer: ReturnType<typeof setTimeout>; since: number }>();

/**
 * After a gift saved in gift entry (whose row and batch figures came with the save's answer):
 * what else it changes — totals, stats, badges, other lists — is refreshed once per burst of
 * saves, BURST_QUIET_MS after the last one, not once per gift; during a longer burst also
 * right after the row of the first save that comes BURST_MAX_WAIT_MS or more after the burst
 * began. Donor checks are only marked stale at once (no request): the next donor picked is
 * checked afresh, a twin gift's check included. A refresh falling due while a
 * save is on its way waits for it.
 */
export function refreshAfterGift(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: ['gift-check'], refetchType: 'none' });
  const now = Date.now();
  const pending = pendingRefresh.get(client);
  if (pending) clearTimeout(pending.timer);
  const since = pending?.since ?? now;
  // A long burst: refreshed as soon as this gift's row is in (a task later: its render, and
  // whatever observes it, go first) — not from a timer that could go off just as the next
  // gift's Enter is pressed, beside its save.
  arm(client, since, now - since >= BURST_MAX_WAIT_MS ? 0 : BURST_QUIET_MS);
}

function arm(client: QueryClient, since: number, wait: number): void {
  const timer = setTimeout(() => {
    // Never beside a save: its row would wait behind the refresh's requests on the server.
    if (client.isMutating() > 0) return arm(client, since, SAVE_POLL_MS);
    pendingRefresh.delete(client);
    void invalidateAfterGift(client);
  }, wait);
  pendingRefresh.set(client, { timer, since });
}
