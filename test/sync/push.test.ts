/**
 * Push, end to end: a local GiftDesk database and a second, real GiftDesk server as HQ on
 * 127.0.0.1. Everything is checked at HQ through its API.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContact, deleteContact, updateContact } from '../../electron/domain/contacts/index.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createCustomField } from '../../electron/domain/contacts/custom-fields.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import {
  discardItem,
  listAttention,
  recordSyncState,
  retryItem,
} from '../../electron/sync/status/attention.ts';
import { createSyncEngine, type SyncEngine } from '../../electron/sync/push/engine.ts';
import { queueCounts } from '../../electron/sync/outbox/outbox.ts';
import { saveRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { envKeySource } from '../../electron/sync/remote/secret-box.ts';
import { linkRemote, remoteIdFor } from '../../electron/sync/outbox/links.ts';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.ts';

const keys = envKeySource({ GIFTDESK_SYNC_KEY: '7'.repeat(64) })!;

let hq: TestServer;
let store: Store;
let ctx: DomainContext;
let accountId: string;
let campaignId: string;
let hqCampaignId: string;
let engine: SyncEngine;

beforeAll(async () => {
  hq = await startTestServer();
  const r = await hq.request('POST', '/api/v1/campaigns', { accountId: hq.accountId, name: 'Gala 2026' });
  hqCampaignId = r.body.id;
});
afterAll(async () => {
  await hq.close();
});

beforeEach(async () => {
  store = await openStore({ dataDir: tempDir() });
  ctx = createContext(store);
  accountId = (await createAccount(ctx, 'Event laptop')).id;
  campaignId = (await createCampaign(ctx, { accountId, name: 'Gala 2026' })).id;
  await store.write((trx) =>
    linkRemote(trx, {
      accountId,
      entityType: 'campaign',
      localId: campaignId,
      remoteId: hqCampaignId,
      source: 'manual',
      at: new Date().toISOString(),
    }),
  );
  await saveRemoteSettings(
    store,
    keys,
    {
      accountId,
      baseUrl: hq.url,
      keyId: hq.keyId,
      secret: hq.secret,
      remoteAccountId: hq.accountId,
      ratePerSecond: 50,
    },
    new Date().toISOString(),
  );
  engine = createSyncEngine({ store, keys });
});
afterEach(async () => {
  await engine.stop();
  await store.close();
});

const hqGet = async (path: string) =>
  (await hq.request('GET', `/api/v1${path}${path.includes('?') ? '&' : '?'}accountId=${hq.accountId}`)).body;
async function hqDonationsWithRef(localId: string) {
  const list = await hqGet('/donations?limit=100');
  return (
    list.donations as Array<{ id: string; notes: string | null; contactId: string; donationAmount: number }>
  ).filter((d) => d.notes?.includes(`gd:${localId}`));
}
const gift = (contactId: string, amount: number, extra: Record<string, unknown> = {}) =>
  createDonation(ctx, {
    accountId,
    contactId,
    donationAmount: amount,
    donationDate: '2026-03-01',
    paymentMethod: 'check',
    campaignId,
    ...extra,
  });

describe('push to a real HQ', () => {
  it('contacts then their gifts, each once, with references; the queue empties', async () => {
    const zoe = await createContact(ctx, {
      accountId,
      firstName: 'Zoë',
      lastName: 'Adams',
      primaryEmail: 'zoe@example.org',
      tags: ['vip'],
    });
    const bo = await createContact(ctx, { accountId, firstName: 'Bo', lastName: 'Chen' });
    const g1 = await gift(zoe.id, 125.5, { notes: 'table 4' });
    const g2 = await gift(bo.id, 20);
    const g3 = await gift(zoe.id, 5);
    const before = await queueCounts(store.db, accountId);
    expect(before.pending).toBe(5);

    const res = await engine.runPass();
    expect(res.ran).toBe(true);
    expect(res.accounts[0]).toMatchObject({ requests: 5, parked: 0, failed: 0, stopped: null });

    const zoeHq = await remoteIdFor(store.db, 'contact', zoe.id);
    const c = await hqGet(`/contacts/${zoeHq}`);
    expect(c).toMatchObject({
      firstName: 'Zoë',
      lastName: 'Adams',
      primaryEmail: 'zoe@example.org',
      tags: ['vip', `gd:${zoe.id}`],
    });
    for (const [g, contact, amount] of [
      [g1, zoe, 125.5],
      [g2, bo, 20],
      [g3, zoe, 5],
    ] as const) {
      const at = await hqDonationsWithRef(g.id);
      expect(at).toHaveLength(1);
      expect(at[0]).toMatchObject({
        contactId: await remoteIdFor(store.db, 'contact', contact.id),
        donationAmount: amount,
      });
      expect(await remoteIdFor(store.db, 'donation', g.id)).toBe(at[0]!.id);
    }
    expect((await hqDonationsWithRef(g1.id))[0]!.notes).toBe(`table 4\ngd:${g1.id}`);
    expect(await queueCounts(store.db, accountId)).toMatchObject({
      pending: 0,
      inFlight: 0,
      needsAttention: 0,
      done: 5,
    });
    expect((await recordSyncState(store.db, 'donation', g1.id)).phase).toBe('sent');
    expect((await recordSyncState(store.db, 'donation', g1.id)).readOnly).toBe(true);

    // nothing left: a second pass sends nothing
    const again = await engine.runPass();
    expect(again.accounts[0]!.requests).toBe(0);
  });

  it('creates and edits before the push go as one create; later edits as one PUT of only the changed fields', async () => {
    const c = await createContact(ctx, { accountId, firstName: 'Ann', lastName: 'Lee' });
    await updateContact(ctx, accountId, c.id, { organization: 'Acme' });
    await updateContact(ctx, accountId, c.id, { lastName: 'Leigh' });
    let res = await engine.runPass();
    expect(res.accounts[0]!.requests).toBe(1);
    const hqId = (await remoteIdFor(store.db, 'contact', c.id))!;
    expect(await hqGet(`/contacts/${hqId}`)).toMatchObject({
      firstName: 'Ann',
      lastName: 'Leigh',
      organization: 'Acme',
    });

    // Staff edit the organisation at HQ; locally only the first name changes (twice).
    await hq.request('PUT', `/api/v1/contacts/${hqId}`, { organization: 'Edited at HQ', title: 'Dr' });
    await updateContact(ctx, accountId, c.id, { firstName: 'Anne' });
    await updateContact(ctx, accountId, c.id, {
      firstName: 'Annie',
      phoneNumbers: [{ phoneNumber: '555-0100', isPrimary: true }],
    });
    res = await engine.runPass();
    expect(res.accounts[0]!.requests).toBe(1); // update + update → one PUT
    const after = await hqGet(`/contacts/${hqId}`);
    expect(after).toMatchObject({
      firstName: 'Annie',
      lastName: 'Leigh',
      organization: 'Edited at HQ',
      title: 'Dr',
    }); // C1: only sent fields changed
    expect(after.phoneNumbers).toMatchObject([{ phoneNumber: '555-0100', isPrimary: true }]);
    expect(after.tags).toEqual([`gd:${c.id}`]); // tags were not sent: HQ kept the create's
  });

  it("custom fields go one by one (C4); a field HQ lacks parks the contact with HQ's message, its gifts wait; retry after the fix sends all", async () => {
    await createCustomField(ctx, { accountId, name: 'Shirt Size', type: 'text' });
    const c = await createContact(ctx, {
      accountId,
      firstName: 'Cy',
      lastName: 'Dee',
      customFields: { 'Shirt Size': 'L' },
    });
    const g = await gift(c.id, 50);
    let res = await engine.runPass();
    expect(res.accounts[0]).toMatchObject({ requests: 1, parked: 1 });
    const list = await listAttention(store.db, accountId);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      entityType: 'contact',
      entityId: c.id,
      code: 'remote_refused',
      remoteStatus: 400,
      label: 'Cy Dee',
    });
    expect(list[0]!.reason).toMatch(/Shirt Size/i);
    expect((await recordSyncState(store.db, 'donation', g.id)).reason).toMatch(/waiting for its donor/);
    expect(await hqDonationsWithRef(g.id)).toHaveLength(0);

    // A pass without a fix sends nothing more (parked after one attempt).
    res = await engine.runPass();
    expect(res.accounts[0]!.requests).toBe(0);

    await hq.request('POST', '/api/v1/custom-fields', {
      accountId: hq.accountId,
      name: 'Shirt Size',
      type: 'text',
    });
    await retryItem(store, accountId, 'contact', c.id, new Date().toISOString());
    res = await engine.runPass();
    expect(res.accounts[0]).toMatchObject({ requests: 2, parked: 0 });
    const hqId = (await remoteIdFor(store.db, 'contact', c.id))!;
    expect((await hqGet(`/contacts/${hqId}`)).customFields).toEqual({ 'Shirt Size': 'L' });
    expect(await hqDonationsWithRef(g.id)).toHaveLength(1);

    await createCustomField(ctx, { accountId, name: 'Team', type: 'text' });
    await hq.request('POST', '/api/v1/custom-fields', {
      accountId: hq.accountId,
      name: 'Team',
      type: 'text',
    });
    await hq.request('PUT', `/api/v1/contacts/${hqId}`, { customFields: { Team: 'HQ set this' } });
    await updateContact(ctx, accountId, c.id, { customFields: { 'shirt size': '' } }); // clears one field only
    await engine.runPass();
    expect((await hqGet(`/contacts/${hqId}`)).customFields).toEqual({ Team: 'HQ set this' });
  });

  it('create + delete before a push sends nothing; a delete of a pushed contact goes as DELETE; 404 is done', async () => {
    const gone = await createContact(ctx, { accountId, firstName: 'Gone', lastName: 'Soon' });
    await deleteContact(ctx, accountId, gone.id);
    let res = await engine.runPass();
    expect(res.accounts[0]!.requests).toBe(0);
    expect(await queueCounts(store.db, accountId)).toMatchObject({ pending: 0, done: 2 });

    const a = await createContact(ctx, { accountId, firstName: 'Del', lastName: 'Me' });
    const b = await createContact(ctx, { accountId, firstName: 'Del', lastName: 'AtHQ' });
    await engine.runPass();
    const aHq = (await remoteIdFor(store.db, 'contact', a.id))!;
    const bHq = (await remoteIdFor(store.db, 'contact', b.id))!;
    await hq.request('DELETE', `/api/v1/contacts/${bHq}?accountId=${hq.accountId}`); // staff deleted b at HQ already
    await deleteContact(ctx, accountId, a.id);
    await deleteContact(ctx, accountId, b.id);
    res = await engine.runPass();
    expect(res.accounts[0]).toMatchObject({ requests: 2, parked: 0 });
    expect((await hq.request('GET', `/api/v1/contacts/${aHq}?accountId=${hq.accountId}`)).status).toBe(404);
    expect(await remoteIdFor(store.db, 'contact', a.id)).toBeNull();
    expect(await queueCounts(store.db, accountId)).toMatchObject({
      pending: 0,
      inFlight: 0,
      needsAttention: 0,
    });
  });

  it('deleting a contact whose gifts HQ has asks first: parked until confirmed; discard keeps them at HQ', async () => {
    const c = await createContact(ctx, { accountId, firstName: 'Has', lastName: 'Gifts' });
    const g = await gift(c.id, 10);
    await engine.runPass();
    const hqId = (await remoteIdFor(store.db, 'contact', c.id))!;
    await deleteContact(ctx, accountId, c.id);
    let res = await engine.runPass();
    expect(res.accounts[0]).toMatchObject({ requests: 0, parked: 1 });
    const [item] = await listAttention(store.db, accountId);
    expect(item).toMatchObject({ code: 'confirm_delete', entityId: c.id });
    expect(item!.reason).toMatch(/also deletes the 1 gift/);
    expect((await hq.request('GET', `/api/v1/contacts/${hqId}?accountId=${hq.accountId}`)).status).toBe(200);

    await retryItem(store, accountId, 'contact', c.id, new Date().toISOString()); // confirm
    res = await engine.runPass();
    expect(res.accounts[0]!.requests).toBe(1);
    expect((await hq.request('GET', `/api/v1/contacts/${hqId}?accountId=${hq.accountId}`)).status).toBe(404);
    expect(await hqDonationsWithRef(g.id)).toHaveLength(0);
    expect(await remoteIdFor(store.db, 'donation', g.id)).toBeNull();

    const k = await createContact(ctx, { accountId, firstName: 'Keep', lastName: 'AtHQ' });
    await gift(k.id, 10);
    await engine.runPass();
    await deleteContact(ctx, accountId, k.id);
    await engine.runPass();
    await discardItem(store, accountId, 'contact', k.id, new Date().toISOString());
    res = await engine.runPass();
    expect(res.accounts[0]!.requests).toBe(0);
    expect(await queueCounts(store.db, accountId)).toMatchObject({ pending: 0, needsAttention: 0 });
  });

  it('a gift whose campaign is not linked waits as needs attention, and goes by itself once linked', async () => {
    const other = await createCampaign(ctx, { accountId, name: 'Spring Appeal' });
    const c = await createContact(ctx, { accountId, firstName: 'Un', lastName: 'Linked' });
    const g = await gift(c.id, 15, { campaignId: other.id });
    let res = await engine.runPass();
    expect(res.accounts[0]).toMatchObject({ requests: 1, parked: 1 });
    const [item] = await listAttention(store.db, accountId);
    expect(item).toMatchObject({ code: 'reference_not_linked', entityId: g.id });
    expect(item!.reason).toContain('Spring Appeal');
    const r = await hq.request('POST', '/api/v1/campaigns', {
      accountId: hq.accountId,
      name: 'Spring Appeal',
    });
    await store.write((trx) =>
      linkRemote(trx, {
        accountId,
        entityType: 'campaign',
        localId: other.id,
        remoteId: r.body.id,
        source: 'manual',
        at: new Date().toISOString(),
      }),
    );
    res = await engine.runPass();
    expect(res.accounts[0]).toMatchObject({ requests: 1, parked: 0 });
    expect(await hqDonationsWithRef(g.id)).toHaveLength(1);
    expect(await listAttention(store.db, accountId)).toEqual([]);
  });

  it('two engines on one database never push the same record twice', async () => {
    const other = await openStore({ dataDir: store.location.replace(/\/giftdesk\.sqlite$/, '') });
    const engine2 = createSyncEngine({ store: other, keys });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const c = await createContact(ctx, { accountId, firstName: `Twin${i}`, lastName: 'Engine' });
        ids.push((await gift(c.id, 10 + i)).id);
      }
      const [r1, r2] = await Promise.all([engine.runPass(), engine2.runPass()]);
      expect([r1.ran, r2.ran].filter(Boolean)).toHaveLength(1);
      // whichever lost the lease tries again later: still nothing doubled
      await engine.runPass();
      await engine2.runPass();
      for (const id of ids) expect(await hqDonationsWithRef(id)).toHaveLength(1);
      const contacts = await hqGet('/contacts?search=Engine&limit=100');
      expect(contacts.total).toBe(12);
    } finally {
      await engine2.stop();
      await other.close();
    }
  });
});
