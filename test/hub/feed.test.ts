/**
 * The hub's change feed (GET /api/v1/hub/changes) over real HTTPS: the first read brings the
 * reference lists and everything so far; a cursor brings only what changed after it; gifts
 * carry their station of origin and the typing station's reference; deleted donors come as
 * ids; reference lists come again when one of them (or a custom field) changed; pages are
 * bounded with `more`; a long poll is held until a write (through the hub, or straight to its
 * database by another writer) and answers at once when the server closes.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubChanges } from '#shared/schemas/hub.ts';
import { createContact } from '../../electron/domain/contacts/create.ts';
import { createCustomField } from '../../electron/domain/contacts/custom-fields.ts';
import {
  expectError,
  expectStatus,
  giftBody,
  makeCampaign,
  makeContact,
  makeDonationAccount,
} from '../helpers/api-fixtures.ts';
import { linkRemote, noteSentToHq } from '../../electron/sync/outbox/links.ts';
import { TEST_ENGINE } from '../helpers/server.ts';
import { type Hub, type Station, startHub } from './hub-rig.ts';

let hub: Hub;
let st: Station;
beforeAll(async () => {
  hub = await startHub();
  st = await hub.join('Table A');
});
afterAll(async () => {
  await hub?.close();
});

async function changes(s: Station, query = ''): Promise<HubChanges> {
  return HubChanges.parse(expectStatus(await s.request('GET', `/api/v1/hub/changes${query}`), 200));
}

/** Reads from `after` until `more` is false; everything seen, and the last cursor. */
async function readAll(s: Station, after: string, limit = 100) {
  const pages: HubChanges[] = [];
  let cursor = after;
  for (;;) {
    const page = await changes(s, `?after=${encodeURIComponent(cursor)}&limit=${limit}`);
    pages.push(page);
    cursor = page.cursor;
    if (!page.more) return { pages, cursor };
  }
}

