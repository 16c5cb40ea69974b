/**
 * Gift-entry batches and the dashboard's statistics (GiftDesk extensions), over real HTTP.
 * Figures are checked against the donation list the spec route answers, never against
 * numbers the test computed from what it meant to send alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asNewAccount,
  expectError,
  expectRejected,
  expectStatus,
  getDonation,
  giftBody,
  makeCampaign,
  makeContact,
  makeDonation,
  makeDonationAccount,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let gala: { id: string };

beforeAll(async () => {
  s = await startTestServer();
  gala = await makeCampaign(s, 'Spring Gala');
});
afterAll(async () => {
  await s?.close();
});

const q = (t: TestServer, path: string, params: Record<string, string> = {}) =>
  `${path}?${new URLSearchParams({ accountId: t.accountId, ...params }).toString()}`;

async function stats(t: TestServer, params: Record<string, string>) {
  return expectStatus(await t.request('GET', q(t, '/api/v1/stats/donations', params)), 200);
}

/** Every donation the spec list shows for a date range (all pages). */
async function listed(
  t: TestServer,
  startDate: string,
  endDate: string,
): Promise<Array<{ id: string; donationAmount: number; campaignId: string | null; donationDate: string }>> {
  const out = [];
  for (let offset = 0; ; offset += 100) {
    const page = expectStatus(
      await t.request(
        'GET',
        q(t, '/api/v1/donations', { startDate, endDate, limit: '100', offset: String(offset) }),
      ),
      200,
    );
    out.push(...page.donations);
    if (page.donations.length < 100) return out;
  }
}

const cents = (dollars: number) => Math.round(dollars * 100);
const sumCents = (xs: Array<{ donationAmount: number }>) =>
  xs.reduce((a, x) => a + cents(x.donationAmount), 0);

