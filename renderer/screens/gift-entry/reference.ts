/**
 * Campaigns, committees and donation accounts as select options (one cached query each), and
 * the donation accounts each campaign offers. `ready` says all three are at hand: a form that
 * registers its designation selects before their options arrive shows "— none —" where it
 * holds a campaign or an account (the browser selects the placeholder when the options come),
 * and a gift saved before the campaigns arrive cannot be held to its campaign's account.
 */
import { useQuery } from '@tanstack/react-query';
import { PAYMENT_METHOD_LABEL, PAYMENT_METHODS } from '#shared/enums.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import type { SelectOption } from '../../ui/index.ts';

/** The one wording of payment methods (#shared/enums.ts), under gift entry's name for it. */
export const METHOD_LABEL = PAYMENT_METHOD_LABEL;
export const METHOD_OPTIONS: SelectOption[] = PAYMENT_METHODS.map((m) => ({
  value: m,
  label: METHOD_LABEL[m],
}));

export function useReferenceData() {
  const api = useApi();
  const campaigns = useQuery({ queryKey: qk.campaigns, queryFn: () => api.campaigns.list() });
  const committees = useQuery({ queryKey: qk.committees, queryFn: () => api.committees.list() });
  const accounts = useQuery({ queryKey: qk.donationAccounts, queryFn: () => api.donationAccounts.list() });
  const toOptions = (xs: Array<{ id: string; name: string }> | undefined): SelectOption[] =>
    (xs ?? []).map((x) => ({ value: x.id, label: x.name }));
  const lists = [campaigns, committees, accounts];
  return {
    /** All three lists are here (kept through a refetch, a failed one included). */
    ready: lists.every((q) => q.data !== undefined),
    /** One of them failed before it ever arrived (the others may still be on their way). */
    failed: lists.some((q) => q.data === undefined && q.isError),
    /** Asks again for those that failed. */
    retry: () => {
      for (const q of lists) if (q.isError) void q.refetch();
    },
    campaigns: toOptions(campaigns.data?.data),
    committees: toOptions(committees.data?.data),
    donationAccounts: toOptions(accounts.data?.data),
    /** The donation accounts a campaign offers (Settings → Campaigns); none for no campaign. */
    accountsOf: (campaignId: string | null | undefined): Array<{ id: string; name: string }> =>
      (campaignId && campaigns.data?.data.find((c) => c.id === campaignId)?.donationAccounts) || [],
    nameOf: (
      kind: 'campaign' | 'committee' | 'donationAccount',
      id: string | null | undefined,
    ): string | null => {
      if (!id) return null;
      const list =
        kind === 'campaign'
          ? campaigns.data?.data
          : kind === 'committee'
            ? committees.data?.data
            : accounts.data?.data;
      return list?.find((x) => x.id === id)?.name ?? null;
    },
  };
}
