/**
 * Nothing the hub's feed brings is dropped at a station: a gift naming a donor that is not
 * here (or not linked) yet is held, the cursor moves on, and the gift is written — in the
 * donor's totals — once the donor is here: by a later page, or by the push answer that links
 * this station's own donor to the hub's id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { getRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { applyFeedPage, type FeedPage } from '../../electron/sync/station/apply-feed.ts';
import { applyHeldGifts, countHeldGifts } from '../../electron/sync/station/feed-gifts.ts';
import { markAllUnsent } from '../../electron/sync/outbox/resend.ts';
import { tempDir } from '../helpers/server.ts';
import { FEED_GIFT_REST } from '../helpers/feed-gift.ts';
import { insertStationAccount } from '../helpers/station-account.ts';

type FeedGift = FeedPage['donations'][number];
type FeedContact = FeedPage['contacts'][number];

let store: Store;
let ctx: DomainContext;
const accountId = newId('account');
const dir = tempDir('giftdesk-held-');
const at = () => new Date().toISOString();

const REFERENCE: NonNullable<FeedPage['reference']> = {
  campaigns: [
    {
      id: 'cmp_HUBGALA',
      name: 'Gala 2026',
      donationAccounts: [],
      totalRaised: 0,
      donationCount: 0,
      createdAt: '2026-11-01T00:00:00.000Z',
    },
  ],
  committees: [],
  donationAccounts: [],
  customFields: [],
};

function gift(id: string, contactId: string, amount: number): FeedGift {
  return {
    id,
    contactId,
    contactName: 'Someone',
    donationAmount: amount,
    donationDate: '2026-11-27T00:00:00.000Z',
    paymentMethod: 'cash',
    campaignId: 'cmp_HUBGALA',
    campaignName: 'Gala 2026',
    notes: null,
    createdAt: '2026-11-27T19:00:00.000Z',
    stationId: 'stn_B',
    reference: null,
    committeeId: null,
    donationAccountId: null,
    electionType: null,
    electionYear: null,
    status: 'completed',
    ...FEED_GIFT_REST,
  };
}

function page(p: Partial<FeedPage> & { cursor: string }): FeedPage {
  return { contacts: [], deletedContacts: [], donations: [], reference: null, more: false, ...p };
}

const apply = (p: FeedPage) => applyFeedPage(store, accountId, p, at(), at());

async function totalOf(contactId: string): Promise<number> {
  const r = await store.db
    .selectFrom('contacts')
    .select('totalCents')
    .where('id', '=', contactId)
    .executeTakeFirstOrThrow();
  return Number(r.totalCents);
}

beforeAll(async () => {
  store = await openStore({ dataDir: dir });
  ctx = createContext(store);
  await store.write(async (trx) => {
    await insertStationAccount(trx, accountId, at());
  });
  await apply(page({ reference: REFERENCE, cursor: '1' }));
});
afterAll(async () => {
  await store?.close();
});

describe('a gift of the feed whose donor is not here yet', () => {
  it('is held while the cursor moves on, and written when a later page brings its donor', async () => {
    const counts = await apply(page({ donations: [gift('don_HUBX1', 'cnt_HUBLEE', 250)], cursor: '2' }));
    expect(counts).toMatchObject({ gifts: 0, held: 1 });
    expect((await getRemoteSettings(store.db, accountId))?.hubCursor).toBe('2');
    expect(await countHeldGifts(store.db, accountId)).toBe(1);
    await apply(page({ cursor: '3' }));
    expect(await countHeldGifts(store.db, accountId)).toBe(1);
    const lee = { id: 'cnt_HUBLEE', firstName: 'Ann', lastName: 'Lee', tags: [], customFields: {} };
    const later = await apply(page({ contacts: [lee as unknown as FeedContact], cursor: '4' }));
    expect(later.gifts).toBe(1);
    expect(await countHeldGifts(store.db, accountId)).toBe(0);
    expect(await totalOf('cnt_HUBLEE')).toBe(25_000);
  });

  it('this station’s own donor, its create’s answer lost: the gift is written when the donor is linked', async () => {
    const mine = await createContact(ctx, { accountId, firstName: 'Omar', lastName: 'Haddad' });
    await apply(page({ donations: [gift('don_HUBX2', 'cnt_HUBOMAR', 40)], cursor: '5' }));
    expect(await countHeldGifts(store.db, accountId)).toBe(1);
    expect(await totalOf(mine.id)).toBe(0);
    // What the push answer (or the reconciliation) does when it links the donor.
    await store.write(async (trx) => {
      await linkRemote(trx, {
        accountId,
        entityType: 'contact',
        localId: mine.id,
        remoteId: 'cnt_HUBOMAR',
        source: 'found',
        at: at(),
      });
      expect(await applyHeldGifts(trx, accountId, at())).toBe(1);
    });
    expect(await countHeldGifts(store.db, accountId)).toBe(0);
    expect(await totalOf(mine.id)).toBe(4_000);
    // The same gift on a later page is not written twice.
    expect(
      (await apply(page({ donations: [gift('don_HUBX2', 'cnt_HUBOMAR', 40)], cursor: '6' }))).gifts,
    ).toBe(0);
    expect(await totalOf(mine.id)).toBe(4_000);
  });

  it('a held gift whose donor the hub deleted goes with it', async () => {
    await apply(page({ donations: [gift('don_HUBX3', 'cnt_HUBGONE', 10)], cursor: '7' }));
    expect(await countHeldGifts(store.db, accountId)).toBe(1);
    await apply(page({ deletedContacts: ['cnt_HUBGONE'], cursor: '8' }));
    expect(await countHeldGifts(store.db, accountId)).toBe(0);
  });
});

describe('sending everything again (the hub lost for good)', () => {
  it('this station’s own changes go again, unlinked; what the feed brought stays and is never sent', async () => {
    await apply(page({ donations: [gift('don_HUBX4', 'cnt_HUBNOBODY', 5)], cursor: '9' }));
    const before = await store.db
      .selectFrom('changeLog')
      .select(['push', 'syncedAt'])
      .where('accountId', '=', accountId)
      .execute();
    const own = before.filter((c) => c.push === 1).length;
    expect(own).toBeGreaterThan(0);
    await store.write((trx) =>
      trx
        .updateTable('changeLog')
        .set({ syncedAt: '2026-11-27T20:00:00.000Z' })
        .where('push', '=', 1)
        .execute(),
    );
    const n = await store.write((trx) => markAllUnsent(trx, accountId));
    expect(n).toBe(own);
    const after = await store.db
      .selectFrom('changeLog')
      .select(['push', 'syncedAt'])
      .where('accountId', '=', accountId)
      .execute();
    expect(after.filter((c) => c.push === 1 && c.syncedAt === null)).toHaveLength(own);
    expect(after.filter((c) => c.push === 0)).toHaveLength(before.filter((c) => c.push === 0).length);
    const links = await store.db
      .selectFrom('syncLinks')
      .select('entityType')
      .where('accountId', '=', accountId)
      .where('entityType', 'in', ['contact', 'donation'])
      .execute();
    expect(links).toEqual([]);
    expect(await countHeldGifts(store.db, accountId)).toBe(0);
    // The other stations' gifts stay in the donors' totals.
    expect(await totalOf('cnt_HUBLEE')).toBe(25_000);
  });
});
