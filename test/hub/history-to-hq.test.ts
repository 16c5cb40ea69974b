/**
 * Who did what reaches HQ. At an event hub, a station's volunteers enter gifts (twin $19.99 cash
 * gifts to one of three Robert Browns, one by Vera, one by Otto, and a gift to "Łukasz Żółć"), a
 * treasurer signed in at the hub corrects Vera's and edits a donor; the hub's engine then sends
 * the records to HQ, and after them their history. At a GiftDesk HQ, a gift's history says who
 * entered it at the event and at which station, and the treasurer's correction with its before
 * and after — each entry once, though the first send of the history was answered 503 after HQ
 * had committed it (the engine sends it again; HQ takes each entry once by its id). An HQ of the
 * donor API alone (`serve --spec-only`, HISTORY_HQ=spec-only in history-to-spec-only.test.ts)
 * gets the records and nothing else: no history, no extension field, no request it does not know.
 *
 * Real parts: HQ a GiftDesk server over HTTP behind the fault proxy, the hub over HTTPS with its
 * certificate, a station's key paired with a code, a person signed in at the hub, the hub's real
 * sync engine on its database (SQLite, or PostgreSQL when the suite runs there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../electron/domain/accounts/index.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { createSyncEngine, type SyncEngine } from '../../electron/sync/push/engine.ts';
import { saveRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { expectStatus, makeCampaign } from '../helpers/api-fixtures.ts';
import { type ApiResponse, rawRequest } from '../helpers/server.ts';
import { fastClientFactory, type HqSide, startHq, testKeys } from '../sync/rig.ts';
import { type Hub, httpsRequest, type Station, startHub } from './hub-rig.ts';

const SPEC_ONLY = process.env.HISTORY_HQ === 'spec-only';
const PASSWORD = 'correct horse battery';

let hq: HqSide;
let hqKey: { accountId: string; keyId: string; secret: string };
let hub: Hub;
let table: Station;
let engine: SyncEngine;
let tess: { keyId: string; secret: string };
let campaignId: string;
const gift: Record<'vera' | 'otto' | 'lukasz', string> = { vera: '', otto: '', lukasz: '' };
const donor: Record<'robert' | 'lukasz', string> = { robert: '', lukasz: '' };

const atHq = (method: string, p: string): Promise<ApiResponse> =>
  rawRequest(`${hq.remote.url}${p}`, method, undefined, {
    'x-api-key': hqKey.keyId,
    authorization: `Bearer ${hqKey.secret}`,
  });

const asTess = (method: string, p: string, body?: unknown): Promise<ApiResponse> =>
  httpsRequest(
    `${hub.url}${p}`,
    method,
    body,
    { 'x-api-key': tess.keyId, authorization: `Bearer ${tess.secret}` },
    hub.cert,
  );

/** A gift as the station's engine sends it: who typed it there rides along (`enteredByName`). */
async function stationGift(contactId: string, amount: number, by: string): Promise<string> {
  const r = await table.request('POST', '/api/v1/donations', {
    accountId: hub.accountId,
    contactId,
    donationAmount: amount,
    donationDate: '2026-12-01',
    paymentMethod: 'cash',
    campaignId,
    enteredAt: '2026-12-01T19:02:00Z',
    enteredByName: by,
  });
  return expectStatus(r, 201).id as string;
}

async function stationDonor(firstName: string, lastName: string, email?: string): Promise<string> {
  const r = await table.request('POST', '/api/v1/contacts', {
    accountId: hub.accountId,
    firstName,
    lastName,
    ...(email ? { primaryEmail: email } : {}),
  });
  return expectStatus(r, 201).id as string;
}

/** HQ's id of a record of the hub's. */
async function hqIdOf(entityType: 'donation' | 'contact', localId: string): Promise<string> {
  const link = await hub.store.db
    .selectFrom('syncLinks')
    .select('remoteId')
    .where('entityType', '=', entityType)
    .where('localId', '=', localId)
    .executeTakeFirstOrThrow();
  return link.remoteId;
}

const historyPosts = () => hq.proxy.records.filter((r) => r.path.startsWith('/api/v1/history'));

beforeAll(async () => {
  hq = await startHq({ specOnly: SPEC_ONLY });
  hqKey = await hq.remote.otherAccount();
  hub = await startHub();
  table = await hub.join('Table B');
  campaignId = (await makeCampaign(hub, 'Gala 2026')).id;
  const hqCampaign = await createCampaign(hq.remote.ctx, { accountId: hqKey.accountId, name: 'Gala 2026' });
  await hub.store.write((trx) =>
    linkRemote(trx, {
      accountId: hub.accountId,
      entityType: 'campaign',
      localId: campaignId,
      remoteId: hqCampaign.id,
      source: 'manual',
      at: new Date().toISOString(),
    }),
  );
  await addUser(hub.ctx, {
    accountId: hub.accountId,
    email: 'tess@example.org',
    name: 'Tess Treasurer',
    role: 'treasurer',
    password: PASSWORD,
  });
  tess = expectStatus(
    await httpsRequest(
      `${hub.url}/api/v1/sign-in`,
      'POST',
      { email: 'tess@example.org', password: PASSWORD },
      {},
      hub.cert,
    ),
    201,
  ) as { keyId: string; secret: string };

  // Three Robert Browns; the twins go to the second.
  await stationDonor('Robert', 'Brown', 'rb1@example.org');
  donor.robert = await stationDonor('Robert', 'Brown', 'rb2@example.org');
  await stationDonor('Robert', 'Brown');
  donor.lukasz = await stationDonor('Łukasz', 'Żółć');
  gift.vera = await stationGift(donor.robert, 19.99, 'Vera Volunteer');
  gift.otto = await stationGift(donor.robert, 19.99, 'Otto Volunteer');
  gift.lukasz = await stationGift(donor.lukasz, 50, 'Vera Volunteer');

  // The treasurer at the hub corrects Vera's gift and gives Łukasz his email.
  expectStatus(
    await asTess('PATCH', `/api/v1/donations/${gift.vera}`, {
      accountId: hub.accountId,
      donationAmount: 29.99,
    }),
    200,
  );
  expectStatus(
    await asTess('PUT', `/api/v1/contacts/${donor.lukasz}`, { primaryEmail: 'lukasz.zolc@example.org' }),
    200,
  );

  await saveRemoteSettings(
    hub.store,
    testKeys,
    {
      accountId: hub.accountId,
      baseUrl: hq.proxy.url,
      keyId: hqKey.keyId,
      secret: hqKey.secret,
      remoteAccountId: hqKey.accountId,
      ratePerSecond: 1000,
    },
    new Date().toISOString(),
  );
  engine = createSyncEngine({ store: hub.store, keys: testKeys, makeClient: fastClientFactory(3000) });
  // HQ commits the first send of the history, and its answer is lost in a 503.
  let historySends = 0;
  hq.proxy.setRule((req) =>
    req.path.startsWith('/api/v1/history') && historySends++ === 0
      ? { kind: 'respond', status: 503, forward: true }
      : { kind: 'forward' },
  );
  await engine.runPass();
  await engine.runPass();
  await engine.runPass();
});

