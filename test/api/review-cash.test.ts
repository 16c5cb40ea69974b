/**
 * GET /api/v1/review/cash on whichever engine the suite runs on (SQLite, or PostgreSQL through
 * test/run-postgres.mjs): completed cash gifts over $100 of the key's account, newest first —
 * twins each, never $100 exactly, a check, a voided gift or another account's — with donor
 * and campaign; a gift corrected to a check leaves it; checked against the shared schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CashGiftList } from '#shared/schemas/extensions.ts';
import {
  asNewAccount,
  expectError,
  expectStatus,
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
  await s?.close();
});

const cashList = async (t: TestServer) =>
  CashGiftList.parse(
    expectStatus(await t.request('GET', `/api/v1/review/cash?accountId=${t.accountId}`), 200),
  );

describe('GET /api/v1/review/cash', () => {
  it('lists completed cash gifts over $100, newest first, each twin; not $100, a check, a void or another account’s; a correction to a check leaves it', async () => {
    const t = await asNewAccount(s);
    const other = await asNewAccount(s);
    const gala = await makeCampaign(t, 'Spring Gala');
    const robs = [
      await makeContact(t, { firstName: 'Robert', lastName: 'Brown' }),
      await makeContact(t, { firstName: 'Robert', lastName: 'Brown', email: 'rbrown@example.org' }),
      await makeContact(t, { firstName: 'Robert', lastName: 'Brown' }),
    ];
    const lukasz = await makeContact(t, { firstName: 'Łukasz', lastName: 'Żółć' });
    const gift = (tt: TestServer, contactId: string, donationAmount: number, fields = {}) =>
      makeDonation(tt, contactId, {
        donationAmount,
        paymentMethod: 'cash',
        donationDate: '2026-03-07',
        campaignId: gala.id,
        ...fields,
      });
    const over = await gift(t, robs[0]!.id, 100.01, { donationDate: '2026-03-06' });
    await gift(t, robs[1]!.id, 100);
    await gift(t, robs[2]!.id, 250, { paymentMethod: 'check' });
    const twins = [await gift(t, lukasz.id, 120), await gift(t, lukasz.id, 120)];
    const voided = await gift(t, lukasz.id, 500);
    expectStatus(
      await t.request('POST', `/api/v1/donations/${voided.id}/void`, { accountId: t.accountId }),
      200,
    );
    const elsewhere = await makeContact(other, { firstName: 'Robert', lastName: 'Brown' });
    await makeDonation(other, elsewhere.id, {
      donationAmount: 900,
      paymentMethod: 'cash',
      campaignId: (await makeCampaign(other, 'Spring Gala')).id,
    });

    const list = await cashList(t);
    expect(list.total).toBe(3);
    expect(list.gifts.map((g) => [g.contactName, g.donationAmount, g.campaignName])).toEqual([
      ['Łukasz Żółć', 120, 'Spring Gala'],
      ['Łukasz Żółć', 120, 'Spring Gala'],
      ['Robert Brown', 100.01, 'Spring Gala'],
    ]);
    expect(
      list.gifts
        .map((g) => g.donationId)
        .slice(0, 2)
        .sort(),
    ).toEqual(twins.map((g) => g.id).sort());
    expect(list.gifts[2]).toMatchObject({ donationId: over.id, contactId: robs[0]!.id });

    expectStatus(
      await t.request('PATCH', `/api/v1/donations/${twins[0]!.id}`, {
        accountId: t.accountId,
        paymentMethod: 'check',
      }),
      200,
    );
    expect((await cashList(t)).gifts.map((g) => g.donationId)).toEqual([twins[1]!.id, over.id]);
    expect((await cashList(other)).total).toBe(1);
  });

  it('another account’s id is a 403; a missing accountId a 400 naming it', async () => {
    const t = await asNewAccount(s);
    const other = await asNewAccount(s);
    expectError(await t.request('GET', `/api/v1/review/cash?accountId=${other.accountId}`), 403);
    expectError(await t.request('GET', '/api/v1/review/cash'), 400, { field: 'accountId' });
  });
});
