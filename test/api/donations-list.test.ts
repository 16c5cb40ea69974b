/**
 * GET /api/v1/donations: paging (default 20, limit 1–100, offset ≥ 0, never clamped), newest
 * first with a deterministic tie-break, inclusive date range, totals, the exact item shape,
 * and D8 (a caller finds its external reference among the listed gifts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asNewAccount,
  expectRejected,
  expectStatus,
  makeCampaign,
  makeCommittee,
  makeContact,
  makeDonation,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Item {
  id: string;
  donationDate: string;
  notes: string | null;
}

let s: TestServer;
/** 25 gifts in the main account: one a day from 2026-01-01, the 10th day three times. */
const ids: string[] = [];
let sameDay: string[] = [];
let campaign: { id: string; name: string };
let donor: { id: string };

beforeAll(async () => {
  s = await startTestServer();
  campaign = await makeCampaign(s, 'Winter Appeal');
  donor = await makeContact(s, { firstName: 'Lin', lastName: 'Bao' });
  for (let i = 1; i <= 23; i++) {
    const day = `2026-01-${String(i).padStart(2, '0')}`;
    ids.push(
      (
        await makeDonation(s, donor.id, {
          campaignId: campaign.id,
          donationDate: day,
          donationAmount: i,
          notes: `ref:${i}`,
        })
      ).id,
    );
  }
  for (let k = 0; k < 2; k++) {
    const d = await makeDonation(s, donor.id, {
      campaignId: campaign.id,
      donationDate: '2026-01-10',
      donationAmount: 100 + k,
      notes: `ref:10-${k}`,
    });
    ids.push(d.id);
  }
  sameDay = [ids[9]!, ids[23]!, ids[24]!];
});
afterAll(async () => {
  await s?.close();
});

const list = async (query = '', t: TestServer = s) =>
  expectStatus(await t.request('GET', `/api/v1/donations?accountId=${t.accountId}${query}`), 200);

describe('paging', () => {
  it('defaults to 20 items, offset 0, with the overall total', async () => {
    const page = await list();
    expect(page.donations).toHaveLength(20);
    expect(page).toMatchObject({ total: 25, limit: 20, offset: 0 });
    expect(Object.keys(page).sort()).toEqual(['donations', 'limit', 'offset', 'total']);
  });

  it('accepts limit 1 and 100, and an offset past the end (an empty page, the same total)', async () => {
    expect((await list('&limit=1')).donations).toHaveLength(1);
    const all = await list('&limit=100');
    expect(all.donations).toHaveLength(25);
    const past = await list('&offset=25');
    expect(past).toMatchObject({ donations: [], total: 25, limit: 20, offset: 25 });
  });

  it.each(['limit=0', 'limit=101', 'limit=-1', 'limit=abc', 'limit=1.5', 'limit=', 'limit=500'])(
    'refuses %s → 400 naming limit (never clamped)',
    async (q) => {
      const res = await expectRejected(
        s,
        () => s.request('GET', `/api/v1/donations?accountId=${s.accountId}&${q}`),
        400,
        { code: 'validation_failed', field: 'limit' },
      );
      expect(res.body.message).toMatch(/limit/);
    },
  );

  it.each(['offset=-1', 'offset=abc', 'offset=1.5', 'offset=1e3'])(
    'refuses %s → 400 naming offset',
    async (q) => {
      await expectRejected(
        s,
        () => s.request('GET', `/api/v1/donations?accountId=${s.accountId}&${q}`),
        400,
        { code: 'validation_failed', field: 'offset' },
      );
    },
  );

  it('pages through everything in steps of the limit, each gift exactly once, stopping on a short page', async () => {
    const seen: string[] = [];
    for (let offset = 0; ; offset += 7) {
      const page = await list(`&limit=7&offset=${offset}`);
      expect(page).toMatchObject({ total: 25, limit: 7, offset });
      seen.push(...page.donations.map((d: Item) => d.id));
      if (page.donations.length < 7) break;
    }
    expect(seen).toHaveLength(25);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(seen).toEqual((await list('&limit=100')).donations.map((d: Item) => d.id));
  });
});

describe('order', () => {
  it('is newest donationDate first, with gifts of the same instant in a fixed order', async () => {
    const all: Item[] = (await list('&limit=100')).donations;
    const dates = all.map((d) => d.donationDate);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(dates[0]).toBe('2026-01-23T00:00:00.000Z');
    const tied = all.filter((d) => d.donationDate === '2026-01-10T00:00:00.000Z').map((d) => d.id);
    expect([...tied].sort()).toEqual([...sameDay].sort());
    // the same order every time, and one page at a time agrees with the whole
    for (let i = 0; i < 3; i++)
      expect((await list('&limit=100')).donations.map((d: Item) => d.id)).toEqual(all.map((d) => d.id));
    const start = all.findIndex((d) => d.id === tied[0]);
    const oneByOne = [];
    for (let k = 0; k < 3; k++) oneByOne.push((await list(`&limit=1&offset=${start + k}`)).donations[0].id);
    expect(oneByOne).toEqual(tied);
  });

  it('orders by the instant, not by the text sent (offsets converted to UTC first)', async () => {
    const t = await asNewAccount(s);
    const c = await makeContact(t);
    const cmp = await makeCampaign(t);
    const early = await makeDonation(t, c.id, {
      campaignId: cmp.id,
      donationDate: '2026-05-01T20:00:00-05:00',
    }); // 2026-05-02T01:00Z
    const late = await makeDonation(t, c.id, {
      campaignId: cmp.id,
      donationDate: '2026-05-02T02:00:00+00:00',
    });
    const mid = await makeDonation(t, c.id, {
      campaignId: cmp.id,
      donationDate: '2026-05-02T03:30:00+02:00',
    }); // 01:30Z
    expect((await list('', t)).donations.map((d: Item) => d.id)).toEqual([late.id, mid.id, early.id]);
  });
});