afterAll(async () => {
  await engine?.stop();
  await hub?.close();
  await hq?.close();
});

describe.skipIf(SPEC_ONLY)('a GiftDesk HQ', () => {
  it('shows who entered each gift at the event, at which station, and the treasurer’s correction', async () => {
    const h = expectStatus(
      await atHq(
        'GET',
        `/api/v1/donations/${await hqIdOf('donation', gift.vera)}/history?accountId=${hqKey.accountId}`,
      ),
      200,
    );
    expect(h.entered.by).toMatchObject({ name: 'Vera Volunteer', label: 'Vera Volunteer (Station Table B)' });
    expect(h.entered.at).toBe('2026-12-01T19:02:00.000Z');
    expect(h.data).toHaveLength(1);
    expect(h.data[0]).toMatchObject({
      action: 'corrected',
      by: { name: 'Tess Treasurer', label: 'Tess Treasurer' },
    });
    expect(h.data[0].changes).toContainEqual({ field: 'donationAmount', before: 19.99, after: 29.99 });
    // Attributed to the person, not to the hub's sync key (kept beside, as what carried it).
    expect(h.data[0].by.keyId).toBeNull();
    expect(h.data[0].detail.carriedBy).toBe(hqKey.keyId);

    const twin = expectStatus(
      await atHq(
        'GET',
        `/api/v1/donations/${await hqIdOf('donation', gift.otto)}/history?accountId=${hqKey.accountId}`,
      ),
      200,
    );
    expect(twin.entered.by.label).toBe('Otto Volunteer (Station Table B)');
    expect(twin.data).toEqual([]);
  });

  it('shows the donor’s changes at the event, by the station and by the treasurer', async () => {
    const h = expectStatus(
      await atHq(
        'GET',
        `/api/v1/contacts/${await hqIdOf('contact', donor.lukasz)}/history?accountId=${hqKey.accountId}`,
      ),
      200,
    );
    const edited = h.data.filter((e: { action: string }) => e.action === 'edited');
    expect(edited).toHaveLength(1);
    expect(edited[0]).toMatchObject({ by: { name: 'Tess Treasurer' } });
    expect(edited[0].changes).toContainEqual({
      field: 'primaryEmail',
      before: null,
      after: 'lukasz.zolc@example.org',
    });
    const created = h.data.filter((e: { action: string }) => e.action === 'created');
    expect(created).toHaveLength(1);
    expect(created[0].by.label).toBe('Station Table B');
  });

  it('takes each entry once though the first send was answered 503 after it committed', async () => {
    const posts = historyPosts();
    expect(posts.length).toBe(2);
    expect(posts[0]!.upstreamStatus).toBe(200);
    expect(posts[1]!.body).toBe(posts[0]!.body);
    const rows = await hq.remote.store.db
      .selectFrom('donationHistory')
      .innerJoin('donations', 'donations.id', 'donationHistory.donationId')
      .select(['donationHistory.id', 'donationHistory.action'])
      .where('donations.accountId', '=', hqKey.accountId)
      .execute();
    // entered ×3, corrected ×1: no more, whatever was sent twice.
    expect(rows.map((r) => r.action).sort()).toEqual(['corrected', 'entered', 'entered', 'entered']);
    // A later pass has nothing more to send.
    const before = hq.proxy.records.length;
    await engine.runPass();
    expect(hq.proxy.records.slice(before).filter((r) => r.path.startsWith('/api/v1/history'))).toEqual([]);
  });
});

describe.skipIf(!SPEC_ONLY)('an HQ of the donor API alone', () => {
  it('gets the gifts as corrected, and nothing of the history: no extension route, field or name', async () => {
    const list = expectStatus(
      await atHq('GET', `/api/v1/donations?accountId=${hqKey.accountId}&limit=100`),
      200,
    );
    expect(list.donations.map((d: { donationAmount: number }) => d.donationAmount).sort()).toEqual([
      19.99, 29.99, 50,
    ]);
    expect(historyPosts()).toEqual([]);
    const spec = /^(POST|GET) \/api\/v1\/(contacts|donations)(\?|\/|$)|^PUT \/api\/v1\/contacts\//;
    for (const r of hq.proxy.records) {
      expect(`${r.method} ${r.path}`).toMatch(spec);
      expect(r.body).not.toMatch(/Vera|Otto|Tess|enteredBy|history/);
    }
  });
});
