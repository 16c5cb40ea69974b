/**
 * D5 (which election a gift counts toward) and D6 (contribution limits: checked, never
 * enforced; over-limit gifts flagged for the treasurer, who reviews, refunds or
 * redesignates them through /api/v1/flags).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asNewAccount,
  expectRejected,
  expectStatus,
  getContact,
  getDonation,
  giftBody,
  makeCampaign,
  makeContact,
  makeDonation,
  makeDonationAccount,
  type Limits,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let campaignId: string;

beforeAll(async () => {
  s = await startTestServer();
  campaignId = (await makeCampaign(s, 'Election Fund')).id;
});
afterAll(async () => {
  await s?.close();
});

interface FlagView {
  id: string;
  donationId: string;
  contactId: string;
  limitKind: string;
  window: string;
  limit: number;
  donorTotal: number;
  overBy: number;
  state: string;
  electionType: string;
  electionYear: number;
}

async function flags(t: TestServer, state: 'open' | 'all' = 'all'): Promise<FlagView[]> {
  return expectStatus(await t.request('GET', `/api/v1/flags?accountId=${t.accountId}&state=${state}`), 200)
    .flagged;
}
const flagsOf = async (t: TestServer, donationId: string) =>
  (await flags(t)).filter((f) => f.donationId === donationId);

async function electionOf(t: TestServer, donationId: string): Promise<string> {
  const d = await getDonation(t, donationId);
  return `${d.electionType} ${d.electionYear}`;
}

describe('D5: the election a gift counts toward', () => {
  it('uses electionType and electionYear when both are sent', async () => {
    const c = await makeContact(s);
    const d = await makeDonation(s, c.id, { campaignId, electionType: 'primary', electionYear: 2026 });
    expect(await electionOf(s, d.id)).toBe('primary 2026');
  });

  it('refuses only one of them → 400 naming the missing one, saving nothing', async () => {
    const c = await makeContact(s);
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/donations', giftBody(s, c.id, { campaignId, electionType: 'general' })),
      400,
      { field: 'electionYear', contacts: [c.id] },
    );
    await expectRejected(
      s,
      () => s.request('POST', '/api/v1/donations', giftBody(s, c.id, { campaignId, electionYear: 2026 })),
      400,
      { field: 'electionType', contacts: [c.id] },
    );
    await expectRejected(
      s,
      () =>
        s.request(
          'POST',
          '/api/v1/donations',
          giftBody(s, c.id, { campaignId, electionType: 'mayoral', electionYear: 2026 }),
        ),
      400,
      { field: 'electionType' },
    );
    await expectRejected(
      s,
      () =>
        s.request(
          'POST',
          '/api/v1/donations',
          giftBody(s, c.id, { campaignId, electionType: 'general', electionYear: 2026.5 }),
        ),
      400,
      { field: 'electionYear' },
    );
  });

  it.each([
    ['2026-11-03', 'general 2026'], // election day itself
    ['2026-11-04', 'general 2028'], // the day after
    ['2026-11-04T03:00:00-05:00', 'general 2028'], // 08:00 UTC on the 4th: UTC decides (D4)
    ['2026-11-03T23:59:59Z', 'general 2026'],
    ['2025-05-01', 'general 2026'], // odd year: the next even year's
    ['2024-11-05', 'general 2024'],
    ['2024-11-06', 'general 2026'],
    ['2028-01-01', 'general 2028'],
  ])(
    'with no calendar or default, a gift on %s counts toward the next federal general: %s',
    async (donationDate, expected) => {
      const t = await asNewAccount(s);
      const c = await makeContact(t);
      const cmp = await makeCampaign(t);
      const d = await makeDonation(t, c.id, { campaignId: cmp.id, donationDate });
      expect(await electionOf(t, d.id)).toBe(expected);
    },
  );

  it("counts toward the next election on the account's calendar (on its day too), then falls back", async () => {
    const t = await asNewAccount(s);
    const c = await makeContact(t);
    const cmp = await makeCampaign(t);
    expectStatus(
      await t.request('POST', '/api/v1/elections', {
        accountId: t.accountId,
        electionType: 'primary',
        electionYear: 2026,
        electionDate: '2026-06-02',
      }),
      201,
    );
    expectStatus(
      await t.request('POST', '/api/v1/elections', {
        accountId: t.accountId,
        electionType: 'runoff',
        electionYear: 2026,
        electionDate: '2026-08-11',
      }),
      201,
    );
    const on = async (donationDate: string) =>
      electionOf(t, (await makeDonation(t, c.id, { campaignId: cmp.id, donationDate })).id);
    expect(await on('2026-03-01')).toBe('primary 2026');
    expect(await on('2026-06-02')).toBe('primary 2026');
    expect(await on('2026-06-03')).toBe('runoff 2026');
    expect(await on('2026-09-01')).toBe('general 2026'); // nothing left on the calendar
  });

  it("uses the account's default election when one is set (before the calendar), and explicit values win over it", async () => {
    const t = await asNewAccount(s);
    const c = await makeContact(t);
    const cmp = await makeCampaign(t);
    expectStatus(
      await t.request('POST', '/api/v1/elections', {
        accountId: t.accountId,
        electionType: 'primary',
        electionYear: 2026,
        electionDate: '2026-06-02',
      }),
      201,
    );
    const set = expectStatus(
      await t.request('PUT', '/api/v1/elections/default', {
        accountId: t.accountId,
        electionType: 'special',
        electionYear: 2027,
      }),
      200,
    );
    expect(set.defaultElection).toEqual({ electionType: 'special', electionYear: 2027 });
    expect(
      await electionOf(
        t,
        (await makeDonation(t, c.id, { campaignId: cmp.id, donationDate: '2026-03-01' })).id,
      ),
    ).toBe('special 2027');
    expect(
      await electionOf(
        t,
        (await makeDonation(t, c.id, { campaignId: cmp.id, electionType: 'general', electionYear: 2026 })).id,
      ),
    ).toBe('general 2026');
    // cleared: back to the calendar
    expectStatus(
      await t.request('PUT', '/api/v1/elections/default', {
        accountId: t.accountId,
        electionType: null,
        electionYear: null,
      }),
      200,
    );
    expect(
      await electionOf(
        t,
        (await makeDonation(t, c.id, { campaignId: cmp.id, donationDate: '2026-03-01' })).id,
      ),
    ).toBe('primary 2026');
  });
});

describe('D6: contribution limits are checked, never enforced', () => {
  async function setup(limits: Limits) {
    const t = await asNewAccount(s);
    const dac = await makeDonationAccount(t, limits);
    const donor = await makeContact(t, { firstName: 'Big', lastName: 'Giver' });
    const give = (donationAmount: number, donationDate: string, fields: Record<string, unknown> = {}) =>
      makeDonation(t, donor.id, { donationAccountId: dac.id, donationAmount, donationDate, ...fields });
    return { t, dac, donor, give };
  }

  it('accepts an over-limit gift with the same response shape as any other, and flags it with limit, window and donor total', async () => {
    const { t, dac, donor, give } = await setup({ perElection: 1000 });
    const under = await give(600, '2026-03-01', { electionType: 'general', electionYear: 2026 });
    const over = await give(500, '2026-04-01', { electionType: 'general', electionYear: 2026 });
    expect(Object.keys(over).sort()).toEqual(Object.keys(under).sort());
    expect(over.status).toBe('completed');
    expect(over.donationAmount).toBe(500);
    const all = await flags(t);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      donationId: over.id,
      contactId: donor.id,
      limitKind: 'per_election',
      window: 'general-2026',
      limit: 1000,
      donorTotal: 1100,
      overBy: 100,
      state: 'open',
      electionType: 'general',
      electionYear: 2026,
    });
    expect(all[0]!.id).toMatch(/^flg_/);
    expect((await getDonation(t, over.id)).flagged).toBe(true);
    expect((await getDonation(t, under.id)).flagged).toBe(false);
    expect((await getContact(t, donor.id)).totalDonations).toBe(1100);
    const dacRead = expectStatus(
      await t.request('GET', `/api/v1/donation-accounts?accountId=${t.accountId}`),
      200,
    );
    expect(dacRead.data[0]).toMatchObject({
      id: dac.id,
      limits: { perElection: 1000, perCycle: null, perYear: null, perDonor: null },
    });
  });

  it('does not flag a total exactly at the limit, and flags one cent over', async () => {
    const { t, give } = await setup({ perYear: 1000 });
    await give(999.99, '2026-01-10');
    const at = await give(0.01, '2026-01-11');
    expect(await flagsOf(t, at.id)).toEqual([]);
    const over = await give(0.01, '2026-01-12');
    expect(await flagsOf(t, over.id)).toMatchObject([
      { limitKind: 'per_year', window: '2026', limit: 1000, donorTotal: 1000.01, overBy: 0.01 },
    ]);
  });

  it('per election: gifts toward another election do not count', async () => {
    const { t, give } = await setup({ perElection: 1000 });
    await give(1000, '2026-03-01', { electionType: 'primary', electionYear: 2026 });
    const general = await give(1000, '2026-03-01', { electionType: 'general', electionYear: 2026 });
    expect(await flags(t)).toEqual([]);
    const over = await give(1, '2026-03-02', { electionType: 'primary', electionYear: 2026 });
    expect(await flagsOf(t, over.id)).toMatchObject([{ window: 'primary-2026', donorTotal: 1001 }]);
    expect(await flagsOf(t, general.id)).toEqual([]);
  });

  it('per cycle: the two-year cycle ending in an even year', async () => {
    const { t, give } = await setup({ perCycle: 2000 });
    await give(1500, '2025-06-01');
    const over = await give(600, '2026-12-31T23:59:59Z');
    expect(await flagsOf(t, over.id)).toMatchObject([
      { limitKind: 'per_cycle', window: '2025-2026', limit: 2000, donorTotal: 2100 },
    ]);
    const nextCycle = await give(600, '2027-01-01');
    expect(await flagsOf(t, nextCycle.id)).toEqual([]);
  });

  it('per calendar year: a new year starts afresh', async () => {
    const { t, give } = await setup({ perYear: 1000 });
    await give(800, '2026-01-01');
    const over = await give(300, '2026-12-31T23:59:59.999Z');
    expect(await flagsOf(t, over.id)).toMatchObject([
      { limitKind: 'per_year', window: '2026', donorTotal: 1100 },
    ]);
    const nextYear = await give(800, '2027-01-01');
    expect(await flagsOf(t, nextYear.id)).toEqual([]);
  });

  it("per donor: the donor's lifetime total, each donor on their own", async () => {
    const { t, dac, give } = await setup({ perDonor: 500 });
    await give(300, '2020-05-01');
    const over = await give(300, '2026-05-01');
    expect(await flagsOf(t, over.id)).toMatchObject([
      { limitKind: 'per_donor', window: 'lifetime', limit: 500, donorTotal: 600 },
    ]);
    const someoneElse = await makeContact(t, { firstName: 'Other', lastName: 'Donor' });
    const theirs = await makeDonation(t, someoneElse.id, { donationAccountId: dac.id, donationAmount: 400 });
    expect(await flagsOf(t, theirs.id)).toEqual([]);
  });

  it('is per donation account: gifts to another account, or with no account, do not count', async () => {
    const { t, donor, give } = await setup({ perDonor: 500 });
    const other = await makeDonationAccount(t, {}, 'State');
    const cmp = await makeCampaign(t);
    await makeDonation(t, donor.id, { donationAccountId: other.id, donationAmount: 5000 });
    await makeDonation(t, donor.id, { campaignId: cmp.id, donationAmount: 5000 });
    const mine = await give(500, '2026-01-01');
    expect(await flags(t)).toEqual([]);
    expect(await flagsOf(t, mine.id)).toEqual([]);
  });

  it('flags each limit a gift breaks', async () => {
    const { t, give } = await setup({ perElection: 100, perYear: 100 });
    const over = await give(150, '2026-02-01', { electionType: 'general', electionYear: 2026 });
    expect((await flagsOf(t, over.id)).map((f) => f.limitKind).sort()).toEqual(['per_election', 'per_year']);
  });

  it('review: marks the flag reviewed; the gift and totals stay; the history keeps both steps', async () => {
    const { t, donor, give } = await setup({ perYear: 100 });
    const over = await give(150, '2026-02-01');
    const [flag] = await flagsOf(t, over.id);
    const res = expectStatus(
      await t.request('POST', `/api/v1/flags/${flag!.id}/actions`, {
        accountId: t.accountId,
        action: 'review',
        note: 'approved by treasurer',
      }),
      200,
    );
    expect(res).toMatchObject({ id: flag!.id, state: 'reviewed', resolutionNote: 'approved by treasurer' });
    expect(res.resolvedAt).toMatch(/Z$/);
    expect(await flags(t, 'open')).toEqual([]);
    expect((await getDonation(t, over.id)).status).toBe('completed');
    expect((await getContact(t, donor.id)).totalDonations).toBe(150);
    const history = expectStatus(
      await t.request('GET', `/api/v1/donations/${over.id}/history?accountId=${t.accountId}`),
      200,
    );
    expect(history.data.map((h: { action: string }) => h.action)).toEqual(['flagged', 'reviewed']);
    // a settled flag cannot be acted on again
    await expectRejected(
      t,
      () =>
        t.request('POST', `/api/v1/flags/${flag!.id}/actions`, { accountId: t.accountId, action: 'refund' }),
      409,
      { code: 'flag_resolved', contacts: [donor.id] },
    );
  });

  it('refund: the gift becomes refunded, totals drop, and refunded gifts no longer count toward the limit', async () => {
    const { t, donor, give } = await setup({ perYear: 1000 });
    const cmp = await makeCampaign(t, 'Refund Campaign');
    await give(700, '2026-02-01', { campaignId: cmp.id });
    const over = await give(500, '2026-03-01', { campaignId: cmp.id });
    const [flag] = await flagsOf(t, over.id);
    expect(flag).toMatchObject({ donorTotal: 1200 });
    const res = expectStatus(
      await t.request('POST', `/api/v1/flags/${flag!.id}/actions`, {
        accountId: t.accountId,
        action: 'refund',
        note: 'returned the check',
      }),
      200,
    );
    expect(res.state).toBe('refunded');
    expect((await getDonation(t, over.id)).status).toBe('refunded');
    const contact = await getContact(t, donor.id);
    expect(contact.totalDonations).toBe(700);
    expect(contact.lastDonationDate).toBe('2026-02-01T00:00:00.000Z');
    expect(
      expectStatus(await t.request('GET', `/api/v1/campaigns/${cmp.id}?accountId=${t.accountId}`), 200),
    ).toMatchObject({ totalRaised: 700, donationCount: 1 });
    // 700 completed + 300 = 1000: at the limit, not over (the refunded 500 does not count)
    const next = await give(300, '2026-04-01');
    expect(await flagsOf(t, next.id)).toEqual([]);
    const history = expectStatus(
      await t.request('GET', `/api/v1/donations/${over.id}/history?accountId=${t.accountId}`),
      200,
    );
    expect(history.data.map((h: { action: string }) => h.action)).toEqual(['flagged', 'refunded']);
  });

  it('redesignate: the gift moves to another election, the history keeps where it was', async () => {
    const { t, donor, give } = await setup({ perElection: 1000 });
    await give(800, '2026-02-01', { electionType: 'general', electionYear: 2026 });
    const over = await give(500, '2026-03-01', { electionType: 'general', electionYear: 2026 });
    const [flag] = await flagsOf(t, over.id);
    // to the election it already counts toward: refused, nothing changed
    await expectRejected(
      t,
      () =>
        t.request('POST', `/api/v1/flags/${flag!.id}/actions`, {
          accountId: t.accountId,
          action: 'redesignate',
          electionType: 'general',
          electionYear: 2026,
        }),
      400,
      { field: 'electionYear', contacts: [donor.id] },
    );
    await expectRejected(
      t,
      () =>
        t.request('POST', `/api/v1/flags/${flag!.id}/actions`, {
          accountId: t.accountId,
          action: 'redesignate',
          electionType: 'general',
        }),
      400,
      { field: 'electionYear' },
    );
    const res = expectStatus(
      await t.request('POST', `/api/v1/flags/${flag!.id}/actions`, {
        accountId: t.accountId,
        action: 'redesignate',
        electionType: 'primary',
        electionYear: 2028,
      }),
      200,
    );
    expect(res.state).toBe('redesignated');
    expect(await electionOf(t, over.id)).toBe('primary 2028');
    expect((await getDonation(t, over.id)).status).toBe('completed');
    expect((await getContact(t, donor.id)).totalDonations).toBe(1300);
    const history = expectStatus(
      await t.request('GET', `/api/v1/donations/${over.id}/history?accountId=${t.accountId}`),
      200,
    );
    expect(history.data.map((h: { action: string }) => h.action)).toEqual(['flagged', 'redesignated']);
    expect(history.data[1].detail).toMatchObject({
      from: { electionType: 'general', electionYear: 2026 },
      to: { electionType: 'primary', electionYear: 2028 },
    });
    expect(await flags(t, 'open')).toEqual([]);
  });

  it('redesignating into an election already at the limit flags the gift again there', async () => {
    const { t, give } = await setup({ perElection: 1000 });
    await give(900, '2026-01-01', { electionType: 'primary', electionYear: 2026 });
    await give(800, '2026-02-01', { electionType: 'general', electionYear: 2026 });
    const over = await give(500, '2026-03-01', { electionType: 'general', electionYear: 2026 });
    const [flag] = await flagsOf(t, over.id);
    expectStatus(
      await t.request('POST', `/api/v1/flags/${flag!.id}/actions`, {
        accountId: t.accountId,
        action: 'redesignate',
        electionType: 'primary',
        electionYear: 2026,
      }),
      200,
    );
    const open = await flags(t, 'open');
    expect(open).toMatchObject([
      { donationId: over.id, window: 'primary-2026', donorTotal: 1400, state: 'open' },
    ]);
  });

  it('refuses bad flag actions: unknown action (400), unknown flag (404), each changing nothing', async () => {
    const { t, donor, give } = await setup({ perYear: 1 });
    const over = await give(5, '2026-01-01');
    const [flag] = await flagsOf(t, over.id);
    await expectRejected(
      t,
      () =>
        t.request('POST', `/api/v1/flags/${flag!.id}/actions`, { accountId: t.accountId, action: 'delete' }),
      400,
      { field: 'action', contacts: [donor.id] },
    );
    await expectRejected(
      t,
      () =>
        t.request('POST', '/api/v1/flags/flg_01JD0000000000000000000000/actions', {
          accountId: t.accountId,
          action: 'review',
        }),
      404,
      { code: 'flag_not_found' },
    );
    // another account's flag is not found either
    await expectRejected(
      s,
      () =>
        s.request('POST', `/api/v1/flags/${flag!.id}/actions`, { accountId: s.accountId, action: 'refund' }),
      404,
      { code: 'flag_not_found' },
    );
  });
});