describe('date range', () => {
  it('includes both ends; a date-only endDate covers that whole UTC day', async () => {
    const t = await asNewAccount(s);
    const c = await makeContact(t);
    const cmp = await makeCampaign(t);
    const at = async (donationDate: string) =>
      (await makeDonation(t, c.id, { campaignId: cmp.id, donationDate })).id;
    const before = await at('2026-02-28T23:59:59.999Z');
    const first = await at('2026-03-01T00:00:00Z');
    const middle = await at('2026-03-03T12:00:00Z');
    const last = await at('2026-03-05T23:59:59.999Z');
    const after = await at('2026-03-06T00:00:00Z');
    const range = await list('&startDate=2026-03-01&endDate=2026-03-05', t);
    expect(range.donations.map((d: Item) => d.id)).toEqual([last, middle, first]);
    expect(range.total).toBe(3);
    expect((await list('&startDate=2026-03-03T12:00:00Z', t)).donations.map((d: Item) => d.id)).toEqual([
      after,
      last,
      middle,
    ]);
    expect((await list('&endDate=2026-03-03T12:00:00Z', t)).donations.map((d: Item) => d.id)).toEqual([
      middle,
      first,
      before,
    ]);
    expect((await list('&startDate=2026-03-05&endDate=2026-03-05', t)).total).toBe(1);
    expect((await list('', t)).total).toBe(5);
  });

  it('counts the total over the whole filtered range, not the page', async () => {
    const page = await list('&startDate=2026-01-05&endDate=2026-01-14&limit=3');
    // days 5..14 = 10 gifts, plus the two extra on the 10th
    expect(page).toMatchObject({ total: 12, limit: 3, offset: 0 });
    expect(page.donations).toHaveLength(3);
  });

  it.each([
    ['startDate', 'startDate=2025-02-30'],
    ['startDate', 'startDate=last-week'],
    ['endDate', 'endDate=2026-13-01'],
    ['endDate', 'endDate=2026-03-01T10:00:00'],
    ['endDate', 'startDate=2026-03-05&endDate=2026-03-01'],
  ])('refuses a bad range → 400 naming %s (%s)', async (field, q) => {
    await expectRejected(s, () => s.request('GET', `/api/v1/donations?accountId=${s.accountId}&${q}`), 400, {
      field,
    });
  });
});

describe('items', () => {
  it('carry exactly the spec fields, with the donor name and campaign name', async () => {
    const page = await list('&limit=1');
    const item = page.donations[0];
    expect(Object.keys(item).sort()).toEqual([
      'campaignId',
      'campaignName',
      'contactId',
      'contactName',
      'createdAt',
      'donationAmount',
      'donationDate',
      'id',
      'notes',
      'paymentMethod',
    ]);
    expect(item).toMatchObject({
      contactId: donor.id,
      contactName: 'Lin Bao',
      campaignId: campaign.id,
      campaignName: 'Winter Appeal',
      donationAmount: 23,
      paymentMethod: 'check',
      notes: 'ref:23',
    });
  });

  it('show null campaign fields for a gift credited only to a committee', async () => {
    const t = await asNewAccount(s);
    const c = await makeContact(t, { firstName: 'Only', lastName: 'Committee' });
    const cmt = await makeCommittee(t);
    await makeDonation(t, c.id, { committeeId: cmt.id });
    expect((await list('', t)).donations[0]).toMatchObject({
      contactName: 'Only Committee',
      campaignId: null,
      campaignName: null,
    });
  });

  it("never include another account's gifts", async () => {
    const t = await asNewAccount(s);
    expect(await list('', t)).toEqual({ donations: [], total: 0, limit: 20, offset: 0 });
    expect((await list()).total).toBe(25);
  });
});

describe('D8: finding a gift by the external reference kept in notes', () => {
  it('lists the gifts around a date so the caller can match on notes before posting again', async () => {
    const t = await asNewAccount(s);
    const c = await makeContact(t);
    const cmp = await makeCampaign(t);
    const ref = 'giftdesk:don_local_42';
    const posted = await makeDonation(t, c.id, {
      campaignId: cmp.id,
      donationDate: '2026-06-15T14:03:00Z',
      notes: ref,
    });
    await makeDonation(t, c.id, {
      campaignId: cmp.id,
      donationDate: '2026-06-15T09:00:00Z',
      notes: 'giftdesk:don_local_41',
    });
    const around = await list('&startDate=2026-06-15&endDate=2026-06-15&limit=100', t);
    const found = around.donations.filter((d: Item) => d.notes === ref);
    expect(found).toHaveLength(1);
    expect(found[0].id).toBe(posted.id);
  });
});