describe('batches', () => {
  it('a batch counts and totals its completed gifts against the expected ones, in the order typed', async () => {
    const b = expectStatus(
      await s.request('POST', '/api/v1/batches', {
        accountId: s.accountId,
        name: 'Table 4 checks',
        campaignId: gala.id,
        paymentMethod: 'check',
        batchDate: '2026-11-20',
        expectedCount: 3,
        expectedTotal: 175.5,
      }),
      201,
    );
    expect(b).toMatchObject({
      name: 'Table 4 checks',
      campaignId: gala.id,
      paymentMethod: 'check',
      batchDate: '2026-11-20',
      expectedCount: 3,
      expectedTotal: 175.5,
      count: 0,
      total: 0,
      closedAt: null,
    });
    expect(b.id).toMatch(/^bat_/);

    const c = await makeContact(s, { firstName: 'Batch', lastName: 'Donor' });
    const made = [];
    for (const amount of [100, 50.25, 25.25]) {
      made.push(await makeDonation(s, c.id, { campaignId: gala.id, donationAmount: amount, batchId: b.id }));
    }
    const outside = await makeDonation(s, c.id, { campaignId: gala.id, donationAmount: 999 });

    const read = expectStatus(await s.request('GET', q(s, `/api/v1/batches/${b.id}`)), 200);
    expect(read).toMatchObject({ count: 3, total: 175.5, expectedCount: 3, expectedTotal: 175.5 });
    expect((await getDonation(s, made[0]!.id)).batchId).toBe(b.id);
    expect((await getDonation(s, outside.id)).batchId).toBeNull();

    const gifts = expectStatus(
      await s.request('GET', q(s, `/api/v1/batches/${b.id}/donations`, { limit: '2' })),
      200,
    );
    expect(gifts.total).toBe(3);
    expect(gifts.data.map((d: { id: string }) => d.id)).toEqual([made[0]!.id, made[1]!.id]);
    const rest = expectStatus(
      await s.request('GET', q(s, `/api/v1/batches/${b.id}/donations`, { limit: '2', offset: '2' })),
      200,
    );
    expect(rest.data.map((d: { id: string }) => d.id)).toEqual([made[2]!.id]);

    const list = expectStatus(await s.request('GET', q(s, '/api/v1/batches')), 200);
    expect(list.data.find((x: { id: string }) => x.id === b.id)).toMatchObject({ count: 3, total: 175.5 });
  });

  it('changes only the fields sent, clears with null, and a closed batch refuses new gifts (409) changing nothing', async () => {
    const b = expectStatus(
      await s.request('POST', '/api/v1/batches', {
        accountId: s.accountId,
        name: 'Cash box',
        paymentMethod: 'cash',
        expectedCount: 10,
      }),
      201,
    );
    const renamed = expectStatus(
      await s.request('PUT', `/api/v1/batches/${b.id}`, { name: 'Cash box A', expectedCount: null }),
      200,
    );
    expect(renamed).toMatchObject({ name: 'Cash box A', paymentMethod: 'cash', expectedCount: null });
    const closed = expectStatus(await s.request('PUT', `/api/v1/batches/${b.id}`, { closed: true }), 200);
    expect(closed.closedAt).toMatch(/Z$/);
    const c = await makeContact(s);
    await expectRejected(
      s,
      () => s.request('POST', '/api/v1/donations', giftBody(s, c.id, { campaignId: gala.id, batchId: b.id })),
      409,
      { code: 'batch_closed', field: 'batchId', contacts: [c.id] },
    );
    const reopened = expectStatus(await s.request('PUT', `/api/v1/batches/${b.id}`, { closed: false }), 200);
    expect(reopened.closedAt).toBeNull();
    await makeDonation(s, c.id, { campaignId: gala.id, batchId: b.id });
  });

  it('refuses bad input naming the field, and batches of another account do not exist for this key', async () => {
    const c = await makeContact(s);
    await expectRejected(
      s,
      () =>
        s.request(
          'POST',
          '/api/v1/donations',
          giftBody(s, c.id, { campaignId: gala.id, batchId: 'bat_nope' }),
        ),
      404,
      { code: 'batch_not_found', field: 'batchId', contacts: [c.id] },
    );
    await expectRejected(
      s,
      () => s.request('POST', '/api/v1/batches', { accountId: s.accountId, name: '' }),
      400,
      { field: 'name' },
    );
    await expectRejected(
      s,
      () => s.request('POST', '/api/v1/batches', { accountId: s.accountId, name: 'x', expectedCount: -1 }),
      400,
      { field: 'expectedCount' },
    );
    await expectRejected(
      s,
      () => s.request('POST', '/api/v1/batches', { accountId: s.accountId, name: 'x', expectedTotal: 1.001 }),
      400,
      { field: 'expectedTotal' },
    );
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/batches', { accountId: s.accountId, name: 'x', batchDate: '2026-02-30' }),
      400,
      { field: 'batchDate' },
    );
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/batches', { accountId: s.accountId, name: 'x', paymentMethod: 'gold' }),
      400,
      { field: 'paymentMethod' },
    );
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/batches', { accountId: s.accountId, name: 'x', campaignId: 'cmp_nope' }),
      404,
      { field: 'campaignId' },
    );

    const other = await asNewAccount(s);
    const theirs = expectStatus(
      await other.request('POST', '/api/v1/batches', { accountId: other.accountId, name: 'Theirs' }),
      201,
    );
    expectError(await s.request('GET', q(s, `/api/v1/batches/${theirs.id}`)), 404, { field: 'id' });
    await expectRejected(
      s,
      () =>
        s.request(
          'POST',
          '/api/v1/donations',
          giftBody(s, c.id, { campaignId: gala.id, batchId: theirs.id }),
        ),
      404,
      { field: 'batchId', contacts: [c.id] },
    );
    expectError(await s.request('GET', `/api/v1/batches?accountId=${other.accountId}`), 403, {
      field: 'accountId',
    });
  });
});

