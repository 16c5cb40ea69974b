/**
 * Query keys shared by every screen. Invalidate by prefix: after a gift is saved,
 * `invalidateAfterGift` refreshes donations, contacts (totals), campaigns (totals), flags
 * and the account counts.
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
  await Promise.all([qk.donations, qk.contacts, qk.campaigns, qk.flags, qk.account, qk.sync, qk.batches, qk.stats, ['gift-check']].map((queryKey) => client.invalidateQueries({ queryKey })));
}
