/**
 * How a station applies each kind of the event's ledger (the kinds and their order are declared
 * once, at the hub: electron/hub/ledger-kinds.ts). This record is keyed by the kinds' names, so a
 * kind added there without an apply here does not compile. Each apply runs in the transaction of
 * the page (apply-feed.ts); a snapshot kind only when the page carries its list, a logged kind
 * on every page.
 */
import type { HubChanges, HubSnapshots } from '#shared/schemas/hub.ts';
import type { LedgerKindName } from '../../hub/index.ts';
import {
  applyEventCampaigns,
  applyEventCommittees,
  applyEventCustomFields,
  applyEventDonationAccounts,
  applyEventElections,
  applyEventLetters,
} from '../../domain/pulled/index.ts';
import type { Db } from '../../db/store.ts';
import { applyFeedContacts, applyFeedDeletions, type FeedCounts } from './feed-contacts.ts';
import { applyNewContacts, applyNewGifts } from './feed-new.ts';
import { applyFeedGift, applyHeldGifts, dropHeldOf, holdGift, releaseHeld } from './feed-gifts.ts';
import { localizeCampaigns, localizeList } from './reference-match.ts';
import { keepStationNames } from './event-stations.ts';

export interface ApplyInput {
  trx: Db;
  accountId: string;
  page: FeedPage;
  /** The page's snapshot kinds (a page of a hub of an earlier version: from its older fields). */
  snapshots: HubSnapshots;
  /** When the page's request left (a field pushed here after it is kept). */
  readAt: string;
  at: string;
  counts: FeedCounts;
  /** A catch-up's page: the new gifts' donor totals are left for its end (feed.ts catchUp). */
  deferTotals: boolean;
}

type Apply = (input: ApplyInput) => Promise<void>;
type FeedPage = HubChanges;

export const LEDGER_APPLY: Record<LedgerKindName, Apply> = {
  elections: async ({ trx, accountId, snapshots, counts }) => {
    if (snapshots.elections && (await applyEventElections(trx, accountId, snapshots.elections)))
      counts.reference++;
  },
  letters: async ({ trx, accountId, snapshots, counts }) => {
    if (snapshots.letters && (await applyEventLetters(trx, accountId, snapshots.letters))) counts.reference++;
  },
  donationAccounts: async ({ trx, accountId, snapshots, at, counts }) => {
    if (!snapshots.donationAccounts) return;
    const local = await localizeList(trx, accountId, 'donationAccount', snapshots.donationAccounts, at);
    counts.reference += await applyEventDonationAccounts(trx, accountId, local, at);
  },
  committees: async ({ trx, accountId, snapshots, at, counts }) => {
    if (!snapshots.committees) return;
    const local = await localizeList(trx, accountId, 'committee', snapshots.committees, at);
    counts.reference += await applyEventCommittees(trx, accountId, local, at);
  },
  campaigns: async ({ trx, accountId, snapshots, at, counts }) => {
    if (!snapshots.campaigns) return;
    const local = await localizeCampaigns(trx, accountId, snapshots.campaigns, at);
    counts.reference += await applyEventCampaigns(trx, accountId, local, at);
  },
  // Custom fields are matched by name (their values travel by name).
  customFields: async ({ trx, accountId, snapshots, at, counts }) => {
    if (snapshots.customFields)
      counts.reference += await applyEventCustomFields(trx, accountId, snapshots.customFields, at);
  },
  // The page's plainly new donors together (feed-new.ts), then the others one by one.
  contacts: async ({ trx, accountId, page, readAt, at, counts }) => {
    const done = await applyNewContacts(trx, accountId, page.contacts, at, counts);
    const rest = done.size === 0 ? page.contacts : page.contacts.filter((c) => !done.has(c.id));
    await applyFeedContacts(trx, accountId, rest, readAt, at, counts);
  },
  deletedContacts: async ({ trx, accountId, page, at, counts }) => {
    await applyFeedDeletions(trx, accountId, page.deletedContacts, at, counts);
    await dropHeldOf(trx, accountId, page.deletedContacts);
  },
  // Gifts held for what they name are tried again first (their donors may have come with this
  // page); then the page's plainly new gifts together (feed-new.ts), the others one by one.
  gifts: async ({ trx, accountId, page, at, counts, deferTotals }) => {
    counts.gifts += await applyHeldGifts(trx, accountId, at);
    await releaseHeld(
      trx,
      accountId,
      page.donations.map((g) => g.id),
    );
    const done = await applyNewGifts(trx, accountId, page.donations, at, counts, deferTotals);
    for (const g of page.donations) {
      if (done.has(g.id)) continue;
      const outcome = await applyFeedGift(trx, accountId, g, at);
      if (outcome === 'written') counts.gifts++;
      else if (typeof outcome === 'object') {
        await holdGift(trx, accountId, g, outcome.missing, at);
        counts.held++;
        counts.notes.push(
          `A gift from the hub names ${outcome.missing}, which is not here yet; it is kept until it is`,
        );
      }
    }
  },
  stations: async ({ trx, accountId, snapshots, at }) => {
    if (snapshots.stations) await keepStationNames(trx, accountId, snapshots.stations, at);
  },
};
