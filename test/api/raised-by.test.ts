/**
 * Soft credit and bundling over the API: what each host raised (GET /reports/raised-by and
 * its CSV) in a date range, a campaign or a batch; a contact's credits
 * (GET /contacts/{id}/credits), never in their own totals or limits; the legal donor's limits
 * checked (D6); and the refusals: a credit to the donor themself (400 naming
 * onBehalfOfContactId), a contact of another account (404 naming the field).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asNewAccount,
  expectRejected,
  expectStatus,
  getContact,
  makeCampaign,
  makeContact,
  makeDonation,
  makeDonationAccount,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let campaignId: string;
let otherCampaign: string;

beforeAll(async () => {
  s = await startTestServer();
  campaignId = (await makeCampaign(s, 'Gala')).id;
  otherCampaign = (await makeCampaign(s, 'Annual')).id;
});
afterAll(async () => {
  await s?.close();
});

const get = (path: string) =>
  s.request('GET', `/api/v1${path}${path.includes('?') ? '&' : '?'}accountId=${s.accountId}`);

describe('raised by', () => {
  it('totals each host’s completed gifts (count, total, distinct donors) in the scope, largest first', async () => {
    const host = await makeContact(s, { firstName: 'Hana', lastName: 'Host' });
    const small = await makeContact(s, { firstName: 'Sam', lastName: 'Smallhost' });
    const a = await makeContact(s, { firstName: 'Ann', lastName: 'Guest' });
    const b = await makeContact(s, { firstName: 'Bo', lastName: 'Guest' });
    const by = { campaignId, facilitatedByContactId: host.id, donationDate: '2026-04-10' };
    await makeDonation(s, a.id, { ...by, donationAmount: 100 });
    await makeDonation(s, a.id, { ...by, donationAmount: 50.5 });
    const voided = await makeDonation(s, b.id, { ...by, donationAmount: 999 });
    expectStatus(
      await s.request('POST', `/api/v1/donations/${voided.id}/void`, {
        accountId: s.accountId,
        reason: 'typo',
      }),
      200,
    );
    await makeDonation(s, b.id, { ...by, donationAmount: 25 });
    await makeDonation(s, b.id, { ...by, campaignId: otherCampaign, donationAmount: 1000 });
    await makeDonation(s, a.id, {
      campaignId,
      facilitatedByContactId: small.id,
      donationDate: '2026-04-10',
      donationAmount: 10,
    });
    await makeDonation(s, a.id, { ...by, donationDate: '2026-05-01', donationAmount: 7 });

    const r = expectStatus(
      await get(`/reports/raised-by?campaignId=${campaignId}&startDate=2026-04-10&endDate=2026-04-10`),
      200,
    );
    expect(r.hosts).toEqual([
      {
        contactId: host.id,
        firstName: 'Hana',
        lastName: 'Host',
        organization: null,
        count: 3,
        total: 175.5,
        donors: 2,
      },
      {
        contactId: small.id,
        firstName: 'Sam',
        lastName: 'Smallhost',
        organization: null,
        count: 1,
        total: 10,
        donors: 1,
      },
    ]);
    expect(r.campaignId).toBe(campaignId);

    const all = expectStatus(await get('/reports/raised-by'), 200);
    expect(all.hosts[0]).toMatchObject({ contactId: host.id, count: 5, total: 1182.5, donors: 2 });

    const csv = await get(
      `/reports/raised-by.csv?campaignId=${campaignId}&startDate=2026-04-10&endDate=2026-04-10`,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text).toBe(
      'contactId,firstName,lastName,organization,count,total,donors\r\n' +
        `${host.id},Hana,Host,,3,175.50,2\r\n${small.id},Sam,Smallhost,,1,10.00,1\r\n`,
    );

    const credits = expectStatus(await get(`/contacts/${host.id}/credits`), 200);
    expect(credits.raised).toEqual({ count: 5, total: 1182.5, donors: 2 });
  });

  it('answers a bad scope with 4xx naming the field', async () => {
    const bad = await get('/reports/raised-by?startDate=2026-05-02&endDate=2026-05-01');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('endDate');
    const missing = await get('/reports/raised-by?campaignId=cmp_nope');
    expect(missing.status).toBe(404);
    expect(JSON.stringify(missing.body)).toContain('campaignId');
    const notDate = await get('/reports/raised-by?startDate=yesterday');
    expect(notDate.status).toBe(400);
    expect(JSON.stringify(notDate.body)).toContain('startDate');
  });
});

describe('soft credit', () => {
  it('shows in the credited contact’s credits, never in their totals; the legal donor’s limit is checked', async () => {
    const acct = await makeDonationAccount(s, { perElection: 3300 }, 'Federal');
    const harold = await makeContact(s, { firstName: 'Harold', lastName: 'Reyes' });
    const maria = await makeContact(s, { firstName: 'Maria', lastName: 'Reyes' });
    await makeDonation(s, maria.id, { campaignId, donationAmount: 40, donationDate: '2026-03-01' });
    const fields = { campaignId, donationAccountId: acct.id, electionType: 'general', electionYear: 2026 };
    await makeDonation(s, harold.id, { ...fields, donationAmount: 3000, donationDate: '2026-03-02' });
    const credited = await makeDonation(s, harold.id, {
      ...fields,
      donationAmount: 500,
      donationDate: '2026-03-03',
      onBehalfOfContactId: maria.id,
      isRecurring: true,
    });

    const c = expectStatus(await get(`/contacts/${maria.id}/credits`), 200);
    expect(c.creditCount).toBe(1);
    expect(c.creditTotal).toBe(500);
    expect(c.credits).toEqual([
      {
        donationId: credited.id,
        donationAmount: 500,
        donationDate: '2026-03-03T00:00:00.000Z',
        status: 'completed',
        contactId: harold.id,
        donorName: 'Harold Reyes',
        isRecurring: true,
      },
    ]);
    // The gift's own record names the person credited (and no host: none was given).
    const detail = expectStatus(await get(`/donations/${credited.id}`), 200);
    expect([detail.onBehalfOfName, detail.facilitatedByName]).toEqual(['Maria Reyes', null]);
    expect((await getContact(s, maria.id)).totalDonations).toBe(40);
    expect((await getContact(s, harold.id)).totalDonations).toBe(3500);
    const own = expectStatus(await get(`/contacts/${maria.id}/donations`), 200);
    expect(own.totals.totalDonations).toBe(40);

    // D6: the 3,500 over 3,300 is Harold's, flagged on his gift; Maria's room is untouched.
    const flags = expectStatus(await get('/flags'), 200);
    expect(JSON.stringify(flags)).toContain(credited.id);
    const mariaCheck = expectStatus(
      await get(
        `/contacts/${maria.id}/gift-check?donationDate=2026-03-04&donationAccountId=${acct.id}&electionType=general&electionYear=2026`,
      ),
      200,
    );
    expect(mariaCheck.limits[0].donorTotal).toBe(0);
  });

  it('keeps a batch’s host with the batch; a host of another account or no host id at all is refused naming the field', async () => {
    const host = await makeContact(s, { firstName: 'Hana', lastName: 'Hostetler' });
    const batch = expectStatus(
      await s.request('POST', '/api/v1/batches', { accountId: s.accountId, name: 'Table 9', campaignId }),
      201,
    );
    expect(batch.raisedByContactId).toBeNull();
    const put = (raisedByContactId: unknown) => () =>
      s.request('PUT', `/api/v1/batches/${batch.id}`, { accountId: s.accountId, raisedByContactId });
    expect(expectStatus(await put(host.id)(), 200).raisedByContactId).toBe(host.id);
    expect(expectStatus(await get(`/batches/${batch.id}`), 200).raisedByContactId).toBe(host.id);
    const other = await asNewAccount(s);
    const stranger = await makeContact(other, { firstName: 'Not', lastName: 'Ours' });
    await expectRejected(s, put(stranger.id), 404, { field: 'raisedByContactId' });
    await expectRejected(s, put(42), 400, { field: 'raisedByContactId' });
    expect(expectStatus(await get(`/batches/${batch.id}`), 200).raisedByContactId).toBe(host.id);
    expect(expectStatus(await put(null)(), 200).raisedByContactId).toBeNull();
  });

  it('refuses a credit to the donor themself (400) and to a contact of another account (404), naming the field', async () => {
    const donor = await makeContact(s, { firstName: 'Solo', lastName: 'Giver' });
    const body = (fields: Record<string, unknown>) => ({
      accountId: s.accountId,
      contactId: donor.id,
      donationAmount: 20,
      donationDate: '2026-03-01',
      paymentMethod: 'cash',
      campaignId,
      ...fields,
    });
    const post = (fields: Record<string, unknown>) => () =>
      s.request('POST', '/api/v1/donations', body(fields));
    await expectRejected(s, post({ onBehalfOfContactId: donor.id }), 400, {
      field: 'onBehalfOfContactId',
      contacts: [donor.id],
    });
    const other = await asNewAccount(s);
    const stranger = await makeContact(other, { firstName: 'Not', lastName: 'Ours' });
    await expectRejected(s, post({ onBehalfOfContactId: stranger.id }), 404, {
      field: 'onBehalfOfContactId',
    });
    await expectRejected(s, post({ facilitatedByContactId: stranger.id }), 404, {
      field: 'facilitatedByContactId',
    });
    // A host's own gift counts toward what they raised.
    await makeDonation(s, donor.id, { campaignId, facilitatedByContactId: donor.id });
    // A correction is held to the same rule.
    const g = await makeDonation(s, donor.id, { campaignId });
    const patched = await s.request('PATCH', `/api/v1/donations/${g.id}`, {
      accountId: s.accountId,
      onBehalfOfContactId: donor.id,
    });
    expect(patched.status).toBe(400);
    expect(JSON.stringify(patched.body)).toContain('onBehalfOfContactId');
  });
});
