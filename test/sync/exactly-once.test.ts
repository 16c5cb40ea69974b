/**
 * Exactly once when the outcome is unknown: HQ (a real GiftDesk server) behind net/'s
 * fault proxy, which drops answers after HQ committed, resets before forwarding, or answers
 * 500 after HQ applied the request. Counted at HQ and at the proxy.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { listAttention, recordSyncState, retryItem } from '../../electron/sync/status/attention.ts';
import { createSyncEngine, type SyncEngine } from '../../electron/sync/push/engine.ts';
import { defaultClient } from '../../electron/sync/push/default-client.ts';
import { queueCounts } from '../../electron/sync/outbox/outbox.ts';
import { saveRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { envKeySource } from '../../electron/sync/remote/secret-box.ts';
import { linkRemote, remoteIdFor } from '../../electron/sync/outbox/links.ts';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.ts';
import { type FaultAction, type FaultProxy, type ProxiedRequest, startFaultProxy } from './fault-proxy.ts';
import { passWhenDue } from './until-due.ts';

const keys = envKeySource({ GIFTDESK_SYNC_KEY: '5'.repeat(64) })!;

let hq: TestServer;
let proxy: FaultProxy;
let store: Store;
let ctx: DomainContext;
let accountId: string;
let campaignId: string;
let hqCampaignId: string;
let engine: SyncEngine;
const DEADLINE_MS = 1000;

beforeAll(async () => {
  hq = await startTestServer();
  proxy = await startFaultProxy({ target: hq.url });
  hqCampaignId = (await hq.request('POST', '/api/v1/campaigns', { accountId: hq.accountId, name: 'Gala' }))
    .body.id;
});
afterAll(async () => {
  await proxy.close();
  await hq.close();
});
beforeEach(async () => {
  proxy.setRule(() => ({ kind: 'forward' }));
  store = await openStore({ dataDir: tempDir() });
  ctx = createContext(store);
  accountId = (await createAccount(ctx, 'Laptop')).id;
  campaignId = (await createCampaign(ctx, { accountId, name: 'Gala' })).id;
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
      baseUrl: proxy.url,
      keyId: hq.keyId,
      secret: hq.secret,
      remoteAccountId: hq.accountId,
      ratePerSecond: 100,
    },
    new Date().toISOString(),
  );
  // random 0: backoff of 0 ms; a create of unknown outcome is looked for once its request's
  // deadline has passed (reconcile.ts): a 1-s deadline, so the tests wait 1 s, not 15
  engine = createSyncEngine({
    store,
    keys,
    random: () => 0,
    requestTimeoutMs: DEADLINE_MS,
    makeClient: (cfg) => defaultClient(cfg, DEADLINE_MS),
  });
});
afterEach(async () => {
  await engine.stop();
  await store.close();
});

/** The first request matching, once; everything else forwarded. */
function faultOnce(match: (r: ProxiedRequest) => boolean, action: FaultAction) {
  let done = false;
  proxy.setRule((r) => {
    if (!done && match(r)) {
      done = true;
      return action;
    }
    return { kind: 'forward' };
  });
}
const isPost = (prefix: string) => (r: ProxiedRequest) => r.method === 'POST' && r.path.startsWith(prefix);

async function hqGiftsWithRef(localId: string) {
  const list = (await hq.request('GET', `/api/v1/donations?accountId=${hq.accountId}&limit=100`)).body;
  return (list.donations as Array<{ id: string; notes: string | null }>).filter((d) =>
    d.notes?.includes(`gd:${localId}`),
  );
}
async function hqContactsNamed(last: string) {
  return (await hq.request('GET', `/api/v1/contacts?accountId=${hq.accountId}&search=${last}&limit=100`)).body
    .data as Array<{ id: string }>;
}
const postsTo = (prefix: string, from: number) =>
  proxy.records.slice(from).filter((r) => r.method === 'POST' && r.path.startsWith(prefix) && r.forwarded)
    .length;

