/**
 * On PostgreSQL a common gift is created in two statements without a transaction
 * (electron/domain/donations/create-postgres.ts); everything else goes the ordinary way. These
 * check the two statements' own edges: what they write is what the ordinary way writes, and a
 * case they do not settle leaves nothing behind (above all a sync reference kept for a gift
 * not written). On SQLite the same answers are checked through the API (the ordinary way).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DonationCreateBody } from '#shared/schemas/donations.ts';
import { insertDonationInTwo } from '../../electron/domain/donations/create-postgres.ts';
import { expectError, expectStatus, giftBody, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let donorId: string;
let campaignId: string;

beforeAll(async () => {
  s = await startTestServer();
  donorId = (await makeContact(s, { firstName: 'Robert', lastName: 'Brown' })).id;
  campaignId = (await makeCampaign(s, 'Autumn gala')).id;
});
afterAll(async () => {
  await s?.close();
});

const count = async (table: 'donations' | 'change_log' | 'donation_sync_references', accountId: string) =>
  Number(
    (
      await sql<{
        n: number;
      }>`select count(*) as n from ${sql.table(table)} where account_id = ${accountId}`.execute(s.store.db)
    ).rows[0]?.n,
  );

const counted = async (accountId: string) =>
  Number(
    (
      await sql<{
        n: number;
      }>`select coalesce(sum(donations), 0) as n from account_counter_slots where account_id = ${accountId}`.execute(
        s.store.db,
      )
    ).rows[0]?.n,
  );

describe('POST /donations in two statements', () => {
  it('writes the gift, the donor total, the count and the change log as the ordinary way does', async () => {
    const before = { gifts: await count('donations', s.accountId), counted: await counted(s.accountId) };
    const res = expectStatus(
      await s.request(
        'POST',
        '/api/v1/donations',
        giftBody(s, donorId, { campaignId, donationAmount: 19.99, paymentMethod: 'cash', notes: 'table 4' }),
      ),
      201,
    ) as { id: string; donationAmount: number; notes: string };
    expect(res.donationAmount).toBe(19.99);
    const row = await s.store.db
      .selectFrom('donations')
      .selectAll()
      .where('id', '=', res.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      amountCents: 1999,
      campaignId,
      status: 'completed',
      electionType: 'general',
      electionYear: 2026,
      notes: 'table 4',
      isAnonymous: 0,
    });
    const log = await s.store.db.selectFrom('changeLog').selectAll().where('entityId', '=', res.id).execute();
    expect(log).toMatchObject([{ entityType: 'donation', op: 'create', push: 1, fields: null }]);
    expect(await count('donations', s.accountId)).toBe(before.gifts + 1);
    expect(await counted(s.accountId)).toBe(before.counted + 1);
  });

  it("another account's campaign and an unknown donor are refused as ever, nothing written", async () => {
    const other = await s.otherAccount();
    const theirs = await s.store.db
      .insertInto('campaigns')
      .values({
        id: 'cmp_theirs000000000000000001',
        accountId: other.accountId,
        name: 'x',
        createdAt: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const gifts = await count('donations', s.accountId);
    const wrongCampaign = await s.request(
      'POST',
      '/api/v1/donations',
      giftBody(s, donorId, { campaignId: theirs.id, notes: 'x\ngd:don_01JDTWOSTATEMENTS0000000001' }),
    );
    expectError(wrongCampaign, 404, { code: 'campaign_not_found', field: 'campaignId' });
    const noDonor = await s.request(
      'POST',
      '/api/v1/donations',
      giftBody(s, 'cnt_nobody000000000000000001', {
        campaignId,
        notes: 'x\ngd:don_01JDTWOSTATEMENTS0000000002',
      }),
    );
    expectError(noDonor, 404, { code: 'contact_not_found', field: 'contactId' });
    expect(await count('donations', s.accountId)).toBe(gifts);
    const refs = await s.store.db
      .selectFrom('donationSyncReferences')
      .select('reference')
      .where('reference', 'like', 'gd:don_01JDTWOSTATEMENTS%')
      .execute();
    expect(refs).toEqual([]);
  });

  it('PostgreSQL: a donor gone between the read and the write leaves no reference and no gift', async () => {
    if (s.store.engine !== 'postgres') return;
    // The write alone with a donor that is not there: the reference would be kept for a gift
    // never written, and its foreign key refuses the whole statement; the caller is told to
    // go the ordinary way (null).
    const input: DonationCreateBody = {
      accountId: s.accountId,
      contactId: 'cnt_gone00000000000000000001',
      campaignId,
      donationAmount: 5,
      donationDate: '2026-03-01',
      paymentMethod: 'cash',
      notes: 'x\ngd:don_01JDTWOSTATEMENTS0000000003',
    };
    const gifts = await count('donations', s.accountId);
    const logs = await count('change_log', s.accountId);
    const refs = await count('donation_sync_references', s.accountId);
    expect(await insertDonationInTwo(s.store.db, input, new Date().toISOString(), {})).toBeNull();
    expect(await count('donations', s.accountId)).toBe(gifts);
    expect(await count('change_log', s.accountId)).toBe(logs);
    expect(await count('donation_sync_references', s.accountId)).toBe(refs);
  });

  it('ten creates at once for one donor, some with one reference: totals and counts add up', async () => {
    const donor = (await makeContact(s, { firstName: 'Łukasz', lastName: 'Żółć' })).id;
    const gifts = await count('donations', s.accountId);
    const countedBefore = await counted(s.accountId);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        s.request(
          'POST',
          '/api/v1/donations',
          giftBody(s, donor, {
            campaignId,
            donationAmount: 10,
            paymentMethod: 'cash',
            notes: i < 5 ? 'twin\ngd:don_01JDTWOSTATEMENTS0000000004' : `own ${i}`,
          }),
        ),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((x) => x === 201)).toHaveLength(6);
    expect(statuses.filter((x) => x === 200)).toHaveLength(4);
    const ids = new Set(answers.slice(0, 5).map((a) => (a.body as { id: string }).id));
    expect(ids.size).toBe(1);
    const c = await s.store.db
      .selectFrom('contacts')
      .select('totalCents')
      .where('id', '=', donor)
      .executeTakeFirstOrThrow();
    expect(Number(c.totalCents)).toBe(6000);
    expect(await count('donations', s.accountId)).toBe(gifts + 6);
    expect(await counted(s.accountId)).toBe(countedBefore + 6);
  });
  it('a gift typed in a batch: the open batch takes it, a closed one is a 409 and nothing is written', async () => {
    const open = expectStatus(
      await s.request('POST', '/api/v1/batches', { accountId: s.accountId, name: 'Gala door', campaignId }),
      201,
    ) as { id: string };
    const closed = expectStatus(
      await s.request('POST', '/api/v1/batches', { accountId: s.accountId, name: 'Friday door', campaignId }),
      201,
    ) as { id: string };
    expectStatus(
      await s.request('PUT', `/api/v1/batches/${closed.id}`, { accountId: s.accountId, closed: true }),
      200,
    );
    // Twin $19.99 cash gifts from one donor, both kept.
    for (let i = 0; i < 2; i++) {
      const saved = expectStatus(
        await s.request(
          'POST',
          `/api/v1/batches/${open.id}/donations`,
          giftBody(s, donorId, { campaignId, donationAmount: 19.99, paymentMethod: 'cash' }),
        ),
        201,
      ) as { donation: { batchId: string }; batch: { count: number; total: number } };
      expect(saved.donation.batchId).toBe(open.id);
      expect(saved.batch).toMatchObject({ count: i + 1, total: 19.99 * (i + 1) });
    }
    const gifts = await count('donations', s.accountId);
    const logs = await count('change_log', s.accountId);
    expectError(
      await s.request(
        'POST',
        `/api/v1/batches/${closed.id}/donations`,
        giftBody(s, donorId, { campaignId, donationAmount: 19.99, paymentMethod: 'cash' }),
      ),
      409,
      { code: 'batch_closed', field: 'batchId' },
    );
    expect(await count('donations', s.accountId)).toBe(gifts);
    expect(await count('change_log', s.accountId)).toBe(logs);
    if (s.store.engine !== 'postgres') return;
    // On PostgreSQL the open batch's gift is written by the two statements; a closed batch, or
    // another account's, is left to the ordinary way (null), which answers as above.
    const input: DonationCreateBody = {
      accountId: s.accountId,
      contactId: donorId,
      campaignId,
      donationAmount: 19.99,
      donationDate: '2026-03-01',
      paymentMethod: 'cash',
    };
    const at = new Date().toISOString();
    const row = await insertDonationInTwo(s.store.db, input, at, { batchId: open.id });
    expect(row?.batchId).toBe(open.id);
    expect(await insertDonationInTwo(s.store.db, input, at, { batchId: closed.id })).toBeNull();
    const other = await s.otherAccount();
    const theirs = expectStatus(
      await s.request(
        'POST',
        '/api/v1/batches',
        { accountId: other.accountId, name: 'Their door' },
        { 'x-api-key': other.keyId, authorization: `Bearer ${other.secret}` },
      ),
      201,
    ) as { id: string };
    expect(await insertDonationInTwo(s.store.db, input, at, { batchId: theirs.id })).toBeNull();
    expect(await count('donations', s.accountId)).toBe(gifts + 1);
  });
});
