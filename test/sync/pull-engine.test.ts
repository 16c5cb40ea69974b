/**
 * Pull and the push engine together, against a real HQ (a second GiftDesk server on
 * 127.0.0.1): pulled contacts are never pushed back, the email match links a contact made
 * here to HQ's instead of creating a second one (and can be turned off), and a gift whose
 * campaign is not linked waits with that reason until the link is made and checked at HQ.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContact, listContacts } from '../../electron/domain/contacts/index.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { listAttention } from '../../electron/sync/status/attention.ts';
import { matchContactByEmail } from '../../electron/sync/push/email-match.ts';
import { createSyncEngine, type SyncEngine } from '../../electron/sync/push/engine.ts';
import { defaultClient } from '../../electron/sync/push/default-client.ts';
import { pullFromHq } from '../../electron/sync/pull/pull.ts';
import { linkReference } from '../../electron/sync/reference-data/rules.ts';
import { loadRemoteConfig, saveRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { envKeySource } from '../../electron/sync/remote/secret-box.ts';
import { remoteIdFor } from '../../electron/sync/outbox/links.ts';
import { makeCampaign } from '../helpers/api-fixtures.ts';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.ts';

const keys = envKeySource({ GIFTDESK_SYNC_KEY: '7'.repeat(64) })!;

let hq: TestServer;
let hqCampaignId: string;
let store: Store;
let ctx: DomainContext;
let accountId: string;
let engine: SyncEngine;

const hqContacts = async () =>
  (await hq.request('GET', `/api/v1/contacts?accountId=${hq.accountId}&limit=1`)).body.total as number;
const configure = (emailMatch = true) =>
  saveRemoteSettings(
    store,
    keys,
    {
      accountId,
      baseUrl: hq.url,
      keyId: hq.keyId,
      secret: hq.secret,
      remoteAccountId: hq.accountId,
      ratePerSecond: 200,
      emailMatch,
    },
    ctx.now(),
  );
async function pull(contactsOnly = false) {
  const cfg = (await loadRemoteConfig(store.db, keys, accountId))!;
  return pullFromHq({
    ctx,
    remote: defaultClient(cfg),
    accountId,
    remoteAccountId: hq.accountId,
    emailMatch: cfg.emailMatch,
    contactsOnly,
  });
}

beforeAll(async () => {
  hq = await startTestServer();
  hqCampaignId = (await makeCampaign(hq, 'Spring Gala')).id;
  for (let i = 0; i < 30; i++)
    await createContact(hq.ctx, {
      accountId: hq.accountId,
      firstName: `Known${i}`,
      lastName: 'Donor',
      primaryEmail: `known${i}@hq.example`,
    });
});
afterAll(async () => {
  await hq?.close();
});
beforeEach(async () => {
  store = await openStore({ dataDir: tempDir() });
  ctx = createContext(store);
  accountId = (await createAccount(ctx, 'Event Laptop')).id;
  await configure();
  engine = createSyncEngine({ store, keys, matchContact: matchContactByEmail, random: () => 0 });
});
afterEach(async () => {
  await engine.stop();
  await store.close();
});

describe('pulled contacts and the push engine', () => {
  it('never pushes a pulled contact back to HQ', async () => {
    const before = await hqContacts();
    const run = await pull();
    expect(run.counts.created).toBe(before);
    const pass = await engine.runPass({ accountId });
    expect(pass.accounts[0]).toMatchObject({ requests: 0, applied: 0, parked: 0, failed: 0 });
    expect(await hqContacts()).toBe(before);
  });

  it('links a contact entered here to HQ by its primary email instead of creating it again', async () => {
    const before = await hqContacts();
    const walkIn = await createContact(ctx, {
      accountId,
      firstName: 'Kay',
      lastName: 'Known',
      primaryEmail: 'KNOWN7@hq.example',
    });
    const pass = await engine.runPass({ accountId });
    expect(pass.accounts[0]!.failed).toBe(0);
    expect(await hqContacts()).toBe(before);
    const hqKnown7 = (await hq.request('GET', `/api/v1/contacts?accountId=${hq.accountId}&search=known7`))
      .body.data[0].id;
    expect(await remoteIdFor(store.db, 'contact', walkIn.id)).toBe(hqKnown7);
    const link = await store.db
      .selectFrom('syncLinks')
      .select('source')
      .where('localId', '=', walkIn.id)
      .executeTakeFirstOrThrow();
    expect(link.source).toBe('email');
    // A later pull finds it linked: no local copy of HQ's Known7 is added beside it.
    await pull();
    expect((await listContacts(ctx, { accountId, search: 'known7' })).data.map((c) => c.id)).toEqual([
      walkIn.id,
    ]);
  });

  it('creates the contact at HQ when email match is turned off', async () => {
    await configure(false);
    const before = await hqContacts();
    const walkIn = await createContact(ctx, {
      accountId,
      firstName: 'Kay',
      lastName: 'Twin',
      primaryEmail: 'known8@hq.example',
    });
    await engine.runPass({ accountId });
    expect(await hqContacts()).toBe(before + 1);
    const hqKnown8 = (
      await hq.request(
        'GET',
        `/api/v1/contacts?accountId=${hq.accountId}&search=known8&sortBy=createdAt&sortOrder=asc`,
      )
    ).body.data as Array<{ id: string }>;
    expect(hqKnown8).toHaveLength(2);
    expect(await remoteIdFor(store.db, 'contact', walkIn.id)).toBe(hqKnown8[1]!.id);
    expect(
      await hq.request('DELETE', `/api/v1/contacts/${hqKnown8[1]!.id}?accountId=${hq.accountId}`),
    ).toMatchObject({ status: 200 });
  });

  it('holds a gift whose campaign is not linked, with that reason, and sends it once the link is checked', async () => {
    await pull(true); // contacts only: HQ's campaigns are not listed at every HQ
    const gala = await createCampaign(ctx, { accountId, name: 'Gala at the door' });
    const donor = (await listContacts(ctx, { accountId, search: 'known3' })).data[0]!;
    const gift = await createDonation(ctx, {
      accountId,
      contactId: donor.id,
      donationAmount: 50,
      donationDate: '2026-11-24',
      paymentMethod: 'cash',
      campaignId: gala.id,
    });
    await engine.runPass({ accountId });
    const waiting = await listAttention(store.db, accountId);
    expect(waiting).toEqual([
      expect.objectContaining({
        entityType: 'donation',
        entityId: gift.id,
        code: 'reference_not_linked',
        reason: expect.stringContaining(`campaign "Gala at the door" (${gala.id})`),
      }),
    ]);

    const cfg = (await loadRemoteConfig(store.db, keys, accountId))!;
    await expect(
      linkReference(ctx, defaultClient(cfg), {
        accountId,
        remoteAccountId: hq.accountId,
        kind: 'campaign',
        localId: gala.id,
        remoteId: 'cmp_01NOTATHQ',
      }),
    ).rejects.toThrow(/HQ has no campaign cmp_01NOTATHQ/);
    await linkReference(ctx, defaultClient(cfg), {
      accountId,
      remoteAccountId: hq.accountId,
      kind: 'campaign',
      localId: gala.id,
      remoteId: hqCampaignId,
    });
    await engine.runPass({ accountId });
    expect(await listAttention(store.db, accountId)).toEqual([]);
    const atHq = (await hq.request('GET', `/api/v1/donations?accountId=${hq.accountId}&limit=100`)).body
      .donations as Array<{ campaignId: string; contactId: string; notes: string | null }>;
    const sent = atHq.filter((d) => d.notes?.includes(`gd:${gift.id}`));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      campaignId: hqCampaignId,
      contactId: await remoteIdFor(store.db, 'contact', donor.id),
    });
  });
});