describe('statistics for the dashboard', () => {
  it("a day's total, count, campaigns and hours equal the donation list's, refunds excluded", async () => {
    const t = await asNewAccount(s);
    const g = await makeCampaign(t, 'Gala');
    const a = await makeCampaign(t, 'Annual');
    const dac = await makeDonationAccount(t, { perElection: 100 });
    const c = await makeContact(t);
    const day = '2026-10-15';
    await makeDonation(t, c.id, { campaignId: g.id, donationAmount: 20.1, donationDate: `${day}T18:05:00Z` });
    await makeDonation(t, c.id, {
      campaignId: g.id,
      donationAmount: 0.2,
      donationDate: `${day}T18:59:59.999Z`,
    });
    await makeDonation(t, c.id, { campaignId: a.id, donationAmount: 35, donationDate: `${day}T21:30:00Z` });
    await makeDonation(t, c.id, {
      committeeId: undefined,
      donationAccountId: dac.id,
      donationAmount: 60,
      donationDate: `${day}T00:00:00Z`,
    });
    // over the limit, then refunded: it no longer counts anywhere
    const over = await makeDonation(t, c.id, {
      donationAccountId: dac.id,
      donationAmount: 70,
      donationDate: `${day}T22:00:00Z`,
    });
    const flag = expectStatus(await t.request('GET', q(t, '/api/v1/flags')), 200).flagged.find(
      (f: { donationId: string }) => f.donationId === over.id,
    );
    expectStatus(
      await t.request('POST', `/api/v1/flags/${flag.id}/actions`, {
        accountId: t.accountId,
        action: 'refund',
        note: 'returned at the door',
      }),
      200,
    );
    // the days either side do not count
    await makeDonation(t, c.id, {
      campaignId: g.id,
      donationAmount: 1000,
      donationDate: '2026-10-14T23:59:59.999Z',
    });
    await makeDonation(t, c.id, { campaignId: g.id, donationAmount: 1000, donationDate: '2026-10-16' });

    const st = await stats(t, { startDate: day, endDate: day });
    const inList = await listed(t, day, day);
    expect(inList.length).toBe(5); // the list shows the refunded gift; totals count completed gifts only
    const completed = inList.filter((d) => d.id !== over.id);
    expect(st.count).toBe(completed.length);
    expect(cents(st.total)).toBe(sumCents(completed));
    expect(st.total).toBe(115.3);
    expect(st.startDate).toBe('2026-10-15T00:00:00.000Z');
    expect(st.endDate).toBe('2026-10-15T23:59:59.999Z');

    expect(st.byCampaign).toEqual([
      { campaignId: null, campaignName: null, count: 1, total: 60 },
      { campaignId: a.id, campaignName: 'Annual', count: 1, total: 35 },
      { campaignId: g.id, campaignName: 'Gala', count: 2, total: 20.3 },
    ]);

    expect(st.overTime.unit).toBe('hour');
    expect(st.overTime.points).toHaveLength(24);
    const at = (h: number) =>
      st.overTime.points.find(
        (p: { start: string }) => p.start === `${day}T${String(h).padStart(2, '0')}:00:00.000Z`,
      );
    expect(at(0)).toEqual({ start: `${day}T00:00:00.000Z`, count: 1, total: 60 });
    expect(at(18)).toEqual({ start: `${day}T18:00:00.000Z`, count: 2, total: 20.3 });
    expect(at(21)).toMatchObject({ count: 1, total: 35 });
    expect(at(22)).toMatchObject({ count: 0, total: 0 });
    expect(st.overTime.points.reduce((n: number, p: { count: number }) => n + p.count, 0)).toBe(st.count);
  });

  it("a batch's figures, alone or within a range; days over a longer range, zeros included", async () => {
    const t = await asNewAccount(s);
    const g = await makeCampaign(t, 'Gala');
    const c = await makeContact(t);
    const b = expectStatus(
      await t.request('POST', '/api/v1/batches', {
        accountId: t.accountId,
        name: 'Night one',
        campaignId: g.id,
      }),
      201,
    );
    await makeDonation(t, c.id, {
      campaignId: g.id,
      donationAmount: 10,
      donationDate: '2026-09-01',
      batchId: b.id,
    });
    await makeDonation(t, c.id, {
      campaignId: g.id,
      donationAmount: 15,
      donationDate: '2026-09-03',
      batchId: b.id,
    });
    await makeDonation(t, c.id, { campaignId: g.id, donationAmount: 500, donationDate: '2026-09-02' });

    const whole = await stats(t, { batchId: b.id });
    expect(whole).toMatchObject({ batchId: b.id, count: 2, total: 25, startDate: null, endDate: null });
    const batch = expectStatus(await t.request('GET', q(t, `/api/v1/batches/${b.id}`)), 200);
    expect([whole.count, whole.total]).toEqual([batch.count, batch.total]);
    expect(whole.overTime.unit).toBe('day');
    expect(whole.overTime.points).toEqual([
      { start: '2026-09-01T00:00:00.000Z', count: 1, total: 10 },
      { start: '2026-09-02T00:00:00.000Z', count: 0, total: 0 },
      { start: '2026-09-03T00:00:00.000Z', count: 1, total: 15 },
    ]);
    expect(await stats(t, { batchId: b.id, startDate: '2026-09-02', endDate: '2026-09-30' })).toMatchObject({
      count: 1,
      total: 15,
    });

    const month = await stats(t, { startDate: '2026-09-01', endDate: '2026-09-30' });
    expect(month.overTime.unit).toBe('day');
    expect(month.overTime.points).toHaveLength(30);
    expect(month).toMatchObject({ count: 3, total: 525 });
    expect(sumCents(await listed(t, '2026-09-01', '2026-09-30'))).toBe(cents(month.total));
    const hours = await stats(t, { startDate: '2026-09-01', endDate: '2026-09-03', bucket: 'hour' });
    expect(hours.overTime.points).toHaveLength(72);

    const empty = await stats(t, { startDate: '2027-01-01', endDate: '2027-01-01' });
    expect(empty).toMatchObject({ count: 0, total: 0, byCampaign: [] });
    expect(empty.overTime.points).toHaveLength(24);
  });

  it('basis=entered counts gifts by when they were typed, whatever date they carry (the event room\'s "tonight")', async () => {
    const t = await asNewAccount(s);
    const g = await makeCampaign(t, 'Gala');
    const c = await makeContact(t);
    const before = new Date(Date.now() - 3_600_000).toISOString();
    const old = await makeDonation(t, c.id, {
      campaignId: g.id,
      donationAmount: 40,
      donationDate: '2020-01-01',
    });
    await makeDonation(t, c.id, { campaignId: g.id, donationAmount: 2.5, donationDate: '2020-01-02' });
    const after = new Date(Date.now() + 3_600_000).toISOString();
    const entered = await stats(t, { startDate: before, endDate: after, basis: 'entered' });
    expect(entered).toMatchObject({ basis: 'entered', count: 2, total: 42.5 });
    expect(entered.overTime.unit).toBe('hour');
    expect(entered.overTime.points).toHaveLength(3);
    const hour = entered.overTime.points.find((p: { count: number }) => p.count > 0);
    expect(hour.start.slice(0, 13)).toBe((await getDonation(t, old.id)).createdAt.slice(0, 13));
    expect(await stats(t, { startDate: before, endDate: after })).toMatchObject({
      basis: 'donationDate',
      count: 0,
      total: 0,
    });
    expect(await stats(t, { startDate: '2020-01-01', endDate: '2020-01-02' })).toMatchObject({
      count: 2,
      total: 42.5,
    });
  });

  it('refuses bad scopes naming the field', async () => {
    await expectError(await s.request('GET', q(s, '/api/v1/stats/donations', { basis: 'typed' })), 400, {
      field: 'basis',
    });
    const bad = async (params: Record<string, string>, status: number, field: string) =>
      expectError(await s.request('GET', q(s, '/api/v1/stats/donations', params)), status, { field });
    await bad({ startDate: '2026-02-30' }, 400, 'startDate');
    await bad({ startDate: '2026-05-02', endDate: '2026-05-01' }, 400, 'endDate');
    await bad({ bucket: 'week' }, 400, 'bucket');
    await bad({ startDate: '2020-01-01', endDate: '2026-01-01', bucket: 'hour' }, 400, 'bucket');
    await bad({ batchId: 'bat_nope' }, 404, 'batchId');
    expectError(await s.request('GET', '/api/v1/stats/donations'), 400, { field: 'accountId' });
    const other = await s.otherAccount();
    expectError(await s.request('GET', `/api/v1/stats/donations?accountId=${other.accountId}`), 403, {
      field: 'accountId',
    });
  });
});
