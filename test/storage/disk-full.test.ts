/**
 * A full disk: the gift is refused with a clear 507 and nothing half-saved; once space is
 * back the same request succeeds. (SQLite's max_page_count stands in for a full disk.)
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE, startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe.runIf(TEST_ENGINE === 'sqlite')('when the disk fills up', () => {
  it('answers 507 storage_full, saves nothing, and works again once there is room', async () => {
    const accountId = s.accountId;
    const contact = await s.request('POST', '/api/v1/contacts', {
      accountId,
      firstName: 'Full',
      lastName: 'Disk',
    });
    const campaign = await s.request('POST', '/api/v1/campaigns', { accountId, name: 'Gala' });
    const pages = await sql<{ pageCount: number }>`pragma page_count`.execute(s.store.db);
    const used = Number(pages.rows[0]!.pageCount);
    await sql.raw(`pragma max_page_count = ${used}`).execute(s.store.db);

    const gift = {
      accountId,
      contactId: contact.body.id,
      donationAmount: 50,
      donationDate: '2026-11-21',
      paymentMethod: 'cash',
      campaignId: campaign.body.id,
      notes: 'x'.repeat(9000),
    };
    let refused: Awaited<ReturnType<TestServer['request']>> | null = null;
    const accepted: string[] = [];
    for (let i = 0; i < 200 && !refused; i++) {
      const r = await s.request('POST', '/api/v1/donations', gift);
      if (r.status === 201) accepted.push(r.body.id);
      else refused = r;
    }
    expect(refused?.status).toBe(507);
    expect(refused?.body).toMatchObject({ statusCode: 507, code: 'storage_full' });
    expect(refused?.text).not.toMatch(/at .*\.ts:\d+/);

    const list = await s.request('GET', `/api/v1/donations?accountId=${accountId}&limit=100`);
    expect(list.body.total).toBe(accepted.length);
    expect(list.body.donations.map((d: { id: string }) => d.id).sort()).toEqual([...accepted].sort());
    const c = await s.request('GET', `/api/v1/contacts/${contact.body.id}?accountId=${accountId}`);
    expect(c.body.totalDonations).toBe(accepted.length * 50);

    await sql.raw('pragma max_page_count = 1073741823').execute(s.store.db);
    const again = await s.request('POST', '/api/v1/donations', gift);
    expect(again.status).toBe(201);
  });
});
