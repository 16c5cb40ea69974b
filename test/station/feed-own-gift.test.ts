/**
 * This station's own gift coming back in the hub's feed, on a real SQLite file: while its
 * create's answer is not written down here, the station's values stay and the hub's wait
 * (held, not counted as a gift waiting for a record); once the answer links it, the hub's
 * values are taken — its marks, its flags under the hub's ids, "sent to HQ". Another station's
 * gift voided at the hub comes through voided: out of the donor's total and the count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createContext, type DomainContext, readCounters } from '../../electron/domain/index.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { applyFeedPage, type FeedPage } from '../../electron/sync/station/apply-feed.ts';
import { applyHeldGifts, countHeldGifts } from '../../electron/sync/station/feed-gifts.ts';
import { FEED_GIFT_REST } from '../helpers/feed-gift.ts';
import { tempDir } from '../helpers/server.ts';
import { insertStationAccount } from '../helpers/station-account.ts';

type FeedGift = FeedPage['donations'][number];
let store: Store;
let ctx: DomainContext;
const accountId = newId('account');
const at = () => new Date().toISOString();

beforeAll(async () => {
  store = await openStore({ dataDir: tempDir('giftdesk-station-') });
  ctx = createContext(store);
  await store.write(async (trx) => {
    await insertStationAccount(trx, accountId, at());
    await trx
      .insertInto('campaigns')
      .values({ id: 'cmp_HUBGALA', accountId, name: 'Gala', createdAt: at() })
      .execute();
  });
});
afterAll(async () => {
  await store?.close();
});

const page = (donations: FeedGift[], cursor: string): FeedPage => ({
  contacts: [],
  deletedContacts: [],
  reference: null,
  donations,
  cursor,
  more: false,
});

function hubGift(id: string, contactId: string, extra: Partial<FeedGift>): FeedGift {
  return {
    id,
    contactId,
    contactName: 'Robert Brown',
    donationAmount: 19.99,
    donationDate: '2026-11-27T00:00:00.000Z',
    paymentMethod: 'cash',
    campaignId: 'cmp_HUBGALA',
    campaignName: 'Gala',
    notes: null,
    createdAt: '2026-11-27T19:00:00.000Z',
    stationId: 'stn_A',
    reference: null,
    committeeId: null,
    donationAccountId: null,
    electionType: 'general',
    electionYear: 2026,
    status: 'completed',
    ...FEED_GIFT_REST,
    ...extra,
  };
}

const row = (id: string) =>
  store.db.selectFrom('donations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const total = async (id: string) =>
  Number(
    (
      await store.db
        .selectFrom('contacts')
        .select('totalCents')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).totalCents,
  );

describe('this station’s own gift coming back', () => {
  it('keeps the station’s values until its create is confirmed, then takes the hub’s', async () => {
    const donor = await createContact(ctx, { accountId, firstName: 'Robert', lastName: 'Brown' });
    const body = {
      accountId,
      contactId: donor.id,
      donationAmount: 19.99,
      donationDate: '2026-11-27',
      paymentMethod: 'cash' as const,
      campaignId: 'cmp_HUBGALA',
    };
    const mine = await createDonation(ctx, body);
    const twin = await createDonation(ctx, body);
    expect((await row(mine.id)).stationId).toBe('stn_A');
    const back = hubGift('don_HUBA1', donor.id, {
      notes: `gd:${mine.id}`,
      reference: `gd:${mine.id}`,
      createdAt: mine.createdAt,
      thankYouSent: true,
      thankYouSentDate: '2026-11-28T00:00:00.000Z',
      sentToHq: true,
      history: [{ id: 'hst_HUB1', action: 'flagged', note: null, detail: null, createdAt: mine.createdAt }],
    });
    await applyFeedPage(store, accountId, page([back], '5'), at(), at());
    expect((await row(mine.id)).thankYouSent).toBe(0);
    expect(await countHeldGifts(store.db, accountId)).toBe(0);
    // The create's answer: linked, its change done.
    await store.write(async (trx) => {
      await linkRemote(trx, {
        accountId,
        entityType: 'donation',
        localId: mine.id,
        remoteId: 'don_HUBA1',
        source: 'pushed',
        at: at(),
      });
      await trx
        .updateTable('changeLog')
        .set({ syncedAt: at() })
        .where('entityType', '=', 'donation')
        .where('entityId', '=', mine.id)
        .execute();
      await applyHeldGifts(trx, accountId, at());
    });
    const r = await row(mine.id);
    expect({ thanked: r.thankYouSent, id: r.id, station: r.stationId, createdAt: r.createdAt }).toEqual({
      thanked: 1,
      id: mine.id,
      station: 'stn_A',
      createdAt: mine.createdAt,
    });
    expect(await store.db.selectFrom('hubSentGifts').select('donationId').execute()).toEqual([
      { donationId: mine.id },
    ]);
    expect(
      (
        await store.db.selectFrom('donationHistory').select('id').where('donationId', '=', mine.id).execute()
      ).map((h) => h.id),
    ).toEqual(['hst_HUB1']);
    expect(await store.db.selectFrom('hubHeldGifts').select('hubId').execute()).toEqual([]);
    // The twin, still unconfirmed, is untouched; both count.
    expect((await row(twin.id)).thankYouSent).toBe(0);
    expect(await total(donor.id)).toBe(3998);
  });

  it('another station’s gift voided at the hub comes through voided, out of the totals and the count', async () => {
    const donor = await createContact(ctx, { accountId, firstName: 'Robert', lastName: 'Brown' });
    const before = await readCounters(store.db, accountId);
    const theirs = hubGift('don_HUBB7', donor.id, {
      stationId: 'stn_B',
      notes: 'gd:don_B7',
      reference: 'gd:don_B7',
    });
    await applyFeedPage(store, accountId, page([theirs], '6'), at(), at());
    expect((await row('don_HUBB7')).status).toBe('completed');
    expect(await total(donor.id)).toBe(1999);
    expect((await readCounters(store.db, accountId)).donations).toBe(before.donations + 1);
    await applyFeedPage(store, accountId, page([{ ...theirs, status: 'voided' }], '7'), at(), at());
    expect((await row('don_HUBB7')).status).toBe('voided');
    expect(await total(donor.id)).toBe(0);
    expect((await readCounters(store.db, accountId)).donations).toBe(before.donations);
    // A void that came first (the gift was never here) is written voided and never counted.
    const late = hubGift('don_HUBB8', donor.id, {
      stationId: 'stn_B',
      status: 'voided',
      notes: 'gd:don_B8',
      reference: 'gd:don_B8',
    });
    await applyFeedPage(store, accountId, page([late], '8'), at(), at());
    expect((await row('don_HUBB8')).status).toBe('voided');
    expect((await readCounters(store.db, accountId)).donations).toBe(before.donations);
    expect(await total(donor.id)).toBe(0);
  });
});
