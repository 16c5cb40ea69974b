/**
 * `giftdesk serve --spec-only`: the donor API alone, as its document describes it — the HQ our
 * users really sync to. A re-posted gift or contact is a second record (no duplicate
 * detection, D7), every GiftDesk extension route is a 404, the lists have the documented
 * shapes. Compared with the same requests to GiftDesk as HQ, which creates once per reference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let spec: TestServer;
let full: TestServer;

beforeAll(async () => {
  [spec, full] = await Promise.all([startTestServer({ specOnly: true }), startTestServer()]);
});
afterAll(async () => {
  await Promise.all([spec?.close(), full?.close()]);
});

/** A donor and a campaign made through the domain (the spec-only server has no campaign route to make one). */
async function donorAndCampaign(s: TestServer) {
  const campaign = await createCampaign(s.ctx, { accountId: s.accountId, name: 'Spring Gala' });
  const donor = await s.request('POST', '/api/v1/contacts', {
    accountId: s.accountId,
    firstName: 'Robert',
    lastName: 'Brown',
  });
  expect(donor.status).toBe(201);
  return { campaignId: campaign.id, contactId: donor.body.id as string };
}

/** The $19.99 cash gift the sync posts: the local id on the notes' last line. */
const gift = (s: TestServer, d: { campaignId: string; contactId: string }) => ({
  accountId: s.accountId,
  contactId: d.contactId,
  campaignId: d.campaignId,
  donationAmount: 19.99,
  donationDate: '2026-11-24T19:42:00Z',
  paymentMethod: 'cash',
  notes: 'table 4\ngd:don_01JDSPECONLY00000000000000',
});

const giftsWithRef = async (s: TestServer) =>
  (
    (await s.request('GET', `/api/v1/donations?accountId=${s.accountId}&limit=100`)).body.donations as Array<{
      id: string;
      notes: string | null;
    }>
  ).filter((d) => d.notes?.endsWith('gd:don_01JDSPECONLY00000000000000'));

describe('a spec-only HQ creates what it is sent, every time', () => {
  it('two POSTs of the same gift (a gd: reference ending its notes) make two gifts; GiftDesk HQ makes one', async () => {
    const d = await donorAndCampaign(spec);
    const a = await spec.request('POST', '/api/v1/donations', gift(spec, d));
    const b = await spec.request('POST', '/api/v1/donations', gift(spec, d));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    expect(await giftsWithRef(spec)).toHaveLength(2);
    const donor = await spec.request('GET', `/api/v1/contacts/${d.contactId}?accountId=${spec.accountId}`);
    expect(donor.body.totalDonations).toBeCloseTo(39.98, 2);

    const f = await donorAndCampaign(full);
    const x = await full.request('POST', '/api/v1/donations', gift(full, f));
    const y = await full.request('POST', '/api/v1/donations', gift(full, f));
    expect([x.status, y.status]).toEqual([201, 200]);
    expect(y.body.id).toBe(x.body.id);
    expect(await giftsWithRef(full)).toHaveLength(1);
  });

  it('two POSTs of the same contact (a gd: tag) make two contacts', async () => {
    const body = {
      accountId: spec.accountId,
      firstName: 'Łukasz',
      lastName: 'Żółć',
      tags: ['gd:cnt_01JDSPECONLY00000000000000'],
    };
    const a = await spec.request('POST', '/api/v1/contacts', body);
    const b = await spec.request('POST', '/api/v1/contacts', body);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    const found = await spec.request(
      'GET',
      `/api/v1/contacts?accountId=${spec.accountId}&search=lukasz%20zolc`,
    );
    expect(found.body.data.map((c: { id: string }) => c.id).sort()).toEqual([a.body.id, b.body.id].sort());
  });
});

