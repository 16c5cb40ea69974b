/**
 * POST /api/v1/donations: rules D1–D4 and D7, the references a gift may name, and the exact
 * create response. Every refusal is checked to have saved nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asNewAccount,
  expectError,
  expectRejected,
  expectStatus,
  getContact,
  getDonation,
  giftBody,
  makeCampaign,
  makeCommittee,
  makeContact,
  makeDonation,
  makeDonationAccount,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let contactId: string;
let campaignId: string;

beforeAll(async () => {
  s = await startTestServer();
  contactId = (await makeContact(s, { firstName: 'Mary', lastName: 'Jackson' })).id;
  campaignId = (await makeCampaign(s, 'Annual Fund')).id;
});
afterAll(async () => {
  await s?.close();
});

const post = (body: Record<string, unknown>) => () => s.request('POST', '/api/v1/donations', body);
const gift = (fields: Record<string, unknown> = {}) => giftBody(s, contactId, { campaignId, ...fields });

describe('the create response', () => {
  it('has exactly the spec fields, status completed, a don_ id and UTC timestamps', async () => {
    const res = await s.request(
      'POST',
      '/api/v1/donations',
      gift({ donationAmount: 125, notes: 'first gift' }),
    );
    const body = expectStatus(res, 201);
    expect(Object.keys(body).sort()).toEqual([
      'campaignId',
      'contactId',
      'createdAt',
      'donationAmount',
      'donationDate',
      'id',
      'notes',
      'paymentMethod',
      'status',
    ]);
    expect(body).toMatchObject({
      contactId,
      campaignId,
      donationAmount: 125,
      donationDate: '2026-03-01T00:00:00.000Z',
      paymentMethod: 'check',
      status: 'completed',
      notes: 'first gift',
    });
    expect(body.id).toMatch(/^don_[0-9A-Z]{26}$/);
    expect(body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('puts the gift on the contact record and in the campaign total', async () => {
    const c = await makeContact(s, { firstName: 'Totals', lastName: 'Check' });
    const cmp = await makeCampaign(s, 'Totals Campaign');
    await makeDonation(s, c.id, { campaignId: cmp.id, donationAmount: 40, donationDate: '2026-01-15' });
    await makeDonation(s, c.id, {
      campaignId: cmp.id,
      donationAmount: 60.5,
      donationDate: '2026-02-20T18:30:00Z',
      isAnonymous: true,
    });
    const read = await getContact(s, c.id);
    expect(read.totalDonations).toBe(100.5);
    expect(read.lastDonationDate).toBe('2026-02-20T18:30:00.000Z');
    const campaign = expectStatus(
      await s.request('GET', `/api/v1/campaigns/${cmp.id}?accountId=${s.accountId}`),
      200,
    );
    expect(campaign).toMatchObject({ totalRaised: 100.5, donationCount: 2 });
  });

  it('accepts every payment method of the spec, and refuses any other naming paymentMethod', async () => {
    for (const paymentMethod of [
      'cash',
      'check',
      'credit_card',
      'ach',
      'wire',
      'paypal',
      'venmo',
      'zelle',
      'cryptocurrency',
      'in_kind',
      'other',
    ]) {
      expect(
        expectStatus(
          await s.request('POST', '/api/v1/donations', gift({ paymentMethod, donationAmount: 1 })),
          201,
        ).paymentMethod,
      ).toBe(paymentMethod);
    }
    await expectRejected(s, post(gift({ paymentMethod: 'bitcoin' })), 400, {
      code: 'validation_failed',
      field: 'paymentMethod',
      contacts: [contactId],
    });
    await expectRejected(s, post(gift({ paymentMethod: 'CASH' })), 400, { field: 'paymentMethod' });
  });

  it('keeps the prose fields (committee, on behalf of, facilitated by, anonymous, recurring, thank-you)', async () => {
    const committee = await makeCommittee(s, 'Host Committee');
    const spouse = await makeContact(s, { firstName: 'Spouse', lastName: 'Jackson' });
    const bundler = await makeContact(s, { firstName: 'Bundler', lastName: 'Smith' });
    const created = await makeDonation(s, contactId, {
      committeeId: committee.id,
      onBehalfOfContactId: spouse.id,
      facilitatedByContactId: bundler.id,
      isAnonymous: true,
      isRecurring: true,
      thankYouSent: true,
      thankYouSentDate: '2026-03-02',
    });
    expect(created.campaignId).toBeNull();
    const detail = await getDonation(s, created.id);
    expect(detail).toMatchObject({
      committeeId: committee.id,
      onBehalfOfContactId: spouse.id,
      facilitatedByContactId: bundler.id,
      isAnonymous: true,
      isRecurring: true,
      thankYouSent: true,
      thankYouSentDate: '2026-03-02T00:00:00.000Z',
      status: 'completed',
    });
  });
});

describe('campaigns and their donation accounts', () => {
  it('GET /campaigns/:id lists the donation accounts a campaign credits', async () => {
    const federal = await makeDonationAccount(s, { perElection: 3300 }, 'Federal');
    const state = await makeDonationAccount(s, {}, 'State');
    const cmp = await makeCampaign(s, 'Two Accounts', [state.id, federal.id]);
    const read = expectStatus(
      await s.request('GET', `/api/v1/campaigns/${cmp.id}?accountId=${s.accountId}`),
      200,
    );
    expect(read).toMatchObject({ id: cmp.id, name: 'Two Accounts', totalRaised: 0, donationCount: 0 });
    expect(read.donationAccounts).toEqual([
      { id: federal.id, name: 'Federal' },
      { id: state.id, name: 'State' },
    ]);
  });

  it('refuses an unknown donation account, creating no campaign', async () => {
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/campaigns', {
          accountId: s.accountId,
          name: 'Broken',
          donationAccountIds: ['dac_01JD0000000000000000000000'],
        }),
      404,
      { code: 'donation_account_not_found', field: 'donationAccountIds[0]' },
    );
    await expectRejected(
      s,
      () => s.request('GET', `/api/v1/campaigns/cmp_01JD0000000000000000000000?accountId=${s.accountId}`),
      404,
      {
        code: 'campaign_not_found',
      },
    );
  });
});

describe('D1: donationAmount greater than zero, decimal dollars', () => {
  it.each([
    ['zero', 0],
    ['negative', -25],
    ['a fraction of a cent', 125.005],
    ['a string', '50.00'],
    ['null', null],
  ])('refuses %s naming donationAmount, and saves nothing', async (_label, donationAmount) => {
    await expectRejected(s, post(gift({ donationAmount })), 400, {
      code: 'validation_failed',
      field: 'donationAmount',
      contacts: [contactId],
    });
  });

  it('refuses a missing amount with "is required"', async () => {
    const { donationAmount: _omit, ...rest } = gift();
    const res = await expectRejected(s, post(rest), 400, { field: 'donationAmount' });
    expect(res.body.details).toContainEqual({ field: 'donationAmount', issue: 'is required' });
  });

  it('stores 0.29 exactly, and adds cents without float error', async () => {
    const c = await makeContact(s, { firstName: 'Exact', lastName: 'Cents' });
    const created = await makeDonation(s, c.id, { campaignId, donationAmount: 0.29 });
    expect(created.donationAmount).toBe(0.29);
    expect((await getDonation(s, created.id)).donationAmount).toBe(0.29);
    // stored as whole cents, not as a float
    const row = await s.store.db
      .selectFrom('donations')
      .select('amountCents')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.amountCents)).toBe(29);
    await makeDonation(s, c.id, { campaignId, donationAmount: 0.1 });
    await makeDonation(s, c.id, { campaignId, donationAmount: 0.2 });
    expect((await getContact(s, c.id)).totalDonations).toBe(0.59);
    const list = expectStatus(
      await s.request('GET', `/api/v1/donations?accountId=${s.accountId}&limit=100`),
      200,
    );
    expect(list.donations.find((d: { id: string }) => d.id === created.id).donationAmount).toBe(0.29);
  });
});

describe('D2: a campaign, committee or donation account is required', () => {
  it.each([
    ['none sent', {}],
    ['all null', { campaignId: null, committeeId: null, donationAccountId: null }],
    ['all empty', { campaignId: '', committeeId: '', donationAccountId: '' }],
  ])('refuses a gift with %s → 400 designation_required, saving nothing', async (_label, refs) => {
    const body = { ...giftBody(s, contactId), ...refs };
    const res = await expectRejected(s, post(body), 400, {
      code: 'designation_required',
      field: 'campaignId',
      contacts: [contactId],
    });
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'campaignId',
      'committeeId',
      'donationAccountId',
    ]);
  });

  it('accepts any one of the three', async () => {
    const committee = await makeCommittee(s);
    const dac = await makeDonationAccount(s, {}, 'Unlimited');
    expectStatus(await s.request('POST', '/api/v1/donations', giftBody(s, contactId, { campaignId })), 201);
    expectStatus(
      await s.request('POST', '/api/v1/donations', giftBody(s, contactId, { committeeId: committee.id })),
      201,
    );
    expectStatus(
      await s.request('POST', '/api/v1/donations', giftBody(s, contactId, { donationAccountId: dac.id })),
      201,
    );
  });
});

describe('D3 and the other references: 404 naming the field', () => {
  it('refuses an unknown contactId with 404', async () => {
    const res = await expectRejected(s, post(gift({ contactId: 'cnt_01JD0000000000000000000000' })), 404, {
      code: 'contact_not_found',
      field: 'contactId',
    });
    expect(res.body.message).toContain('cnt_01JD0000000000000000000000');
  });

  it("refuses another account's contact with the same 404", async () => {
    const them = await asNewAccount(s);
    const theirContact = await makeContact(them, { firstName: 'Their', lastName: 'Donor' });
    await expectRejected(s, post(gift({ contactId: theirContact.id })), 404, {
      code: 'contact_not_found',
      field: 'contactId',
    });
  });

  it('refuses a missing contactId with 400', async () => {
    const { contactId: _omit, ...rest } = gift();
    await expectRejected(s, post(rest), 400, { code: 'validation_failed', field: 'contactId' });
  });

  it.each([
    ['campaignId', 'campaign_not_found'],
    ['committeeId', 'committee_not_found'],
    ['donationAccountId', 'donation_account_not_found'],
    ['onBehalfOfContactId', 'contact_not_found'],
    ['facilitatedByContactId', 'contact_not_found'],
  ])('refuses an unknown %s with 404 naming it', async (field, code) => {
    await expectRejected(s, post(gift({ [field]: 'x_01JD0000000000000000000000' })), 404, {
      code,
      field,
      contacts: [contactId],
    });
  });

  it("refuses another account's campaign, committee and donation account as unknown", async () => {
    const them = await asNewAccount(s);
    const cmp = await makeCampaign(them, 'Theirs');
    const cmt = await makeCommittee(them, 'Theirs');
    const dac = await makeDonationAccount(them, {}, 'Theirs');
    await expectRejected(s, post(gift({ campaignId: cmp.id })), 404, {
      code: 'campaign_not_found',
      field: 'campaignId',
    });
    await expectRejected(s, post(gift({ committeeId: cmt.id })), 404, {
      code: 'committee_not_found',
      field: 'committeeId',
    });
    await expectRejected(s, post(gift({ donationAccountId: dac.id })), 404, {
      code: 'donation_account_not_found',
      field: 'donationAccountId',
    });
  });
});

describe('D4: dates', () => {
  it('reads a date-only donationDate as midnight UTC', async () => {
    const created = await makeDonation(s, contactId, { campaignId, donationDate: '2024-02-29' });
    expect(created.donationDate).toBe('2024-02-29T00:00:00.000Z');
  });

  it('converts a timestamp with an offset to UTC with a Z', async () => {
    const created = await makeDonation(s, contactId, {
      campaignId,
      donationDate: '2026-03-01T23:30:00-05:00',
    });
    expect(created.donationDate).toBe('2026-03-02T04:30:00.000Z');
    const z = await makeDonation(s, contactId, { campaignId, donationDate: '2026-03-01T12:00:00.250Z' });
    expect(z.donationDate).toBe('2026-03-01T12:00:00.250Z');
  });

  it.each([
    '2025-02-30',
    '2026-13-01',
    '2026-00-10',
    'yesterday',
    '03/01/2026',
    '2026-03-01T25:00:00Z',
    '2026-03-01T10:00:00',
    '',
  ])('refuses %j naming donationDate, saving nothing', async (donationDate) => {
    await expectRejected(s, post(gift({ donationDate })), 400, {
      code: 'validation_failed',
      field: 'donationDate',
      contacts: [contactId],
    });
  });

  it('refuses an impossible thankYouSentDate naming it', async () => {
    await expectRejected(s, post(gift({ thankYouSentDate: '2026-02-30' })), 400, {
      field: 'thankYouSentDate',
    });
  });
});

describe('D7: no duplicate detection; the caller keeps an external reference in notes', () => {
  it('returns the notes unchanged, and posting the same body twice makes two gifts', async () => {
    const notes = 'ext:stripe:ch_3NqZ9yL2eZvKYlo2 — Zoë’s “gift” ✓ 🎁\nline two';
    const body = gift({ notes, donationAmount: 75 });
    const first = expectStatus(await s.request('POST', '/api/v1/donations', body), 201);
    const second = expectStatus(await s.request('POST', '/api/v1/donations', body), 201);
    expect(first.notes).toBe(notes);
    expect(second.notes).toBe(notes);
    expect(second.id).not.toBe(first.id);
    expect((await getDonation(s, first.id)).notes).toBe(notes);
  });

  it('keeps leading and trailing whitespace of notes too, so an exact match on the reference still finds the gift', async () => {
    const notes = '  stripe:ch_42\n';
    const created = await makeDonation(s, contactId, { campaignId, notes, donationDate: '2031-01-01' });
    expect(created.notes).toBe(notes);
    expect((await getDonation(s, created.id)).notes).toBe(notes);
    const listed = expectStatus(
      await s.request(
        'GET',
        `/api/v1/donations?accountId=${s.accountId}&startDate=2031-01-01&endDate=2031-01-01`,
      ),
      200,
    );
    expect(listed.donations.map((d: { notes: string }) => d.notes)).toEqual([notes]);
  });
});

describe('gifts posted at once, some of them refused', () => {
  it('answers each on its own: the good ones saved exactly once, the refused ones leave nothing', async () => {
    const t = await asNewAccount(s);
    const donor = await makeContact(t, { firstName: 'Busy', lastName: 'Evening' });
    const cmp = await makeCampaign(t, 'Gala Night');
    const bodies = Array.from({ length: 30 }, (_, i) => {
      const base = giftBody(t, donor.id, { campaignId: cmp.id, donationAmount: 10 + i, notes: `gala:${i}` });
      if (i % 3 === 1) return { ...base, contactId: 'cnt_01JD0000000000000000000000' }; // 404 inside the write
      if (i % 3 === 2) return { ...base, campaignId: 'cmp_01JD0000000000000000000000' }; // 404 after the donor is locked
      return base;
    });
    const results = await Promise.all(bodies.map((b) => t.request('POST', '/api/v1/donations', b)));
    const saved: number[] = [];
    results.forEach((r, i) => {
      if (i % 3 === 0) {
        expectStatus(r, 201);
        saved.push(10 + i);
      } else expectError(r, 404, { field: i % 3 === 1 ? 'contactId' : 'campaignId' });
    });
    const list = expectStatus(
      await t.request('GET', `/api/v1/donations?accountId=${t.accountId}&limit=100`),
      200,
    );
    expect(list.total).toBe(10);
    expect(list.donations.map((d: { notes: string }) => d.notes).sort()).toEqual(
      saved.map((a) => `gala:${a - 10}`).sort(),
    );
    const total = saved.reduce((a, b) => a + b, 0);
    expect((await getContact(t, donor.id)).totalDonations).toBe(total);
    expect(
      expectStatus(await t.request('GET', `/api/v1/campaigns/${cmp.id}?accountId=${t.accountId}`), 200),
    ).toMatchObject({ totalRaised: total, donationCount: 10 });
    expect(
      expectStatus(await t.request('GET', `/api/v1/account?accountId=${t.accountId}`), 200),
    ).toMatchObject({ contacts: 1, donations: 10 });
  });
});
