/**
 * POST /api/v1/donations/thank-you: how another GiftDesk tells this one (its HQ, or its event
 * hub) that gifts were thanked. Real HTTP against a real server on a SQLite file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asNewAccount,
  expectError,
  expectRejected,
  expectStatus,
  getDonation,
  makeCampaign,
  makeContact,
  makeDonation,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

/** A gift to the account's campaign (one made per account on first use). */
const campaigns = new Map<string, Promise<{ id: string }>>();
async function gift(t: TestServer, donorId: string, fields: Record<string, unknown> = {}) {
  if (!campaigns.has(t.accountId)) campaigns.set(t.accountId, makeCampaign(t, 'Year-end appeal'));
  const campaignId = (await campaigns.get(t.accountId)!).id;
  return makeDonation(t, donorId, { campaignId, ...fields });
}

const FIRST = '2026-12-01T09:30:00.000Z';
const LATER = '2026-12-15T16:00:00.000Z';

describe('POST /donations/thank-you', () => {
  it('marks exactly the gifts named, keeps a first date, lists ids it does not hold, and logs each new mark for onward sync', async () => {
    const donor = await makeContact(s, { firstName: 'Łukasz', lastName: 'Żółć' });
    const [a, b, c] = [
      await gift(s, donor.id, { donationAmount: 10 }),
      await gift(s, donor.id, { donationAmount: 20 }),
      await gift(s, donor.id, { donationAmount: 30 }),
    ];
    const seqBefore = await s.store.db
      .selectFrom('changeLog')
      .select((eb) => eb.fn.max('seq').as('m'))
      .executeTakeFirstOrThrow();

    const first = await s.request('POST', '/api/v1/donations/thank-you', {
      accountId: s.accountId,
      donations: [
        { id: a!.id, thankYouSentDate: FIRST },
        { id: b!.id, thankYouSentDate: '2026-12-01' },
        { id: 'don_nothing_here', thankYouSentDate: FIRST },
      ],
    });
    expect(expectStatus(first, 200)).toEqual({ marked: 2, unknown: ['don_nothing_here'] });
    expect(await getDonation(s, a!.id)).toMatchObject({ thankYouSent: true, thankYouSentDate: FIRST });
    expect(await getDonation(s, b!.id)).toMatchObject({
      thankYouSent: true,
      thankYouSentDate: '2026-12-01T00:00:00.000Z',
    });
    expect(await getDonation(s, c!.id)).toMatchObject({ thankYouSent: false, thankYouSentDate: null });

    // Sent again (a sender that never heard the answer), later date: nothing changes.
    const again = await s.request('POST', '/api/v1/donations/thank-you', {
      accountId: s.accountId,
      donations: [{ id: a!.id, thankYouSentDate: LATER }],
    });
    expect(expectStatus(again, 200)).toEqual({ marked: 0, unknown: [] });
    expect(await getDonation(s, a!.id)).toMatchObject({ thankYouSentDate: FIRST });

    const logged = await s.store.db
      .selectFrom('changeLog')
      .select(['entityId', 'op', 'fields'])
      .where('seq', '>', Number(seqBefore.m ?? 0))
      .orderBy('seq')
      .execute();
    expect(logged).toEqual([
      { entityId: a!.id, op: 'update', fields: '["thankYouSent","thankYouSentDate"]' },
      { entityId: b!.id, op: 'update', fields: '["thankYouSent","thankYouSentDate"]' },
    ]);
  });

  it('bad input is a 400 naming the field, and changes nothing', async () => {
    const donor = await makeContact(s, { firstName: 'Zoë', lastName: 'Núñez' });
    const g = await gift(s, donor.id);
    const send = (body: unknown) => () => s.request('POST', '/api/v1/donations/thank-you', body);
    await expectRejected(
      s,
      send({ accountId: s.accountId, donations: [{ id: g.id, thankYouSentDate: 'next Tuesday' }] }),
      400,
      { field: 'donations[0].thankYouSentDate' },
    );
    await expectRejected(
      s,
      send({
        accountId: s.accountId,
        donations: [
          { id: g.id, thankYouSentDate: FIRST },
          { id: g.id, thankYouSentDate: '2026-02-30' },
        ],
      }),
      400,
      { field: 'donations[1].thankYouSentDate' },
    );
    await expectRejected(s, send({ accountId: s.accountId, donations: [] }), 400, { field: 'donations' });
    await expectRejected(s, send({ donations: [{ id: g.id, thankYouSentDate: FIRST }] }), 400, {
      field: 'accountId',
    });
    expect(await getDonation(s, g.id)).toMatchObject({ thankYouSent: false });
  });

  it('another account’s gifts are not its to mark: its ids are unknown to this key, another accountId is a 403', async () => {
    const other = await asNewAccount(s);
    const theirDonor = await makeContact(other, { firstName: 'Nguyễn Thị', lastName: 'Minh Khai' });
    const theirs = await gift(other, theirDonor.id);
    const res = await s.request('POST', '/api/v1/donations/thank-you', {
      accountId: s.accountId,
      donations: [{ id: theirs.id, thankYouSentDate: FIRST }],
    });
    expect(expectStatus(res, 200)).toEqual({ marked: 0, unknown: [theirs.id] });
    expect(await getDonation(other, theirs.id)).toMatchObject({ thankYouSent: false });
    expectError(
      await s.request('POST', '/api/v1/donations/thank-you', {
        accountId: other.accountId,
        donations: [{ id: theirs.id, thankYouSentDate: FIRST }],
      }),
      403,
    );
  });

  it('is in the OpenAPI document with its request and answer shapes', async () => {
    const doc = expectStatus(await s.request('GET', '/api/v1/openapi.json'), 200);
    const op = doc.paths['/api/v1/donations/thank-you'].post;
    expect(op.tags).toEqual(['Extensions']);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '403']));
    expect(JSON.stringify(op.requestBody)).toContain('thankYouSentDate');
  });
});