describe("a spec-only HQ answers only the donor API's routes", () => {
  const extensions: Array<[string, string, unknown?]> = [
    ['GET', '/api/v1/hub'],
    ['GET', '/api/v1/hub/changes?after=0'],
    ['POST', '/api/v1/hub/join', { code: 'ABCD-EFGH' }],
    ['GET', '/api/v1/sync/status'],
    ['GET', '/api/v1/sync/settings'],
    ['POST', '/api/v1/sync/run', {}],
    ['POST', '/api/v1/donations/thank-you', { marks: [] }],
    ['GET', '/api/v1/letters/settings'],
    ['GET', '/api/v1/letters/runs'],
    ['GET', '/api/v1/batches'],
    ['POST', '/api/v1/batches', { name: 'Table 4' }],
    ['GET', '/api/v1/flags'],
    ['GET', '/api/v1/review/cash'],
    ['GET', '/api/v1/stats/donations'],
    ['GET', '/api/v1/reports/raised-by'],
    ['GET', '/api/v1/event'],
    ['GET', '/api/v1/event/notices'],
    ['GET', '/api/v1/account'],
    ['GET', '/api/v1/api-keys'],
    ['GET', '/api/v1/elections'],
    ['GET', '/api/v1/campaigns'],
    ['POST', '/api/v1/campaigns', { name: 'Gala' }],
    ['GET', '/api/v1/committees'],
    ['GET', '/api/v1/committees/cmt_01JD0000000000000000000000'],
    ['GET', '/api/v1/donation-accounts'],
    ['GET', '/api/v1/donation-accounts/dac_01JD0000000000000000000000'],
    ['GET', '/api/v1/custom-fields'],
    ['GET', '/api/v1/contact-summaries'],
    ['GET', '/api/v1/donations/don_01JD0000000000000000000000'],
    ['PATCH', '/api/v1/donations/don_01JD0000000000000000000000', { donationAmount: 5 }],
    ['POST', '/api/v1/donations/don_01JD0000000000000000000000/void', {}],
    ['GET', '/api/v1/contacts/cnt_01JD0000000000000000000000/donations'],
    ['GET', '/api/v1/contacts/cnt_01JD0000000000000000000000/gift-check'],
    ['POST', '/api/v1/imports', {}],
  ];
  it.each(extensions)('%s %s is a 404 naming the route', async (method, path, body) => {
    const sep = path.includes('?') ? '&' : '?';
    const r = await spec.request(method, `${path}${sep}accountId=${spec.accountId}`, body);
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('route_not_found');
  });

  it('the spec routes answer, with the documented list shapes', async () => {
    const d = await donorAndCampaign(spec);
    const created = await spec.request('POST', '/api/v1/donations', {
      ...gift(spec, d),
      notes: 'no reference',
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(
      [
        'id',
        'contactId',
        'campaignId',
        'donationAmount',
        'donationDate',
        'paymentMethod',
        'status',
        'notes',
        'createdAt',
      ].sort(),
    );
    const gifts = await spec.request('GET', `/api/v1/donations?accountId=${spec.accountId}&limit=1`);
    expect(Object.keys(gifts.body).sort()).toEqual(['donations', 'limit', 'offset', 'total']);
    expect(Object.keys(gifts.body.donations[0]).sort()).toEqual(
      [
        'id',
        'contactId',
        'contactName',
        'donationAmount',
        'donationDate',
        'paymentMethod',
        'campaignId',
        'campaignName',
        'notes',
        'createdAt',
      ].sort(),
    );
    const contacts = await spec.request('GET', `/api/v1/contacts?accountId=${spec.accountId}&limit=1`);
    expect(Object.keys(contacts.body).sort()).toEqual(['data', 'limit', 'offset', 'total']);
    expect(Object.keys(contacts.body.data[0]).sort()).toEqual(
      ['id', 'firstName', 'lastName', 'email', 'phone', 'organization', 'createdAt', 'updatedAt'].sort(),
    );
    const campaign = await spec.request(
      'GET',
      `/api/v1/campaigns/${d.campaignId}?accountId=${spec.accountId}`,
    );
    expect(campaign.status).toBe(200);
    expect(campaign.body.donationAccounts).toEqual([]);
    const put = await spec.request('PUT', `/api/v1/contacts/${d.contactId}`, {
      accountId: spec.accountId,
      quickNotes: 'met at the gala',
    });
    expect(put.status).toBe(200);
    const del = await spec.request('DELETE', `/api/v1/contacts/${d.contactId}?accountId=${spec.accountId}`);
    expect(del.status).toBe(200);
  });

  it("GiftDesk's relevance sort is not the API's: a 400 naming sortBy", async () => {
    const r = await spec.request(
      'GET',
      `/api/v1/contacts?accountId=${spec.accountId}&search=brown&sortBy=relevance`,
    );
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('sortBy');
  });
});
