/**
 * POST /api/v1/batches/:id/donations: gift entry's save. The answer carries the gift in full
 * (as the batch lists it, over-limit flag included) and the batch's new count and total, so
 * the app reads nothing after a save. Twin gifts are two gifts; a closed or unknown batch and
 * a bad amount are refused naming the field, and save nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  expectStatus,
  giftBody,
  makeCampaign,
  makeContact,
  makeDonationAccount,
} from '../helpers/api-fixtures.ts';
import { closeDesktopSession, openDesktopSession } from '../../electron/shell/session.ts';
import { rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let contactId: string;
let campaignId: string;
let smallAccountId: string;

beforeAll(async () => {
  s = await startTestServer();
  contactId = (await makeContact(s, { firstName: 'Zoë', lastName: 'Núñez', primaryEmail: 'zoe@example.org' }))
    .id;
  campaignId = (await makeCampaign(s, 'Spring Gala')).id;
  smallAccountId = (await makeDonationAccount(s, { perYear: 500 }, 'Small')).id;
});
afterAll(async () => {
  await s?.close();
});

const newBatch = async (fields: Record<string, unknown> = {}) =>
  expectStatus(
    await s.request('POST', '/api/v1/batches', {
      accountId: s.accountId,
      name: 'Door',
      campaignId,
      ...fields,
    }),
    201,
  ).id as string;
const save = (batchId: string, fields: Record<string, unknown> = {}) =>
  s.request(
    'POST',
    `/api/v1/batches/${batchId}/donations`,
    giftBody(s, contactId, { campaignId, ...fields }),
  );
const batchCount = async (batchId: string) =>
  expectStatus(await s.request('GET', `/api/v1/batches/${batchId}?accountId=${s.accountId}`), 200)
    .count as number;

describe('POST /api/v1/batches/:id/donations', () => {
  it('answers the gift in full and the batch’s new figures; twin gifts ($19.99 cash, same donor) are two gifts', async () => {
    const batchId = await newBatch();
    const first = expectStatus(
      await save(batchId, { donationAmount: 19.99, paymentMethod: 'cash', notes: 'table 4' }),
      201,
    );
    expect(first.donation).toMatchObject({
      contactId,
      contactName: 'Zoë Núñez',
      donationAmount: 19.99,
      paymentMethod: 'cash',
      status: 'completed',
      campaignId,
      campaignName: 'Spring Gala',
      notes: 'table 4',
      flagged: false,
      batchId,
    });
    expect(first.donation.sync.state).toBe('not_sent');
    expect(first.batch).toMatchObject({ id: batchId, count: 1, total: 19.99 });
    const twin = expectStatus(
      await save(batchId, { donationAmount: 19.99, paymentMethod: 'cash', notes: 'table 4' }),
      201,
    );
    expect(twin.donation.id).not.toBe(first.donation.id);
    expect(twin.batch).toMatchObject({ count: 2, total: 39.98 });
    // What a later read of the gift says, the save said.
    const read = expectStatus(
      await s.request('GET', `/api/v1/donations/${twin.donation.id}?accountId=${s.accountId}`),
      200,
    );
    expect(twin.donation).toEqual(read);
    // The sync badge's status comes with the save, after it: what GET /sync/status says now.
    const status = expectStatus(await s.request('GET', `/api/v1/sync/status?accountId=${s.accountId}`), 200);
    const { checkedAt: _then, ...saidAtSave } = twin.sync;
    const { checkedAt: _now, ...saidNow } = status;
    expect(saidAtSave).toEqual(saidNow);
    expect(twin.sync.waiting).toBe(first.sync.waiting + 1);
  });

  it("a try made again with its row's key, its answer lost, is the same gift: 200, nothing written; another key is another gift", async () => {
    const batchId = await newBatch();
    const donorTotal = async () =>
      expectStatus(await s.request('GET', `/api/v1/contacts/${contactId}?accountId=${s.accountId}`), 200)
        .totalDonations as number;
    const before = await donorTotal();
    const gift = { donationAmount: 19.99, paymentMethod: 'cash', notes: 'table 4' };
    const first = expectStatus(await save(batchId, { ...gift, entryKey: 'ent_row_one_try' }), 201);
    expect(first.alreadySaved).toBe(false);
    // The same try again (the hub's answer never reached the window): that gift, as it is now.
    const again = expectStatus(await save(batchId, { ...gift, entryKey: 'ent_row_one_try' }), 200);
    expect(again.alreadySaved).toBe(true);
    expect(again.donation).toEqual(first.donation);
    expect(again.batch).toMatchObject({ count: 1, total: 19.99 });
    expect(await donorTotal()).toBeCloseTo(before + 19.99, 2);
    // Its twin, typed next in a fresh row with a key of its own: a second gift.
    const twin = expectStatus(await save(batchId, { ...gift, entryKey: 'ent_row_two_try' }), 201);
    expect(twin.donation.id).not.toBe(first.donation.id);
    expect(twin.batch).toMatchObject({ count: 2, total: 39.98 });
    // Ten tries of one row at once: one gift, and each answers it.
    const racing = await Promise.all(
      Array.from({ length: 10 }, () =>
        save(batchId, { ...gift, donationAmount: 5, entryKey: 'ent_row_raced' }),
      ),
    );
    const ids = new Set(
      racing.map((r) => (expectStatus(r, r.status === 201 ? 201 : 200).donation as { id: string }).id),
    );
    expect(ids.size).toBe(1);
    expect(racing.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await batchCount(batchId)).toBe(3);
    // A key that is not one: refused naming it, nothing saved.
    expectError(await save(batchId, { ...gift, entryKey: 'x' }), 400, { field: 'entryKey' });
    expectError(await save(batchId, { ...gift, entryKey: 'ent row with spaces' }), 400, {
      field: 'entryKey',
    });
    expect(await batchCount(batchId)).toBe(3);
  });

  it("in the app's window, a gd: line ending the notes is text typed, not a sync reference: each save is a gift", async () => {
    const batchId = await newBatch();
    const desktop = await openDesktopSession(s.ctx, s.url);
    try {
      const asWindow = () =>
        rawRequest(
          `${s.url}/api/v1/batches/${batchId}/donations`,
          'POST',
          giftBody(s, contactId, {
            campaignId,
            donationAmount: 25,
            notes: 'copied from last year\ngd:don_lastyear',
          }),
          { 'x-api-key': desktop.keyId, authorization: `Bearer ${desktop.secret}` },
        );
      const a = expectStatus(await asWindow(), 201);
      const b = expectStatus(await asWindow(), 201);
      expect(b.donation.id).not.toBe(a.donation.id);
      expect(await batchCount(batchId)).toBe(2);
    } finally {
      await closeDesktopSession(s.ctx, desktop);
    }
  });

  it('an over-limit gift comes back flagged', async () => {
    const batchId = await newBatch({ donationAccountId: smallAccountId });
    const res = expectStatus(
      await save(batchId, { donationAccountId: smallAccountId, donationAmount: 600 }),
      201,
    );
    expect(res.donation.flagged).toBe(true);
  });

  it('refuses a closed batch (409), an unknown one (404) and a bad amount (400), naming the field, and saves nothing', async () => {
    const batchId = await newBatch();
    expectError(await save(batchId, { donationAmount: -5 }), 400, { field: 'donationAmount' });
    expect(await batchCount(batchId)).toBe(0);
    expectStatus(
      await s.request('PUT', `/api/v1/batches/${batchId}`, { accountId: s.accountId, closed: true }),
      200,
    );
    expectError(await save(batchId), 409, { field: 'batchId' });
    expectError(await save('bat_01J00000000000000000000000'), 404, { field: 'batchId' });
    expect(await batchCount(batchId)).toBe(0);
  });
});

describe('POST /api/v1/batches with an entry key', () => {
  const start = (fields: Record<string, unknown>) =>
    s.request('POST', '/api/v1/batches', {
      accountId: s.accountId,
      name: 'Table 3 cash',
      campaignId,
      ...fields,
    });
  const batchesNamed = async (name: string) =>
    (
      expectStatus(await s.request('GET', `/api/v1/batches?accountId=${s.accountId}&limit=100`), 200)
        .data as Array<{
        id: string;
        name: string;
      }>
    ).filter((b) => b.name === name);

  it('a start tried again with its key, its answer lost, is the same batch: 200, nothing written; another key starts another', async () => {
    const name = 'Table 3 cash (retried)';
    const fields = { name, expectedCount: 12, expectedTotal: 1250, entryKey: 'ent_batch_try_1' };
    const first = expectStatus(await start(fields), 201);
    // The same try again (the hub's answer never reached the window): that batch, as it is now.
    expectStatus(await save(first.id as string, { donationAmount: 19.99, paymentMethod: 'cash' }), 201);
    const again = expectStatus(await start(fields), 200);
    expect(again).toMatchObject({ id: first.id, name, expectedTotal: 1250, count: 1, total: 19.99 });
    expect(await batchesNamed(name)).toHaveLength(1);
    // A second batch of the same name, started on purpose with a key of its own: two batches.
    const second = expectStatus(await start({ ...fields, entryKey: 'ent_batch_try_2' }), 201);
    expect(second.id).not.toBe(first.id);
    // Ten tries of one start at once: one batch, and each answers it.
    const racing = await Promise.all(
      Array.from({ length: 10 }, () =>
        start({ ...fields, name: `${name}, raced`, entryKey: 'ent_batch_raced' }),
      ),
    );
    expect(new Set(racing.map((r) => expectStatus(r, r.status === 201 ? 201 : 200).id)).size).toBe(1);
    expect(racing.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await batchesNamed(`${name}, raced`)).toHaveLength(1);
    expect(await batchesNamed(name)).toHaveLength(2);
  });

  it('refuses a key that is not one, naming it, and starts nothing', async () => {
    const name = 'Table 3 cash (bad key)';
    expectError(await start({ name, entryKey: 'x' }), 400, { field: 'entryKey' });
    expectError(await start({ name, entryKey: 'ent batch with spaces' }), 400, { field: 'entryKey' });
    expect(await batchesNamed(name)).toHaveLength(0);
  });
});