describe('the feed', () => {
  let cursor = '';

  it('the first read brings the reference lists and everything so far', async () => {
    const campaign = await makeCampaign(hub, 'Gala 2026');
    const maria = await makeContact(hub, {
      firstName: 'Maria',
      lastName: 'Lopez',
      primaryEmail: 'maria@example.org',
    });
    const atHub = expectStatus(
      await hub.request('POST', '/api/v1/donations', giftBody(hub, maria.id, { campaignId: campaign.id })),
      201,
    );
    const { pages, cursor: c } = await readAll(st, '');
    cursor = c;
    const first = pages[0]!;
    expect(first.reference?.campaigns.map((x) => x.id)).toContain(campaign.id);
    expect(first.reference?.customFields).toEqual([]);
    const contacts = pages.flatMap((p) => p.contacts);
    expect(contacts.find((x) => x.id === maria.id)).toMatchObject({
      firstName: 'Maria',
      email: 'maria@example.org',
    });
    const gift = pages.flatMap((p) => p.donations).find((d) => d.id === atHub.id);
    expect(gift).toMatchObject({
      contactId: maria.id,
      contactName: 'Maria Lopez',
      campaignId: campaign.id,
      campaignName: 'Gala 2026',
      donationAmount: 50,
      stationId: null,
      reference: null,
      status: 'completed',
    });
  });

  it('after the cursor: nothing when nothing changed, and no reference lists', async () => {
    const page = await changes(st, `?after=${cursor}`);
    expect(page).toMatchObject({
      contacts: [],
      donations: [],
      deletedContacts: [],
      reference: null,
      more: false,
    });
    expect(page.cursor).toBe(cursor);
  });

  it("a station's gift carries its station and the station's reference", async () => {
    const donor = await makeContact(st, { firstName: 'Wen', lastName: 'Li' });
    const campaign = await makeCampaign(hub, 'Pledge wall');
    const gift = expectStatus(
      await st.request(
        'POST',
        '/api/v1/donations',
        giftBody(st, donor.id, {
          campaignId: campaign.id,
          notes: 'table A\ngd:don_station1local',
          paymentMethod: 'cash',
        }),
      ),
      201,
    );
    const stored = await hub.store.db
      .selectFrom('donations')
      .select('stationId')
      .where('id', '=', gift.id)
      .executeTakeFirstOrThrow();
    expect(stored.stationId).toBe(st.stationId);
    const { pages, cursor: c } = await readAll(st, cursor);
    cursor = c;
    expect(pages.flatMap((p) => p.contacts).map((x) => x.id)).toContain(donor.id);
    expect(pages.flatMap((p) => p.donations).find((d) => d.id === gift.id)).toMatchObject({
      stationId: st.stationId,
      reference: 'gd:don_station1local',
      paymentMethod: 'cash',
    });
    // A campaign was made since the cursor: the lists come again.
    expect(pages[0]!.reference?.campaigns.map((x) => x.id)).toContain(campaign.id);
  });

  it('a custom field defined since the cursor brings the lists again', async () => {
    await createCustomField(hub.ctx, { accountId: hub.accountId, name: 'Table', type: 'text' });
    const page = await changes(st, `?after=${cursor}`);
    expect(page.reference?.customFields.map((f) => f.name)).toEqual(['Table']);
    cursor = page.cursor;
    expect((await changes(st, `?after=${cursor}`)).reference).toBeNull();
  });

  it('a deleted donor comes as an id', async () => {
    const gone = await makeContact(hub, { firstName: 'Temp', lastName: 'Donor' });
    expectStatus(await hub.request('DELETE', `/api/v1/contacts/${gone.id}?accountId=${hub.accountId}`), 200);
    const { pages, cursor: c } = await readAll(st, cursor);
    cursor = c;
    expect(pages.flatMap((p) => p.deletedContacts)).toContain(gone.id);
    expect(pages.flatMap((p) => p.contacts).map((x) => x.id)).not.toContain(gone.id);
  });

  it('pages are bounded: `more` until everything after the cursor was read, each change once', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++)
      made.push((await makeContact(hub, { firstName: `Page${i}`, lastName: 'Donor' })).id);
    const { pages, cursor: c } = await readAll(st, cursor, 2);
    cursor = c;
    expect(pages.length).toBe(3);
    expect(pages.slice(0, 2).every((p) => p.more && p.contacts.length === 2)).toBe(true);
    expect(pages.flatMap((p) => p.contacts).map((x) => x.id)).toEqual(made);
  });

  it('refuses a cursor it did not give: 400 naming `after`', async () => {
    expectError(await st.request('GET', '/api/v1/hub/changes?after=yesterday'), 400, { field: 'after' });
    expectError(await st.request('GET', '/api/v1/hub/changes?wait=31'), 400, { field: 'wait' });
    expectError(await st.request('GET', '/api/v1/hub/changes?limit=2001'), 400, { field: 'limit' });
  });

  it('a long poll is held until a gift is written through the hub, then brings it', async () => {
    const donor = await makeContact(hub, { firstName: 'Poll', lastName: 'Donor' });
    cursor = (await readAll(st, cursor)).cursor;
    const held = st.request('GET', `/api/v1/hub/changes?after=${cursor}&wait=30`);
    await expect.poll(() => hub.running.hub!.feed.waiting).toBe(1);
    const campaign = (await changes(st, '')).reference!.campaigns[0]!;
    const gift = expectStatus(
      await hub.request('POST', '/api/v1/donations', giftBody(hub, donor.id, { campaignId: campaign.id })),
      201,
    );
    const page = HubChanges.parse(expectStatus(await held, 200));
    expect(page.donations.map((d) => d.id)).toEqual([gift.id]);
    cursor = page.cursor;
  });

  it('a long poll also wakes on a write another writer made to the database', async () => {
    const held = st.request('GET', `/api/v1/hub/changes?after=${cursor}&wait=30`);
    await expect.poll(() => hub.running.hub!.feed.waiting).toBe(1);
    // Straight through the domain: no request to this server kicks the feed.
    const c = await createContact(hub.ctx, { accountId: hub.accountId, firstName: 'Side', lastName: 'Door' });
    const page = HubChanges.parse(expectStatus(await held, 200));
    expect(page.contacts.map((x) => x.id)).toEqual([c.id]);
    cursor = page.cursor;
  });

  it('a long poll with nothing to bring answers empty when its time is up', async () => {
    const page = await changes(st, `?after=${cursor}&wait=1`);
    expect(page).toMatchObject({ contacts: [], donations: [], reference: null, cursor });
  });
});

