/**
 * Reading one committee or donation account (GiftDesk extensions beside the spec's
 * GET /campaigns/:id): what a sync link checks at HQ before it stores an HQ id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, makeCommittee, makeDonationAccount } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('GET /committees/:id and /donation-accounts/:id', () => {
  it('answer the record, or 404 naming the id', async () => {
    const cmt = await makeCommittee(s, 'Finance Committee');
    const dac = await makeDonationAccount(s, { perYear: 3300 }, 'Federal');
    expect(
      expectStatus(await s.request('GET', `/api/v1/committees/${cmt.id}?accountId=${s.accountId}`), 200),
    ).toMatchObject({ id: cmt.id, name: 'Finance Committee' });
    expect(
      expectStatus(
        await s.request('GET', `/api/v1/donation-accounts/${dac.id}?accountId=${s.accountId}`),
        200,
      ),
    ).toMatchObject({ id: dac.id, name: 'Federal', limits: { perYear: 3300 } });
    const missing = expectStatus(
      await s.request('GET', `/api/v1/committees/cmt_nope?accountId=${s.accountId}`),
      404,
    );
    expect(missing.message).toContain('cmt_nope');
    expect(missing.code).toBe('committee_not_found');
    expect(
      expectStatus(await s.request('GET', `/api/v1/donation-accounts/dac_nope?accountId=${s.accountId}`), 404)
        .code,
    ).toBe('donation_account_not_found');
  });
});
