/**
 * A page of the hub's feed applied at a station, on a real SQLite file: reference data under the
 * hub's ids; the directory; another station's gift written as this station's pulled gift, in
 * the donor's totals and the limit check (the warning while typing and the flag on a gift
 * typed here); the same page again, and this station's own gifts coming back, write nothing
 * twice; a field changed here and not pushed yet is kept; a field this station pushed that a
 * later change at another station replaced is taken from the hub and said in a notice; a
 * contact deleted at the hub goes, unless something of it waits here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { getContact, updateContact } from '../../electron/domain/contacts/index.ts';
import { createDonation, giftCheck } from '../../electron/domain/donations/index.ts';
import { getRemoteSettings } from '../../electron/sync/remote/settings.ts';
import type { RemoteClient } from '../../electron/sync/net/http-client.ts';
import { createPacer } from '../../electron/sync/net/pacer.ts';
import { applyFeedPage, type FeedPage } from '../../electron/sync/station/apply-feed.ts';
import { readFeedOnce } from '../../electron/sync/station/feed.ts';
import { listNotices } from '../../electron/sync/station/notices.ts';
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
      donationAccounts: [{ id: 'dac_HUBPAC', name: 'PAC' }],
      totalRaised: 0,
      donationCount: 0,
      createdAt: '2026-11-01T00:00:00.000Z',
    },
  ],
  committees: [{ id: 'cmt_HUBFRIENDS', name: 'Friends of the Gala', createdAt: '2026-11-01T00:00:00.000Z' }],
  donationAccounts: [
    {
      id: 'dac_HUBPAC',
      name: 'PAC',
      limits: { perElection: 3300, perCycle: null, perYear: null, perDonor: null },
      createdAt: '2026-11-01T00:00:00.000Z',
    },
  ],
  customFields: [
    {
      id: 'cf_HUBSHIRT',
      name: 'Shirt size',
      type: 'text',
      archived: false,
      options: [],
      createdAt: '2026-11-01T00:00:00.000Z',
    },
  ],
};

function contact(
  id: string,
  fields: { firstName: string; lastName: string; email?: string; phone?: string },
  tags: string[] = [],
  customFields: Record<string, string> = {},
): FeedContact {
  return {
    id,
    firstName: fields.firstName,
    lastName: fields.lastName,
    email: fields.email ?? null,
    phone: fields.phone ?? null,
    organization: null,
    tags,
    customFields,
  } as unknown as FeedContact;
}

function gift(id: string, contactId: string, amount: number, extra: Partial<FeedGift> = {}): FeedGift {
  return {
    id,
    contactId,
    contactName: 'Maria Lopez',
    donationAmount: amount,
    donationDate: '2026-11-27T00:00:00.000Z',
    paymentMethod: 'check',
    campaignId: 'cmp_HUBGALA',
    campaignName: 'Gala 2026',
    notes: null,
    createdAt: '2026-11-27T19:00:00.000Z',
    stationId: 'stn_B',
    reference: null,
    committeeId: null,
    donationAccountId: 'dac_HUBPAC',
    electionType: null,
    electionYear: null,
    status: 'completed',
    ...FEED_GIFT_REST,
    ...extra,
  };
}

function page(p: Partial<FeedPage> & { cursor: string }): FeedPage {
  return { contacts: [], deletedContacts: [], donations: [], reference: null, more: false, ...p };
}

const MARIA = contact(
  'cnt_HUBMARIA',
  { firstName: 'Maria', lastName: 'Lopez', email: 'maria@example.org', phone: '555-0100' },
  [],
  { 'Shirt size': 'M' },
);
const GIFT_B = gift('don_HUBB1', 'cnt_HUBMARIA', 3000, {
  notes: 'Table B\ngd:don_STATIONB1',
  reference: 'gd:don_STATIONB1',
});
const OLD = '2000-01-01T00:00:00.000Z';

async function apply(p: FeedPage, readAt = new Date().toISOString()) {
  return applyFeedPage(store, accountId, p, readAt, new Date().toISOString());
}

async function mariaRow() {
  return store.db
    .selectFrom('contacts')
    .selectAll()
    .where('id', '=', 'cnt_HUBMARIA')
    .executeTakeFirstOrThrow();
}

async function giftsOf(contactId: string) {
  return store.db
    .selectFrom('donations')
    .selectAll()
    .where('contactId', '=', contactId)
    .orderBy('createdAt')
    .execute();
}

beforeAll(async () => {
  store = await openStore({ dataDir: dir });
  ctx = createContext(store);
  const at = new Date().toISOString();
  await store.write(async (trx) => {
    await insertStationAccount(trx, accountId, at);
  });
});
afterAll(async () => {
  await store?.close();
});

describe('a page of the feed at a station', () => {
  it('brings reference data, the donor and another station’s gift, counted in the donor’s totals', async () => {
    const counts = await apply(
      page({ reference: REFERENCE, contacts: [MARIA], donations: [GIFT_B], cursor: '7' }),
    );
    expect(counts).toMatchObject({ contacts: 1, gifts: 1, skipped: 0 });
    const pac = await store.db
      .selectFrom('donationAccounts')
      .selectAll()
      .where('id', '=', 'dac_HUBPAC')
      .executeTakeFirstOrThrow();
    expect(pac).toMatchObject({ accountId, limitPerElectionCents: 330_000 });
    const offered = await store.db
      .selectFrom('campaignDonationAccounts')
      .selectAll()
      .where('campaignId', '=', 'cmp_HUBGALA')
      .execute();
    expect(offered).toEqual([{ campaignId: 'cmp_HUBGALA', donationAccountId: 'dac_HUBPAC' }]);
    expect(await mariaRow()).toMatchObject({
      firstName: 'Maria',
      email: 'maria@example.org',
      totalCents: 300_000,
    });
    const shirt = await store.db
      .selectFrom('contactCustomValues')
      .selectAll()
      .where('contactId', '=', 'cnt_HUBMARIA')
      .execute();
    expect(shirt).toMatchObject([{ fieldId: 'cf_HUBSHIRT', valueText: 'M' }]);
    const friends = await store.db
      .selectFrom('committees')
      .select('name')
      .where('id', '=', 'cmt_HUBFRIENDS')
      .executeTakeFirst();
    expect(friends?.name).toBe('Friends of the Gala');
    const [g] = await giftsOf('cnt_HUBMARIA');
    expect(g).toMatchObject({ amountCents: 300_000, stationId: 'stn_B', donationAccountId: 'dac_HUBPAC' });
    // Nothing of it goes back: every row it logged is push = 0.
    const pushed = await store.db.selectFrom('changeLog').select('seq').where('push', '=', 1).execute();
    expect(pushed).toEqual([]);
    expect((await getRemoteSettings(store.db, accountId))?.hubCursor).toBe('7');
  });

  it('the same page again writes nothing twice', async () => {
    const counts = await apply(
      page({ reference: REFERENCE, contacts: [MARIA], donations: [GIFT_B], cursor: '7' }),
    );
    expect(counts).toMatchObject({ contacts: 0, gifts: 0 });
    expect(await giftsOf('cnt_HUBMARIA')).toHaveLength(1);
  });

  it('the limit check here sees the other station’s gift: the warning while typing, the flag on save', async () => {
    const check = await giftCheck(ctx, {
      accountId,
      contactId: 'cnt_HUBMARIA',
      donationAccountId: 'dac_HUBPAC',
      donationDate: '2026-11-27',
    });
    expect(check.limits[0]).toMatchObject({ limit: 3300, donorTotal: 3000, room: 300 });
    const mine = await createDonation(ctx, {
      accountId,
      contactId: 'cnt_HUBMARIA',
      donationAmount: 3000,
      donationDate: '2026-11-27',
      paymentMethod: 'cash',
      campaignId: 'cmp_HUBGALA',
      donationAccountId: 'dac_HUBPAC',
    });
    const flags = await store.db
      .selectFrom('limitFlags')
      .selectAll()
      .where('donationId', '=', mine.id)
      .execute();
    expect(flags).toHaveLength(1);
    expect((await mariaRow()).totalCents).toBe(600_000);

    // This station's own gift comes back from the hub (under the hub's id, with its reference): skipped.
    const back = gift('don_HUBA1', 'cnt_HUBMARIA', 3000, {
      stationId: 'stn_A',
      reference: `gd:${mine.id}`,
      notes: `gd:${mine.id}`,
    });
    const counts = await apply(page({ donations: [back], cursor: '9' }));
    expect(counts.gifts).toBe(0);
    expect(await giftsOf('cnt_HUBMARIA')).toHaveLength(2);
    expect((await mariaRow()).totalCents).toBe(600_000);
  });

  it('keeps a field changed here and not pushed yet', async () => {
    await updateContact(ctx, accountId, 'cnt_HUBMARIA', { primaryPhone: '555-0001' });
    const counts = await apply(page({ contacts: [{ ...MARIA, phone: '555-9999' }], cursor: '10' }));
    expect(counts.notices).toBe(0);
    expect((await mariaRow()).phone).toBe('555-0001');
  });

  it('says so when a field this station pushed was replaced by a later change elsewhere', async () => {
    // The edit above reached the hub (its change is synced), before this page was read.
    await store.write((trx) =>
      trx
        .updateTable('changeLog')
        .set({ syncedAt: OLD })
        .where('entityId', '=', 'cnt_HUBMARIA')
        .where('push', '=', 1)
        .execute(),
    );
    // A page read before that push landed is older than the hub's value: kept, no notice.
    const early = await apply(
      page({ contacts: [{ ...MARIA, phone: '555-0100' }], cursor: '11' }),
      '1999-01-01T00:00:00.000Z',
    );
    expect(early.notices).toBe(0);
    expect((await mariaRow()).phone).toBe('555-0001');

    const counts = await apply(page({ contacts: [{ ...MARIA, phone: '555-7777' }], cursor: '12' }));
    expect(counts.notices).toBe(1);
    expect((await mariaRow()).phone).toBe('555-7777');
    const notices = await listNotices(store.db, accountId);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      contactName: 'Maria Lopez',
      field: 'primaryPhone',
      mine: '555-0001',
      theirs: '555-7777',
    });
    expect(notices[0]!.message).toBe(
      "Your change to Maria Lopez's phone was replaced by a later change at another station: yours “555-0001”, now “555-7777”.",
    );
    // Once taken, the same value again says nothing more.
    expect((await apply(page({ contacts: [{ ...MARIA, phone: '555-7777' }], cursor: '13' }))).notices).toBe(
      0,
    );
  });

  it('a page the hub answered after this station’s edit was confirmed (a long poll, a busy hub) takes the later change made elsewhere', async () => {
    // The hub's copy of Maria, whole (as the feed sends a donor), with another station's tags.
    const theirs = { ...(await getContact(ctx, accountId, 'cnt_HUBMARIA')), tags: ['vip'] };
    await updateContact(ctx, accountId, 'cnt_HUBMARIA', { tags: ['volunteer'] });
    // The feed's request is out; meanwhile the engine's push of the edit is confirmed, another
    // station's edit of the same field lands at the hub, and the hub answers with it.
    const client: RemoteClient = {
      baseUrl: 'https://hub.invalid',
      keyId: (await getRemoteSettings(store.db, accountId))!.keyId,
      pacer: createPacer({ ratePerSecond: 1000 }),
      timeoutMs: 1000,
      async request(method, p) {
        expect([method, p]).toEqual(['GET', '/hub/changes']);
        await store.write((trx) =>
          trx
            .updateTable('changeLog')
            .set({ syncedAt: new Date().toISOString() })
            .where('entityId', '=', 'cnt_HUBMARIA')
            .where('push', '=', 1)
            .where('syncedAt', 'is', null)
            .execute(),
        );
        await new Promise((resolve) => setTimeout(resolve, 20));
        return {
          outcome: 'applied',
          sent: true,
          status: 200,
          body: page({ contacts: [theirs as unknown as FeedContact], cursor: '14' }),
          sentAt: Date.now(),
        };
      },
    };
    const step = await readFeedOnce(store, accountId, client, { wait: 25 });
    expect(step.ok ? 'ok' : JSON.stringify(step).slice(0, 600)).toBe('ok');
    expect(JSON.parse(String((await mariaRow()).tags))).toEqual(['vip']);
    // Tags are not among the fields a "replaced" notice names.
    expect((await listNotices(store.db, accountId)).filter((n) => n.field === 'tags')).toEqual([]);
  });

  it('a contact deleted at the hub goes, unless a gift of it waits here: then it goes back to the hub', async () => {
    const ana = contact('cnt_HUBANA', { firstName: 'Ana', lastName: 'Ruiz' });
    const ben = contact('cnt_HUBBEN', { firstName: 'Ben', lastName: 'Okafor' });
    await apply(page({ contacts: [ana, ben], cursor: '14' }));
    await createDonation(ctx, {
      accountId,
      contactId: 'cnt_HUBBEN',
      donationAmount: 20,
      donationDate: '2026-11-27',
      paymentMethod: 'cash',
      campaignId: 'cmp_HUBGALA',
    });
    const counts = await apply(page({ deletedContacts: ['cnt_HUBANA', 'cnt_HUBBEN'], cursor: '15' }));
    expect(counts).toMatchObject({ deleted: 1, skipped: 0 });
    const left = await store.db
      .selectFrom('contacts')
      .select('id')
      .where('id', 'in', ['cnt_HUBANA', 'cnt_HUBBEN'])
      .execute();
    expect(left.map((r) => r.id)).toEqual(['cnt_HUBBEN']);
    // The gift wins: Ben is no longer linked to the hub's deleted donor, and his create waits to go.
    const linked = await store.db
      .selectFrom('syncLinks')
      .select('localId')
      .where('localId', '=', 'cnt_HUBBEN')
      .execute();
    expect(linked).toEqual([]);
    const create = await store.db
      .selectFrom('changeLog')
      .select('op')
      .where('entityId', '=', 'cnt_HUBBEN')
      .where('push', '=', 1)
      .where('syncedAt', 'is', null)
      .execute();
    expect(create.map((c) => c.op)).toContain('create');
  });

  it('a contact this station created coming back (its reference tag) is not added twice', async () => {
    const { createContact } = await import('../../electron/domain/contacts/index.ts');
    const mine = await createContact(ctx, {
      accountId,
      firstName: 'Chen',
      lastName: 'Wu',
      primaryEmail: 'chen@example.org',
    });
    const back = contact('cnt_HUBCHEN', { firstName: 'Chen', lastName: 'Wu', email: 'chen@example.org' }, [
      `gd:${mine.id}`,
    ]);
    await apply(page({ contacts: [back], cursor: '16' }));
    const chens = await store.db.selectFrom('contacts').select('id').where('lastName', '=', 'Wu').execute();
    expect(chens.map((r) => r.id)).toEqual([mine.id]);
  });

  it('this station’s own donor, deleted at the hub and brought back there by another station: one page brings both, the donor stays', async () => {
    const { createContact } = await import('../../electron/domain/contacts/index.ts');
    const { linkRemote } = await import('../../electron/sync/outbox/links.ts');
    const mine = await createContact(ctx, {
      accountId,
      firstName: 'Robert',
      lastName: 'Brown',
      primaryEmail: 'rb.own@example.org',
    });
    await store.write(async (trx) => {
      await linkRemote(trx, {
        accountId,
        entityType: 'contact',
        localId: mine.id,
        remoteId: 'cnt_HUBRB1',
        source: 'pushed',
        at: OLD,
      });
      await trx.updateTable('changeLog').set({ syncedAt: OLD }).where('entityId', '=', mine.id).execute();
    });
    // The hub deleted him (cnt_HUBRB1), then another station brought him back under this
    // station's reference (cnt_HUBRB2): the page carries the donor before the deletion.
    const again = contact(
      'cnt_HUBRB2',
      { firstName: 'Robert', lastName: 'Brown', email: 'rb.own@example.org' },
      [`gd:${mine.id}`],
    );
    await apply(
      page({
        contacts: [again],
        deletedContacts: ['cnt_HUBRB1'],
        donations: [gift('don_HUBRB', 'cnt_HUBRB2', 19.99)],
        cursor: '17',
      }),
    );
    const browns = await store.db
      .selectFrom('contacts')
      .select('id')
      .where('email', '=', 'rb.own@example.org')
      .execute();
    expect(browns.map((r) => r.id)).toEqual(['cnt_HUBRB2']);
    expect((await giftsOf('cnt_HUBRB2')).map((g) => g.amountCents)).toEqual([1999]);
  });

  it('one donor twice here (the feed’s copy, then this station’s own): the hub’s answer makes them one', async () => {
    const { createContact } = await import('../../electron/domain/contacts/index.ts');
    const { linkRemote, localIdFor } = await import('../../electron/sync/outbox/links.ts');
    const dana = contact('cnt_HUBDANA', { firstName: 'Dana', lastName: 'Kim', email: 'dana@example.org' });
    await apply(page({ contacts: [dana], donations: [gift('don_HUBD1', 'cnt_HUBDANA', 40)], cursor: '17' }));
    const mine = await createContact(ctx, {
      accountId,
      firstName: 'Dana',
      lastName: 'Kim',
      primaryEmail: 'dana@example.org',
    });
    // The engine writes the hub's answer to this station's create: the donor the hub has.
    await store.write((trx) =>
      linkRemote(trx, {
        accountId,
        entityType: 'contact',
        localId: mine.id,
        remoteId: 'cnt_HUBDANA',
        source: 'pushed',
        at: new Date().toISOString(),
      }),
    );
    const danas = await store.db
      .selectFrom('contacts')
      .select(['id', 'totalCents'])
      .where('lastName', '=', 'Kim')
      .execute();
    expect(danas).toEqual([{ id: mine.id, totalCents: 4000 }]);
    expect((await giftsOf(mine.id)).map((g) => g.stationId)).toEqual(['stn_B']);
    expect(await localIdFor(store.db, accountId, 'contact', 'cnt_HUBDANA')).toBe(mine.id);
    // The same answer marks the create done (as the engine does); the feed's next word on that
    // donor goes to this station's own.
    await store.write((trx) =>
      trx.updateTable('changeLog').set({ syncedAt: OLD }).where('entityId', '=', mine.id).execute(),
    );
    await apply(page({ contacts: [{ ...dana, organization: 'Kim & Co' } as typeof dana], cursor: '18' }));
    const row = await store.db
      .selectFrom('contacts')
      .select('organization')
      .where('id', '=', mine.id)
      .executeTakeFirstOrThrow();
    expect(row.organization).toBe('Kim & Co');
  });

  it('another Chen Wei of the hub (no email) while this station’s own Chen Wei waits to be sent: both here, the hub’s with its gift', async () => {
    const { createContact } = await import('../../electron/domain/contacts/index.ts');
    const mine = await createContact(ctx, { accountId, firstName: 'Chen', lastName: 'Wei' });
    // The hub never takes a create without an email for one of its donors: its Chen Wei is
    // another person, and the feed brings him with a gift typed at the hub.
    const theirs = contact('cnt_HUBCHENWEI', { firstName: 'Chen', lastName: 'Wei' });
    const counts = await apply(
      page({
        contacts: [theirs],
        donations: [gift('don_HUBCW1', 'cnt_HUBCHENWEI', 25, { stationId: null })],
        cursor: '19',
      }),
    );
    expect(counts).toMatchObject({ held: 0 });
    const weis = await store.db
      .selectFrom('contacts')
      .select('id')
      .where('lastName', '=', 'Wei')
      .orderBy('id')
      .execute();
    expect(weis.map((r) => r.id).sort()).toEqual(['cnt_HUBCHENWEI', mine.id].sort());
    expect((await giftsOf('cnt_HUBCHENWEI')).map((g) => g.amountCents)).toEqual([2500]);
    const held = await store.db
      .selectFrom('hubHeldGifts')
      .select('hubId')
      .where('hubId', '=', 'don_HUBCW1')
      .execute();
    expect(held).toEqual([]);
  });

  it('a donor this station edited, the page read after the hub took the edit but before its answer was written here: the hub’s times', async () => {
    const noor = {
      ...contact('cnt_HUBNOOR', { firstName: 'Noor', lastName: 'Haddad', email: 'noor@example.org' }),
      createdAt: '2026-11-27T18:00:00.000Z',
      updatedAt: '2026-11-27T18:00:00.000Z',
    } as FeedContact;
    await apply(page({ contacts: [noor], cursor: '20' }));
    await updateContact(ctx, accountId, 'cnt_HUBNOOR', { quickNotes: 'sat at table 9' });
    // The hub took the edit; its answer is written here after the next page was read.
    await store.write((trx) =>
      trx
        .updateTable('changeLog')
        .set({ syncedAt: '2999-01-01T00:00:00.000Z' })
        .where('entityId', '=', 'cnt_HUBNOOR')
        .where('push', '=', 1)
        .execute(),
    );
    const edited = {
      ...noor,
      quickNotes: 'sat at table 9',
      updatedAt: '2026-11-27T19:30:00.000Z',
    } as FeedContact;
    await apply(page({ contacts: [edited], cursor: '21' }));
    const row = await store.db
      .selectFrom('contacts')
      .select(['quickNotes', 'createdAt', 'updatedAt'])
      .where('id', '=', 'cnt_HUBNOOR')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      quickNotes: 'sat at table 9',
      createdAt: '2026-11-27T18:00:00.000Z',
      updatedAt: '2026-11-27T19:30:00.000Z',
    });
  });

  it('a donor’s gifts of one day, the hub’s and this station’s: newest entered first, as the hub lists them', async () => {
    const { listContactDonations } = await import('../../electron/domain/contacts/index.ts');
    const ivy = contact('cnt_HUBIVY', { firstName: 'Ivy', lastName: 'Stone', email: 'ivy@example.org' });
    // The hub's gift (its id sorts after any this station makes) was entered before this station's.
    await apply(
      page({
        contacts: [ivy],
        donations: [gift('don_HUBZZIVY', 'cnt_HUBIVY', 25, { donationDate: '2026-11-27T00:00:00.000Z' })],
        cursor: '22',
      }),
    );
    const mine = await createDonation(ctx, {
      accountId,
      contactId: 'cnt_HUBIVY',
      donationAmount: 19.99,
      donationDate: '2026-11-27',
      paymentMethod: 'cash',
      campaignId: 'cmp_HUBGALA',
    });
    const list = await listContactDonations(ctx, accountId, 'cnt_HUBIVY', { accountId });
    expect(list.donations.map((d) => d.id)).toEqual([mine.id, 'don_HUBZZIVY']);
  });
});