describe('exactly once through faults', () => {
  it('a gift whose answer was lost after HQ committed is found by its reference, never posted twice', async () => {
    const c = await createContact(ctx, { accountId, firstName: 'Ada', lastName: 'Lostanswer' });
    const g = await createDonation(ctx, {
      accountId,
      contactId: c.id,
      donationAmount: 40,
      donationDate: '2026-05-05',
      paymentMethod: 'cash',
      campaignId,
    });
    const mark = proxy.records.length;
    faultOnce(isPost('/api/v1/donations'), { kind: 'dropAfterCommit' });
    const first = await engine.runPass();
    expect(first.accounts[0]!.failed).toBe(1); // unknown: looked for once the request's deadline has passed
    await passWhenDue(engine);
    expect(
      proxy.records.slice(mark).some((r) => r.method === 'GET' && r.path.startsWith('/api/v1/donations')),
    ).toBe(true);
    expect((await recordSyncState(store.db, 'donation', g.id)).phase).toBe('sent');
    expect(await hqGiftsWithRef(g.id)).toHaveLength(1);
    expect(postsTo('/api/v1/donations', mark)).toBe(1);
    expect(await remoteIdFor(store.db, 'donation', g.id)).toBe((await hqGiftsWithRef(g.id))[0]!.id);
    expect(await queueCounts(store.db, accountId)).toMatchObject({
      pending: 0,
      inFlight: 0,
      needsAttention: 0,
    });
  });

  it('a 500 after HQ applied it (looks failed) is reconciled, not re-posted', async () => {
    const c = await createContact(ctx, { accountId, firstName: 'Bea', lastName: 'Fivehundred' });
    const g = await createDonation(ctx, {
      accountId,
      contactId: c.id,
      donationAmount: 41,
      donationDate: '2026-05-05T23:30:00Z',
      paymentMethod: 'check',
      campaignId,
    });
    const mark = proxy.records.length;
    faultOnce(isPost('/api/v1/donations'), { kind: 'respond', status: 500, forward: true });
    await engine.runPass();
    await passWhenDue(engine);
    expect(await hqGiftsWithRef(g.id)).toHaveLength(1);
    expect(postsTo('/api/v1/donations', mark)).toBe(1);
  });

  it('a gift reset before it reached HQ is looked for, found absent, and posted again once', async () => {
    const c = await createContact(ctx, { accountId, firstName: 'Cal', lastName: 'Resetfirst' });
    const g = await createDonation(ctx, {
      accountId,
      contactId: c.id,
      donationAmount: 42,
      donationDate: '2026-05-05',
      paymentMethod: 'cash',
      campaignId,
    });
    const mark = proxy.records.length;
    faultOnce(isPost('/api/v1/donations'), { kind: 'resetBeforeForward' });
    await engine.runPass();
    await passWhenDue(engine);
    expect(await hqGiftsWithRef(g.id)).toHaveLength(1);
    expect(postsTo('/api/v1/donations', mark)).toBe(1);
    // the reconcile read went through the proxy too
    expect(
      proxy.records.slice(mark).some((r) => r.method === 'GET' && r.path.startsWith('/api/v1/donations')),
    ).toBe(true);
  });

  it('a contact whose answer was lost is found by its tag; its gifts then go once', async () => {
    const c = await createContact(ctx, {
      accountId,
      firstName: 'Dot',
      lastName: 'Tagfound',
      primaryEmail: 'dot@example.org',
    });
    const g = await createDonation(ctx, {
      accountId,
      contactId: c.id,
      donationAmount: 43,
      donationDate: '2026-05-05',
      paymentMethod: 'cash',
      campaignId,
    });
    const mark = proxy.records.length;
    faultOnce(isPost('/api/v1/contacts'), { kind: 'dropAfterCommit' });
    await engine.runPass();
    await passWhenDue(engine);
    expect(await hqContactsNamed('Tagfound')).toHaveLength(1);
    expect(postsTo('/api/v1/contacts', mark)).toBe(1);
    expect(await remoteIdFor(store.db, 'contact', c.id)).toBe((await hqContactsNamed('Tagfound'))[0]!.id);
    expect(await hqGiftsWithRef(g.id)).toHaveLength(1);
  });

  it('a contact reset before HQ got it is posted again once', async () => {
    await createContact(ctx, { accountId, firstName: 'Eve', lastName: 'Neverarrived' });
    const mark = proxy.records.length;
    faultOnce(isPost('/api/v1/contacts'), { kind: 'resetBeforeForward' });
    await engine.runPass();
    await passWhenDue(engine);
    expect(await hqContactsNamed('Neverarrived')).toHaveLength(1);
    expect(postsTo('/api/v1/contacts', mark)).toBe(1);
  });

  it('a lookalike without the reference at HQ parks the gift for a person; retry posts it', async () => {
    const c = await createContact(ctx, { accountId, firstName: 'Fay', lastName: 'Lookalike' });
    await engine.runPass();
    const hqContact = (await remoteIdFor(store.db, 'contact', c.id))!;
    // staff entered the same gift at HQ by hand (no reference)
    await hq.request('POST', '/api/v1/donations', {
      accountId: hq.accountId,
      contactId: hqContact,
      donationAmount: 44,
      donationDate: '2026-05-05',
      paymentMethod: 'cash',
      campaignId: hqCampaignId,
      notes: 'typed at HQ',
    });
    const g = await createDonation(ctx, {
      accountId,
      contactId: c.id,
      donationAmount: 44,
      donationDate: '2026-05-05',
      paymentMethod: 'cash',
      campaignId,
    });
    faultOnce(isPost('/api/v1/donations'), { kind: 'resetBeforeForward' });
    await engine.runPass();
    const second = await passWhenDue(engine);
    expect(second.accounts[0]!.parked).toBe(1);
    const [item] = await listAttention(store.db, accountId);
    expect(item).toMatchObject({ code: 'possible_duplicate', entityId: g.id });
    expect(await hqGiftsWithRef(g.id)).toHaveLength(0);
    await retryItem(store, accountId, 'donation', g.id, new Date().toISOString());
    await engine.runPass();
    expect(await hqGiftsWithRef(g.id)).toHaveLength(1);
  });

  it('an engine that died mid-request leaves the record unknown for the next one, which reconciles', async () => {
    const c = await createContact(ctx, { accountId, firstName: 'Gil', lastName: 'Crashed' });
    const g = await createDonation(ctx, {
      accountId,
      contactId: c.id,
      donationAmount: 45,
      donationDate: '2026-05-05',
      paymentMethod: 'cash',
      campaignId,
    });
    await engine.runPass(); // contact and gift at HQ
    // What a kill -9 right after sending leaves behind: the item in flight, its changes in the attempt.
    const before = await hqGiftsWithRef(g.id);
    expect(before).toHaveLength(1);
    await store.write(async (trx) => {
      await trx.deleteFrom('syncLinks').where('localId', '=', g.id).execute();
      // Sent a minute ago (the lease has expired since): its request's deadline is long past.
      await trx
        .updateTable('syncItems')
        .set({
          state: 'in_flight',
          op: 'create',
          attemptId: 'att_dead',
          attemptAt: new Date(Date.now() - 60_000).toISOString(),
          attemptBody: JSON.stringify({
            localId: g.id,
            body: {
              contactId: await remoteIdFor(trx, 'contact', c.id),
              donationAmount: 45,
              donationDate: '2026-05-05T00:00:00.000Z',
              paymentMethod: 'cash',
              campaignId: hqCampaignId,
            },
          }),
        })
        .where('entityId', '=', g.id)
        .execute();
      await trx
        .updateTable('changeLog')
        .set({ syncedAt: null, attemptId: 'att_dead' })
        .where('entityId', '=', g.id)
        .execute();
      await trx.deleteFrom('syncLease').execute(); // the dead holder's lease has expired
    });
    const next = createSyncEngine({ store, keys, random: () => 0 });
    const mark = proxy.records.length;
    await next.runPass();
    await next.stop();
    expect(postsTo('/api/v1/donations', mark)).toBe(0);
    expect(await hqGiftsWithRef(g.id)).toHaveLength(1);
    expect(await remoteIdFor(store.db, 'donation', g.id)).toBe(before[0]!.id);
  });
});
