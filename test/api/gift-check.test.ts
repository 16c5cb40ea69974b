/**
 * GET /api/v1/contacts/{id}/gift-check: what the gift-entry row warns with before saving —
 * the donor's room under a donation account's limits, and their total for the gift's year.
 * The room agrees with the save-time check: a gift above it is flagged, one within is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectStatus,
  makeCampaign,
  makeContact,
  makeDonation,
  makeDonationAccount,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let campaignId: string;

beforeAll(async () => {
  s = await startTestServer();
  campaignId = (await makeCampaign(s, 'Check Fund')).id;
});
afterAll(async () => {
  await s?.close();
});

const check = (contactId: string, q: string) =>
  s.request('GET', `/api/v1/contacts/${contactId}/gift-check?accountId=${s.accountId}&${q}`);

describe('gift check', () => {
  it("reports the room left under each limit in the gift's election and windows, and the year's total", async () => {
    const acct = await makeDonationAccount(s, { perElection: 3300, perYear: 5000 }, 'Federal room');
    const donor = await makeContact(s, { firstName: 'Rooma', lastName: 'Left', employer: 'Acme' });
    const election = { electionType: 'general', electionYear: 2026 };
    await makeDonation(s, donor.id, {
      campaignId,
      donationAccountId: acct.id,
      donationAmount: 3000,
      donationDate: '2026-03-01',
      ...election,
    });
    await makeDonation(s, donor.id, { campaignId, donationAmount: 120, donationDate: '2026-01-15' }); // no donation account: the year total only
    await makeDonation(s, donor.id, {
      campaignId,
      donationAccountId: acct.id,
      donationAmount: 700,
      donationDate: '2025-06-01',
      ...election,
    });

    const r = expectStatus(
      await check(
        donor.id,
        `donationDate=2026-05-01&donationAccountId=${acct.id}&electionType=general&electionYear=2026`,
      ),
      200,
    );
    expect(r.year).toBe(2026);
    expect(r.yearTotal).toBe(3120);
    expect(r.employer).toBe('Acme');
    expect(r.occupation).toBeNull();
    expect(r.election).toEqual(election);
    const byKind = Object.fromEntries(r.limits.map((l: { limitKind: string }) => [l.limitKind, l]));
    expect(byKind.per_election).toMatchObject({
      window: 'general-2026',
      limit: 3300,
      donorTotal: 3700,
      room: 0,
    });
    expect(byKind.per_year).toMatchObject({ window: '2026', limit: 5000, donorTotal: 3000, room: 2000 });
    expect(byKind.per_cycle).toBeUndefined();
  });

  it('the room agrees with the save-time check: within it no flag, above it a flag', async () => {
    const acct = await makeDonationAccount(s, { perYear: 1000 }, 'Yearly');
    const donor = await makeContact(s, { firstName: 'Agree', lastName: 'Check' });
    await makeDonation(s, donor.id, {
      campaignId,
      donationAccountId: acct.id,
      donationAmount: 600,
      donationDate: '2026-02-01',
    });
    const r = expectStatus(
      await check(donor.id, `donationDate=2026-04-01&donationAccountId=${acct.id}`),
      200,
    );
    expect(r.limits[0]).toMatchObject({ limitKind: 'per_year', room: 400 });
    const within = await makeDonation(s, donor.id, {
      campaignId,
      donationAccountId: acct.id,
      donationAmount: 400,
      donationDate: '2026-04-01',
    });
    const over = await makeDonation(s, donor.id, {
      campaignId,
      donationAccountId: acct.id,
      donationAmount: 0.01,
      donationDate: '2026-04-02',
    });
    const flagged = expectStatus(
      await s.request('GET', `/api/v1/flags?accountId=${s.accountId}`),
      200,
    ).flagged.map((f: { donationId: string }) => f.donationId);
    expect(flagged).not.toContain(within.id);
    expect(flagged).toContain(over.id);
    const after = expectStatus(
      await check(donor.id, `donationDate=2026-04-03&donationAccountId=${acct.id}`),
      200,
    );
    expect(after.limits[0]).toMatchObject({ donorTotal: 1000.01, room: 0 });
  });

  it('refuses what it cannot answer, naming the field', async () => {
    const donor = await makeContact(s, { firstName: 'Bad', lastName: 'Query' });
    const noContact = await check('cnt_nope', 'donationDate=2026-01-01');
    expect(noContact.status).toBe(404);
    const noAcct = await check(donor.id, 'donationDate=2026-01-01&donationAccountId=acct_nope');
    expect(noAcct.status).toBe(404);
    expect(noAcct.body.details[0].field).toBe('donationAccountId');
    const badDate = await check(donor.id, 'donationDate=2026-02-30');
    expect(badDate.status).toBe(400);
    expect(badDate.body.details[0].field).toBe('donationDate');
    const half = await check(
      donor.id,
      `donationDate=2026-01-01&donationAccountId=${(await makeDonationAccount(s, {}, 'Half')).id}&electionType=general`,
    );
    expect(half.status).toBe(400);
    expect(half.body.details[0].field).toBe('electionYear');
    const other = await s.otherAccount();
    const foreign = await s.request(
      'GET',
      `/api/v1/contacts/${donor.id}/gift-check?accountId=${other.accountId}&donationDate=2026-01-01`,
    );
    expect(foreign.status).toBe(403);
  });
});
