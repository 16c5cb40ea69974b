/**
 * Another station's gift to a donor this station typed too, arriving while this station's own
 * create of that donor is not answered yet (the same new donor at two stations at once: the
 * hub made the donor from the other station's create, and will answer ours with it). The feed
 * writes the hub's copy of the donor, and the answer makes the two one (the copy merges into
 * ours) — and the other station's gift to her must not be lost at this station: once our
 * donor is linked and the feed read on from where this station stands, the gift is here, in
 * her totals and the limit check, as every other station's gift is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { applyFeedPage, type FeedPage } from '../../electron/sync/station/apply-feed.ts';
import { tempDir } from '../helpers/server.ts';
import { FEED_GIFT_REST } from '../helpers/feed-gift.ts';
import { insertStationAccount } from '../helpers/station-account.ts';

type FeedContact = FeedPage['contacts'][number];
type FeedGift = FeedPage['donations'][number];

let store: Store;
let ctx: DomainContext;
const accountId = newId('account');
const dir = tempDir('giftdesk-station-');

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

/** The hub's donor, made from the other station's create (its reference tag names that station's record). */
const MARIA_AT_HUB = {
  id: 'cnt_HUBMARIA',
  firstName: 'Maria',
  lastName: 'Lopez',
  email: 'maria.lopez@example.org',
  phone: null,
  organization: null,
  tags: ['gd:cnt_STATIONBMARIA'],
  customFields: {},
} as unknown as FeedContact;

const GIFT_FROM_B: FeedGift = {
  id: 'don_HUBB1',
  contactId: 'cnt_HUBMARIA',
  contactName: 'Maria Lopez',
  donationAmount: 25,
  donationDate: '2026-11-27T00:00:00.000Z',
  paymentMethod: 'credit_card',
  campaignId: 'cmp_HUBGALA',
  campaignName: 'Gala 2026',
  notes: 'gd:don_STATIONB1',
  createdAt: '2026-11-27T19:00:00.000Z',
  stationId: 'stn_B',
  reference: 'gd:don_STATIONB1',
  committeeId: null,
  donationAccountId: null,
  electionType: null,
  electionYear: null,
  status: 'completed',
  ...FEED_GIFT_REST,
};

const page = (p: Partial<FeedPage> & { cursor: string }): FeedPage => ({
  contacts: [],
  deletedContacts: [],
  donations: [],
  reference: null,
  more: false,
  ...p,
});

beforeAll(async () => {
  store = await openStore({ dataDir: dir });
  ctx = createContext(store);
  const at = new Date().toISOString();
  await store.write(async (trx) => {
    await insertStationAccount(trx, accountId, at);
  });
  await applyFeedPage(store, accountId, page({ reference: REFERENCE, cursor: '1' }), at, at);
});
afterAll(async () => {
  await store?.close();
});

describe('another station’s gift to a donor this station typed too, before our create is answered', () => {
  it('is here once our donor is linked to the hub’s', async () => {
    // Table A types Maria Lopez; its create is on its way to the hub, not answered yet.
    const ours = await createContact(ctx, {
      accountId,
      firstName: 'Maria',
      lastName: 'Lopez',
      primaryEmail: 'maria.lopez@example.org',
    });
    // The feed brings the hub's Maria (made from table B's create) and table B's gift to her.
    const now = new Date().toISOString();
    await applyFeedPage(
      store,
      accountId,
      page({ contacts: [MARIA_AT_HUB], donations: [GIFT_FROM_B], cursor: '2' }),
      now,
      now,
    );
    // Our create is answered with the hub's Maria: the engine links ours to her.
    await store.write((trx) =>
      linkRemote(trx, {
        accountId,
        entityType: 'contact',
        localId: ours.id,
        remoteId: 'cnt_HUBMARIA',
        source: 'found',
        at: new Date().toISOString(),
      }),
    );
    // The feed goes on from where this station stands: the page again if it did not move past it.
    const remote = await store.db
      .selectFrom('syncRemotes')
      .select('hubCursor')
      .where('accountId', '=', accountId)
      .executeTakeFirstOrThrow();
    const next =
      remote.hubCursor === '2'
        ? page({ cursor: '2' })
        : page({ contacts: [MARIA_AT_HUB], donations: [GIFT_FROM_B], cursor: '2' });
    const later = new Date().toISOString();
    await applyFeedPage(store, accountId, next, later, later);

    const gifts = await store.db
      .selectFrom('donations')
      .select(['contactId', 'amountCents', 'stationId'])
      .where('accountId', '=', accountId)
      .execute();
    expect(gifts, 'table B’s $25 gift at table A').toEqual([
      { contactId: ours.id, amountCents: 2500, stationId: 'stn_B' },
    ]);
  });
});
