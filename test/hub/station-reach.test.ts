/**
 * What an event station's key reaches at the hub, over real HTTPS on 127.0.0.1: it deletes
 * only a donor whose gifts are all its own (409 otherwise, nothing deleted), and marks thanked
 * only its own gifts (403 naming the others, nothing marked).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubChanges } from '#shared/schemas/hub.ts';
import { createContact } from '../../electron/domain/contacts/create.ts';
import { revokeStation } from '../../electron/hub/index.ts';
import { expectError, expectStatus, giftBody, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { type Hub, type Station, startHub } from './hub-rig.ts';

let hub: Hub;
let a: Station;
let b: Station;
let campaignId: string;
beforeAll(async () => {
  hub = await startHub();
  a = await hub.join('Table A');
  b = await hub.join('Table B');
  campaignId = (await makeCampaign(hub)).id;
});
afterAll(async () => {
  await hub?.close();
});

async function gift(s: Hub | Station, contactId: string, amount: number, method = 'cash'): Promise<string> {
  const body = giftBody(s, contactId, { donationAmount: amount, paymentMethod: method, campaignId });
  return (expectStatus(await s.request('POST', '/api/v1/donations', body), 201) as { id: string }).id;
}

async function giftsOf(contactId: string) {
  return hub.store.db
    .selectFrom('donations')
    .select(['id', 'stationId', 'thankYouSent'])
    .where('contactId', '=', contactId)
    .orderBy('id')
    .execute();
}

async function contactExists(id: string): Promise<boolean> {
  return (
    (await hub.store.db.selectFrom('contacts').select('id').where('id', '=', id).executeTakeFirst()) !==
    undefined
  );
}

describe('a station deleting a donor', () => {
  it('refuses a donor with gifts typed at another table: 409 naming how many, nothing deleted', async () => {
    // Three Robert Browns; the one at Table B gave twice the same $19.99 in cash.
    const roberts = [];
    for (let i = 0; i < 3; i++)
      roberts.push(await makeContact(a, { firstName: 'Robert', lastName: 'Brown' }));
    const robert = roberts[1]!;
    await gift(b, robert.id, 19.99);
    await gift(b, robert.id, 19.99);
    await gift(a, robert.id, 5);
    const before = await giftsOf(robert.id);
    const res = await a.request('DELETE', `/api/v1/contacts/${robert.id}?accountId=${hub.accountId}`);
    expectError(res, 409, { code: 'donor_has_other_gifts', field: 'id' });
    expect((res.body as { message: string }).message).toContain(
      '2 gifts typed at another station or at the hub',
    );
    expect(await contactExists(robert.id)).toBe(true);
    expect(await giftsOf(robert.id)).toEqual(before);
  });

  it('refuses a donor with a gift typed at the hub itself (a voided one too)', async () => {
    const donor = await makeContact(a, { firstName: 'Łukasz', lastName: 'Żółć' });
    const atHub = await gift(hub, donor.id, 100, 'check');
    expectStatus(
      await hub.request('POST', `/api/v1/donations/${atHub}/void`, {
        accountId: hub.accountId,
        reason: 'typed twice',
      }),
      200,
    );
    const res = await a.request('DELETE', `/api/v1/contacts/${donor.id}?accountId=${hub.accountId}`);
    expectError(res, 409, { code: 'donor_has_other_gifts' });
    expect((res.body as { message: string }).message).toContain('1 gift typed');
    expect(await contactExists(donor.id)).toBe(true);
    expect((await giftsOf(donor.id)).length).toBe(1);
  });

  it('deletes a donor whose gifts are all its own, and one with no gifts', async () => {
    const own = await makeContact(a, { firstName: 'Maria', lastName: 'Lopez' });
    await gift(a, own.id, 19.99);
    await gift(a, own.id, 19.99);
    expectStatus(await a.request('DELETE', `/api/v1/contacts/${own.id}?accountId=${hub.accountId}`), 200);
    expect(await contactExists(own.id)).toBe(false);
    const bare = await makeContact(b, { firstName: 'Nobody', lastName: 'Gave' });
    expectStatus(await a.request('DELETE', `/api/v1/contacts/${bare.id}?accountId=${hub.accountId}`), 200);
    expect(await contactExists(bare.id)).toBe(false);
  });

  it("the hub's own key still deletes any donor", async () => {
    const donor = await makeContact(hub, { firstName: 'Robert', lastName: 'Brown' });
    await gift(a, donor.id, 10);
    await gift(b, donor.id, 20);
    expectStatus(await hub.request('DELETE', `/api/v1/contacts/${donor.id}?accountId=${hub.accountId}`), 200);
    expect(await contactExists(donor.id)).toBe(false);
  });
});

describe('a station marking gifts thanked', () => {
  const mark = (s: Hub | Station, ids: string[]) =>
    s.request('POST', '/api/v1/donations/thank-you', {
      accountId: hub.accountId,
      donations: ids.map((id) => ({ id, thankYouSentDate: '2026-03-02T10:00:00.000Z' })),
    });

  it('refuses the whole request when a gift was typed at another table or at the hub: 403 naming them, nothing marked', async () => {
    const donor = await makeContact(a, { firstName: 'Robert', lastName: 'Brown' });
    const own1 = await gift(a, donor.id, 19.99);
    const own2 = await gift(a, donor.id, 19.99);
    const atB = await gift(b, donor.id, 19.99);
    const atHub = await gift(hub, donor.id, 40);
    const res = await mark(a, [own1, atB, own2, atHub]);
    expectError(res, 403, { code: 'not_this_stations_gift', field: 'donations[1].id' });
    const message = (res.body as { message: string }).message;
    expect(message).toContain(atB);
    expect(message).toContain(atHub);
    expect(message).not.toContain(own1);
    expect((res.body as { details: Array<{ field: string }> }).details.map((d) => d.field)).toEqual([
      'donations[1].id',
      'donations[3].id',
    ]);
    expect((await giftsOf(donor.id)).map((g) => g.thankYouSent)).toEqual([0, 0, 0, 0]);
  });

  it("marks its own gifts, and the hub's key marks any", async () => {
    const donor = await makeContact(b, { firstName: 'Maria', lastName: 'Lopez' });
    const own = await gift(a, donor.id, 25);
    const atB = await gift(b, donor.id, 30);
    expect(expectStatus(await mark(a, [own, 'no-such-gift']), 200)).toEqual({
      marked: 1,
      unknown: ['no-such-gift'],
    });
    expect(expectStatus(await mark(hub, [atB]), 200)).toMatchObject({ marked: 1 });
  });
});

describe('a long poll of a station that is removed meanwhile', () => {
  const feed = (s: Station, q: string) => s.request('GET', `/api/v1/hub/changes${q}`);

  it('is ended at once with 401 station_revoked, and carries nothing written after the removal', async () => {
    const st = await hub.join('Table R');
    const first = HubChanges.parse(expectStatus(await feed(st, ''), 200));
    const held = feed(st, `?after=${encodeURIComponent(first.cursor)}&wait=30`);
    await expect.poll(() => hub.running.hub!.feed.waiting).toBe(1);
    const revoked = expectStatus(
      await hub.request('POST', `/api/v1/hub/stations/${st.stationId}/revoke`, { accountId: hub.accountId }),
      200,
    );
    // Ended by the removal itself, before anything else is written.
    await expect.poll(() => hub.running.hub!.feed.waiting).toBe(0);
    const donor = await makeContact(hub, { firstName: 'Robert', lastName: 'Brown' });
    const res = await held;
    expectError(res, 401, { code: 'station_revoked' });
    expect((res.body as { message: string }).message).toContain(
      `removed from the event at ${revoked.revokedAt}`,
    );
    expect(res.text).not.toContain(donor.id);
  });

  it('removed by another process (the CLI): the poll wakes and is refused, a gift written meanwhile not sent', async () => {
    const st = await hub.join('Table S');
    const first = HubChanges.parse(expectStatus(await feed(st, ''), 200));
    const held = feed(st, `?after=${encodeURIComponent(first.cursor)}&wait=30`);
    await expect.poll(() => hub.running.hub!.feed.waiting).toBe(1);
    // Straight through the domain, as `giftdesk hub revoke` does: no request to this server.
    await revokeStation(hub.ctx, st.stationId);
    const donor = await createContact(hub.ctx, {
      accountId: hub.accountId,
      firstName: 'After',
      lastName: 'Removal',
    });
    const res = await held;
    expectError(res, 401, { code: 'station_revoked' });
    expect(res.text).not.toContain(donor.id);
  });
});