describe.skipIf(TEST_ENGINE !== 'postgres')('on PostgreSQL, a change that commits late', () => {
  it('is never passed over: the read waits for the writes in flight', async () => {
    let cursor = (await readAll(st, '')).cursor;
    const late = await makeContact(hub, { firstName: 'Late', lastName: 'Commit' });
    cursor = (await readAll(st, cursor)).cursor;
    // A write that has taken its sequence number and not committed yet…
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let logged!: () => void;
    const didLog = new Promise<void>((resolve) => (logged = resolve));
    const open = hub.store.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('changeLog')
        .values({
          accountId: hub.accountId,
          entityType: 'contact',
          entityId: late.id,
          op: 'update',
          fields: null,
          push: 0,
          createdAt: new Date().toISOString(),
        })
        .execute();
      logged();
      await held;
    });
    await didLog;
    // …while a later one commits with a higher number.
    const after = await makeContact(hub, { firstName: 'After', lastName: 'It' });
    const reading = changes(st, `?after=${cursor}`);
    const waitingOnLock = async () =>
      Number(
        (
          await sql<{
            n: string;
          }>`select count(*) as n from pg_locks where not granted and relation = 'change_log'::regclass`.execute(
            hub.store.db,
          )
        ).rows[0]!.n,
      );
    await expect.poll(waitingOnLock).toBe(1);
    release();
    await open;
    const page = await reading;
    expect(page.contacts.map((c) => c.id)).toEqual([late.id, after.id]);
  });
});

describe('a gift with every later change', () => {
  it('a flag reviewed and the engine linking the gift to HQ come through the feed, logged not to be pushed', async () => {
    const pac = await makeDonationAccount(hub, { perElection: 100 }, 'Small PAC');
    const campaign = await makeCampaign(hub, 'Small gala', [pac.id]);
    const donor = await makeContact(hub, { firstName: 'Robert', lastName: 'Brown' });
    const start = (await readAll(st, '')).cursor;
    const gift = expectStatus(
      await hub.request(
        'POST',
        '/api/v1/donations',
        giftBody(hub, donor.id, { campaignId: campaign.id, donationAccountId: pac.id, donationAmount: 150 }),
      ),
      201,
    );
    const first = await readAll(st, start);
    const carried = first.pages.flatMap((p) => p.donations).find((d) => d.id === gift.id)!;
    expect(carried).toMatchObject({ status: 'completed', sentToHq: false, thankYouSent: false });
    expect(carried.flags.map((f) => f.state)).toEqual(['open']);
    expect(carried.history.map((h) => h.action)).toEqual(['flagged']);

    expectStatus(
      await hub.request('POST', `/api/v1/flags/${carried.flags[0]!.id}/actions`, {
        accountId: hub.accountId,
        action: 'review',
        note: 'checked',
      }),
      200,
    );
    // What the hub's engine writes when HQ took the gift (push/answers.ts): the link, and the log line.
    await hub.store.write(async (trx) => {
      const at = new Date().toISOString();
      await linkRemote(trx, {
        accountId: hub.accountId,
        entityType: 'donation',
        localId: gift.id,
        remoteId: 'hq_1',
        source: 'pushed',
        at,
      });
      await noteSentToHq(trx, hub.accountId, gift.id, at);
    });
    const after = await readAll(st, first.cursor);
    const again = after.pages.flatMap((p) => p.donations).filter((d) => d.id === gift.id);
    expect(again).toHaveLength(1);
    expect(again[0]!.flags.map((f) => `${f.state} ${f.resolutionNote}`)).toEqual(['reviewed checked']);
    expect(again[0]!.history.map((h) => h.action)).toEqual(['flagged', 'reviewed']);
    expect(again[0]!.sentToHq).toBe(true);
    const log = await hub.store.db
      .selectFrom('changeLog')
      .select(['fields', 'push'])
      .where('entityId', '=', gift.id)
      .where('op', '=', 'update')
      .orderBy('seq')
      .execute();
    expect(log).toEqual([
      { fields: '["flags"]', push: 0 },
      { fields: '["sentToHq"]', push: 0 },
    ]);
  });
});

describe('closing the hub', () => {
  it('answers a waiting long poll at once and closes', async () => {
    const own = await startHub();
    const station = await own.join('Table Z');
    const first = await changes(station, '');
    const held = station.request('GET', `/api/v1/hub/changes?after=${first.cursor}&wait=30`);
    await expect.poll(() => own.running.hub!.feed.waiting).toBe(1);
    await own.close();
    const res = await held;
    expect(res.status).toBe(200);
    expect(res.body.cursor).toBe(first.cursor);
  });
});
