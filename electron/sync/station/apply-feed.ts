/**
 * One page of the hub's feed, applied at a station in one transaction, like a pull's page: each
 * kind of the event's ledger in the order the hub declares them (electron/hub/ledger-kinds.ts),
 * by the apply this station has for it (ledger-apply.ts): the snapshot kinds the page carries
 * (elections and the default election, letters, donation accounts, committees, campaigns,
 * custom fields, the event's stations), then donors, deleted donors and gifts, and the cursor
 * moved past the page — all or nothing, so a page half-applied is never left and a page re-read
 * after a crash writes nothing twice. Every record written is logged with push = 0 and linked to
 * the hub's id; the reference lists are matched to the station's own records first
 * (reference-match.ts).
 *
 * Gifts: see feed-gifts.ts. One that names a record not here yet is held, never dropped, and
 * the held ones are tried again on every page (after its contacts, before its gifts).
 */
import type { z } from 'zod';
import type { HubChanges, HubSnapshots } from '#shared/schemas/hub.ts';
import { LEDGER_KIND_NAMES } from '../../hub/index.ts';
import type { Store } from '../../db/store.ts';
import { setHubCursor } from '../remote/hub-remote.ts';
import { emptyCounts, type FeedCounts } from './feed-contacts.ts';
import { LEDGER_APPLY } from './ledger-apply.ts';

export type FeedPage = z.infer<typeof HubChanges>;

/**
 * A page with this many records or more (a catch-up's) is written in a transaction of its own,
 * as an import chunk is, rather than inside a savepoint of a group commit, whose sub-journal
 * copies every database page the write touches first. The guarantees are the same; the event's
 * small pages keep sharing commits with the writes typed beside them.
 */
const BULK_PAGE = 100;

/** A page of a hub of an earlier version carries no `snapshots`: its reference lists and stations are they. */
function snapshotsOf(page: FeedPage): HubSnapshots {
  if (page.snapshots) return page.snapshots;
  const out: HubSnapshots = {};
  if (page.reference) {
    out.donationAccounts = page.reference.donationAccounts;
    out.committees = page.reference.committees;
    out.campaigns = page.reference.campaigns;
    out.customFields = page.reference.customFields;
  }
  if (page.stations) out.stations = page.stations;
  return out;
}

/**
 * Applies a page (see the top). `readAt`: when the hub's answer arrived — a field this station's
 * engine confirmed after it is newer than the page's value and is kept; one confirmed before
 * is in the page or older than it (if the page predates it, its own echo follows).
 */
export async function applyFeedPage(
  store: Store,
  accountId: string,
  page: FeedPage,
  readAt: string,
  at: string,
  /** The station's key at the hub the page was read from: a page of a hub left since is not applied. */
  fromKey?: string,
  /**
   * `unsynced`: a catch-up's page with more after it; a large one is committed without a sync
   * of its own (store.ts WriteMode): lost to a power cut, it is read again from the cursor it
   * moved, and the catch-up's last page (synced) makes every one before it durable.
   */
  mode: { unsynced?: boolean; deferTotals?: boolean } = {},
): Promise<FeedCounts> {
  const counts = emptyCounts();
  let applied = false;
  const records = page.contacts.length + page.donations.length + page.deletedContacts.length;
  await store.write(
    async (trx) => {
      if (fromKey !== undefined) {
        const now = await trx
          .selectFrom('syncRemotes')
          .select('keyId')
          .where('accountId', '=', accountId)
          .where('kind', '=', 'hub')
          .executeTakeFirst();
        if (now?.keyId !== fromKey) return; // the station moved to another hub meanwhile (replace.ts)
      }
      const snapshots = snapshotsOf(page);
      for (const name of LEDGER_KIND_NAMES)
        await LEDGER_APPLY[name]({
          trx,
          accountId,
          page,
          snapshots,
          readAt,
          at,
          counts,
          deferTotals: mode.deferTotals === true,
        });
      await setHubCursor(trx, accountId, page.cursor);
      applied = true;
    },
    { bulk: records >= BULK_PAGE, unsynced: records >= BULK_PAGE && mode.unsynced === true },
  );
  // Open windows read again when the page brought anything (a long poll's empty answer does not).
  const brought =
    Object.keys(snapshotsOf(page)).length > 0 ||
    page.contacts.length + page.donations.length + page.deletedContacts.length > 0;
  if (applied && brought) store.changes.note(null);
  return counts;
}
