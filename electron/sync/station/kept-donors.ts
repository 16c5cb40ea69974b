/**
 * A donor deleted at this station that the hub keeps: the hub refuses a station's deletion of a
 * donor with gifts typed at another station or at the hub (409 `donor_has_other_gifts`), and the
 * engine parks the delete as `kept_at_hub` (push/answers.ts). The station had deleted its copy —
 * the donor and every gift of it — so it gets them back from the hub: before each read of the
 * feed, each such donor is read whole (GET /hub/donors/{id}, the feed's shapes) and written here
 * as the feed writes a donor it has not seen, with its gifts; the delete is settled. Nothing
 * waits for a change of that donor at the hub, which may never come.
 */
import { HubChanges } from '#shared/schemas/hub.ts';
import { LEDGER_KIND_NAMES } from '../../hub/index.ts';
import type { Store } from '../../db/store.ts';
import type { RemoteClient } from '../net/http-client.ts';
import { localIdFor, remoteIdFor, unlinkRemote } from '../outbox/links.ts';
import { emptyCounts } from './feed-contacts.ts';
import { LEDGER_APPLY } from './ledger-apply.ts';

/** Brings back every donor the hub kept; the number brought back (a failed read waits for the next). */
export async function restoreKeptDonors(
  store: Store,
  accountId: string,
  client: RemoteClient,
  clock: () => number,
): Promise<number> {
  const kept = await store.db
    .selectFrom('syncItems')
    .select('entityId')
    .where('accountId', '=', accountId)
    .where('entityType', '=', 'contact')
    .where('state', '=', 'attention')
    .where('attentionCode', '=', 'kept_at_hub')
    .execute();
  let restored = 0;
  for (const { entityId: localId } of kept) {
    const hubId = await remoteIdFor(store.db, 'contact', localId);
    let page: HubChanges | null = null;
    if (hubId !== null) {
      const res = await client.request('GET', `/hub/donors/${encodeURIComponent(hubId)}`);
      const parsed = res.status === 200 ? HubChanges.safeParse(res.body) : null;
      if (!parsed?.success) continue; // tried again before the next read of the feed
      page = parsed.data;
    }
    // As a page of the feed (feed.ts): the hub's answer is as of when it arrived.
    const readAt = new Date(clock()).toISOString();
    const at = readAt;
    await store.write(async (trx) => {
      const still = await trx
        .selectFrom('syncItems')
        .select('attentionCode')
        .where('entityType', '=', 'contact')
        .where('entityId', '=', localId)
        .executeTakeFirst();
      if (still?.attentionCode !== 'kept_at_hub') return;
      // The delete is settled: the hub's word on it is that the donor stays.
      await trx
        .updateTable('changeLog')
        .set({ syncedAt: at })
        .where('accountId', '=', accountId)
        .where('entityType', '=', 'contact')
        .where('entityId', '=', localId)
        .where('push', '=', 1)
        .where('syncedAt', 'is', null)
        .execute();
      await trx
        .deleteFrom('syncItems')
        .where('entityType', '=', 'contact')
        .where('entityId', '=', localId)
        .execute();
      await unlinkRemote(trx, 'contact', localId);
      if (page === null) return;
      // The gifts deleted here with the donor: their links go, so the hub's copies are written anew.
      for (const g of page.donations) {
        const local = await localIdFor(trx, accountId, 'donation', g.id);
        if (local === null) continue;
        const here = await trx
          .selectFrom('donations')
          .select('id')
          .where('id', '=', local)
          .executeTakeFirst();
        if (!here) await unlinkRemote(trx, 'donation', local);
      }
      const counts = emptyCounts();
      for (const name of LEDGER_KIND_NAMES)
        await LEDGER_APPLY[name]({
          trx,
          accountId,
          page,
          snapshots: {},
          readAt,
          at,
          counts,
          deferTotals: false,
        });
    });
    store.changes.note(null);
    restored++;
  }
  return restored;
}
