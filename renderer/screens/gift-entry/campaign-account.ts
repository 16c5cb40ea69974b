/**
 * A campaign's donation accounts in the gift row (D6: limits are checked per donation account,
 * and only for a gift that names one). A campaign that offers exactly one account credits it
 * by default (shown in the row, changeable); one that offers several leaves the choice to the
 * volunteer, and the row asks for it. Either way a gift to a campaign that offers accounts is
 * not saved without one: a gift credited to no account escapes every limit, which is what a
 * compliance officer least wants (change the campaign, or credit a committee alone, for money
 * no limit applies to).
 */
import { useEffect, useRef } from 'react';

export interface OfferedAccount {
  id: string;
  name: string;
}

/** The account a campaign credits by default: its only one, else none (the row asks). */
export const defaultAccountOf = (offered: OfferedAccount[]): string =>
  offered.length === 1 ? offered[0]!.id : '';

/**
 * Follows the campaign: when it changes (or the campaigns arrive), an account the row filled
 * in itself — or none — becomes the new campaign's default; one the volunteer chose stays.
 */
export function useCampaignAccount(
  offered: OfferedAccount[],
  account: { get: () => string; set: (id: string) => void },
): void {
  const filled = useRef<string | null>(null);
  const key = offered.map((a) => a.id).join(',');
  // `key` stands for `offered`: it runs when the campaign's accounts change, not the array.
  useEffect(() => {
    const now = account.get();
    if (now !== '' && now !== filled.current) return;
    const next = defaultAccountOf(offered);
    if (next !== now) account.set(next);
    filled.current = next || null;
  }, [key]);
}

/**
 * What the row says when a gift to a campaign that offers accounts names none (null when it
 * names one, or the campaign offers none).
 */
export function missingAccountIssue(
  offered: OfferedAccount[],
  donationAccountId: string,
  campaignName: string | null,
): string | null {
  if (offered.length === 0 || donationAccountId) return null;
  const campaign = campaignName ?? 'This campaign';
  if (offered.length === 1)
    return `is required: ${campaign} credits ${offered[0]!.name}, whose limits are checked on every gift`;
  return `choose one: ${campaign} offers ${listed(offered.map((a) => a.name))}, each with its own limits`;
}

/** The hint at the donation account while the row waits for the volunteer's choice. */
export function chooseAccountHint(offered: OfferedAccount[], donationAccountId: string): string | undefined {
  if (offered.length < 2 || donationAccountId) return undefined;
  return `This campaign offers ${listed(offered.map((a) => a.name))}: choose one before saving`;
}

const listed = (names: string[]) =>
  names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
