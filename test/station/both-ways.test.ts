/**
 * Changes flow both ways while the hub holds a gift. A station corrects or voids its own gift
 * that reached the event hub by asking the hub (which applies its own rules), and the hub's
 * feed brings the result back before the station's route answers; a station cannot change
 * another station's gift; the hub's person can change any station's; once the hub has sent
 * the gift to HQ, the station and the hub refuse with the same words; the hub unreachable, a
 * station's change is refused in words and nothing changes.
 *
 * Real parts: an HQ (GiftDesk over HTTP), a hub over HTTPS with its own certificate and sync
 * engine, two stations as data folders joined with the pairing code and served with their
 * scheduler (push, feed loop), each request over real HTTP/TLS on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { addUser } from '../../electron/domain/accounts/index.ts';
import { createContext } from '../../electron/domain/context.ts';
import { type RunningServer, startServer } from '../../electron/server/serve.ts';
import { saveRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { keyFileSource } from '../../electron/sync/remote/secret-box.ts';
import { joinHub } from '../../electron/sync/station/join.ts';
import { expectError, expectStatus, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import {
  type ApiResponse,
  rawRequest,
  startTestServer,
  type TestServer,
  tempDir,
} from '../helpers/server.ts';
import { type Hub, type Station, startHub } from '../hub/hub-rig.ts';
import { testKeys } from '../sync/rig.ts';

interface StationSide {
  store: Store;
  running: RunningServer;
  request(method: string, p: string, body?: unknown): Promise<ApiResponse>;
}

let hq: TestServer;
let hub: Hub;
let a: StationSide;
let b: StationSide;
/** A third station's key, used straight against the hub. */
let c: Station;
let maria: { id: string };
/** The hub's campaign (the stations hold it under the hub's id), and HQ's, linked to it when the hub syncs. */
let campaignId: string;
const robert: Array<{ id: string }> = [];

async function serveStation(name: string): Promise<StationSide> {
  const dir = tempDir('giftdesk-station-');
  const store = await openStore({ dataDir: dir });
  const ctx = createContext(store);
  const keys = keyFileSource(dir);
  const joined = await joinHub(ctx, keys, {
    url: hub.url,
    code: await hub.code(),
    fingerprint: hub.fingerprint,
    name,
  });
  expect(joined.caughtUp).toBe(true);
  const key = await createApiKey(ctx, hub.accountId, 'tests');
  const running = await startServer({
    store,
    port: 0,
    rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
    sync: { keys, run: true },
  });
  const auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
  return {
    store,
    running,
    request: (method, p, body) => rawRequest(`${running.url}${p}`, method, body, auth),
  };
}

/** The hub's id of a station's gift, once the hub holds it. */
async function atHub(s: StationSide, localId: string): Promise<string> {
  let hubId: string | undefined;
  await expect
    .poll(async () => {
      const link = await s.store.db
        .selectFrom('syncLinks')
        .select('remoteId')
        .where('entityType', '=', 'donation')
        .where('localId', '=', localId)
        .executeTakeFirst();
      hubId = link?.remoteId;
      return hubId !== undefined;
    })
    .toBe(true);
  return hubId!;
}

async function hubGift(hubId: string) {
  return expectStatus(await hub.request('GET', `/api/v1/donations/${hubId}?accountId=${hub.accountId}`), 200);
}

function gift(s: StationSide, contactId: string, amount: number, method = 'cash') {
  return s.request('POST', '/api/v1/donations', {
    accountId: hub.accountId,
    contactId,
    donationAmount: amount,
    donationDate: '2026-11-27',
    paymentMethod: method,
    campaignId,
  });
}

beforeAll(async () => {
  hq = await startTestServer();
  hub = await startHub({ sync: { keys: testKeys, run: true } });
  campaignId = (await makeCampaign(hub, 'Gala 2026')).id;
  maria = await makeContact(hub, {
    firstName: 'Maria',
    lastName: 'Lopez',
    primaryEmail: 'maria@example.org',
  });
  for (const email of ['rb1@example.org', 'rb2@example.org', null])
    robert.push(
      await makeContact(hub, {
        firstName: 'Robert',
        lastName: 'Brown',
        ...(email ? { primaryEmail: email } : {}),
      }),
    );
  a = await serveStation('Table A');
  b = await serveStation('Table B');
  c = await hub.join('Table C');
});
afterAll(async () => {
  for (const s of [a, b]) await s?.running.close();
  await hub?.close();
  await hq?.close();
});

describe('a station changes its own gift through the hub', () => {
  it('corrects a gift the hub holds: the hub takes it, and the station answers with the hub’s word', async () => {
    // Twin $19.99 cash gifts from one Robert Brown: only the first is corrected.
    const first = expectStatus(await gift(a, robert[0]!.id, 19.99), 201);
    const twin = expectStatus(await gift(a, robert[0]!.id, 19.99), 201);
    const hubId = await atHub(a, first.id as string);
    const twinHubId = await atHub(a, twin.id as string);

    const r = await a.request('PATCH', `/api/v1/donations/${first.id}`, {
      accountId: hub.accountId,
      donationAmount: 9.99,
      contactId: robert[1]!.id,
    });
    expect(r.status, r.text).toBe(200);
    const atTheHub = await hubGift(hubId);
    expect(atTheHub).toMatchObject({ donationAmount: 9.99, contactId: robert[1]!.id, status: 'completed' });
    expect(await hubGift(twinHubId)).toMatchObject({ donationAmount: 19.99, contactId: robert[0]!.id });
    // The hub's history says what changed, from what to what, and which station asked.
    const history = expectStatus(
      await hub.request('GET', `/api/v1/donations/${hubId}/history?accountId=${hub.accountId}`),
      200,
    ).data as Array<{ action: string; detail: Record<string, unknown> | null }>;
    const corrected = history.find((h) => h.action === 'corrected');
    expect(corrected?.detail).toMatchObject({
      station: (await stationIdOf(a)) as string,
      changes: expect.arrayContaining([
        { field: 'donationAmount', before: 19.99, after: 9.99 },
        { field: 'contactId', before: robert[0]!.id, after: robert[1]!.id },
      ]),
    });
    // The station's own copy shows the hub's values by the time its route answered (the hub's
    // feed carries a gift's later changes to the station that typed it).
    expect(r.body).toMatchObject({ donationAmount: 9.99, contactId: robert[1]!.id });
  });

  it('voids a gift the hub holds: voided at the hub, and at the station before the route answers', async () => {
    const g = expectStatus(await gift(a, maria.id, 500, 'check'), 201);
    const hubId = await atHub(a, g.id as string);
    const r = await a.request('POST', `/api/v1/donations/${g.id}/void`, {
      accountId: hub.accountId,
      reason: 'typed twice',
    });
    expect(r.status, r.text).toBe(200);
    expect(await hubGift(hubId)).toMatchObject({ status: 'voided' });
    expect(r.body).toMatchObject({ status: 'voided' });
  });

  it('refuses another station’s gift, at the station and at the hub, and changes nothing', async () => {
    const g = expectStatus(await gift(a, maria.id, 250, 'check'), 201);
    const hubId = await atHub(a, g.id as string);
    // Straight at the hub with another station's key: the gate lets the route decide, the route refuses.
    const direct = await c.request('PATCH', `/api/v1/donations/${hubId}`, {
      accountId: hub.accountId,
      donationAmount: 1,
    });
    expectError(direct, 403, { code: 'not_this_stations_gift', field: 'id' });
    expectError(
      await c.request('POST', `/api/v1/donations/${hubId}/void`, { accountId: hub.accountId }),
      403,
      { code: 'not_this_stations_gift' },
    );
    // Station B has A's gift from the feed; asking to change it goes to the hub, which refuses.
    let atB: string | undefined;
    await expect
      .poll(async () => {
        const link = await b.store.db
          .selectFrom('syncLinks')
          .select('localId')
          .where('entityType', '=', 'donation')
          .where('remoteId', '=', hubId)
          .executeTakeFirst();
        atB = link?.localId;
        return atB !== undefined;
      })
      .toBe(true);
    const fromB = await b.request('PATCH', `/api/v1/donations/${atB}`, {
      accountId: hub.accountId,
      donationAmount: 1,
    });
    expectError(fromB, 403, { code: 'not_this_stations_gift' });
    expect((fromB.body as { message: string }).message).toMatch(/was not typed at this station/);
    expect(await hubGift(hubId)).toMatchObject({ donationAmount: 250, status: 'completed' });
  });

  it('admits a station’s key only to the correction and void among the gift routes it did not have', async () => {
    expectError(
      await c.request('PATCH', `/api/v1/campaigns/x`, { accountId: hub.accountId, name: 'x' }),
      403,
      { code: 'station_key_forbidden' },
    );
    expectError(await c.request('POST', `/api/v1/donations/x/refund`, { accountId: hub.accountId }), 403, {
      code: 'station_key_forbidden',
    });
    expectError(await c.request('GET', `/api/v1/donations/x/history?accountId=${hub.accountId}`), 403, {
      code: 'station_key_forbidden',
    });
    expectError(
      await c.request('PATCH', `/api/v1/donations/x`, { accountId: hub.accountId, donationAmount: 1 }),
      404,
    );
  });

  it('the hub corrects a station’s gift, and the station that typed it sees the change', async () => {
    const g = expectStatus(await gift(a, maria.id, 500, 'check'), 201);
    const hubId = await atHub(a, g.id as string);
    const r = await hub.request('PATCH', `/api/v1/donations/${hubId}`, {
      accountId: hub.accountId,
      donationAmount: 50,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ donationAmount: 50 });
    await expect
      .poll(
        async () =>
          (
            expectStatus(
              await a.request('GET', `/api/v1/donations/${g.id}?accountId=${hub.accountId}`),
              200,
            ) as {
              donationAmount: number;
            }
          ).donationAmount,
      )
      .toBe(50);
  });
});

describe('who typed it, from the station to the hub', () => {
  it('a person signed in at a station types a gift: the hub’s history names them and the station; a script’s key cannot claim a person', async () => {
    await addUser(createContext(a.store), {
      accountId: hub.accountId,
      email: 'vera@example.org',
      name: 'Vera Volunteer',
      role: 'volunteer',
      password: 'correct horse battery',
    });
    const session = expectStatus(
      await rawRequest(`${a.running.url}/api/v1/sign-in`, 'POST', {
        email: 'vera@example.org',
        password: 'correct horse battery',
      }),
      201,
    ) as { keyId: string; secret: string };
    const g = expectStatus(
      await rawRequest(
        `${a.running.url}/api/v1/donations`,
        'POST',
        {
          accountId: hub.accountId,
          contactId: robert[0]!.id,
          donationAmount: 19.99,
          donationDate: '2026-11-27',
          paymentMethod: 'cash',
          campaignId,
        },
        { 'x-api-key': session.keyId, authorization: `Bearer ${session.secret}` },
      ),
      201,
    );
    const here = expectStatus(
      await a.request('GET', `/api/v1/donations/${g.id}/history?accountId=${hub.accountId}`),
      200,
    );
    expect(here.entered.by).toMatchObject({
      name: 'Vera Volunteer',
      label: 'Vera Volunteer (Station Table A)',
    });
    const hubId = await atHub(a, g.id as string);
    const atTheHub = expectStatus(
      await hub.request('GET', `/api/v1/donations/${hubId}/history?accountId=${hub.accountId}`),
      200,
    );
    expect(atTheHub.entered.by).toMatchObject({
      name: 'Vera Volunteer',
      stationId: await stationIdOf(a),
      label: 'Vera Volunteer (Station Table A)',
    });
    // A script's key at a hub cannot claim a person.
    expectError(
      await hub.request('POST', '/api/v1/donations', {
        accountId: hub.accountId,
        contactId: maria.id,
        donationAmount: 19.99,
        donationDate: '2026-11-27',
        paymentMethod: 'cash',
        campaignId,
        enteredByName: 'Someone Else',
      }),
      400,
      { field: 'enteredByName' },
    );
  });
});

async function stationIdOf(s: StationSide): Promise<string | null> {
  const r = await s.store.db.selectFrom('syncRemotes').select('stationId').executeTakeFirst();
  return r?.stationId ?? null;
}

describe('the hub away, and a gift not at the hub yet', () => {
  it('refuses in words and changes nothing while the hub cannot be reached; a gift still here is corrected here', async () => {
    const held = expectStatus(await gift(a, maria.id, 75), 201);
    const hubId = await atHub(a, held.id as string);
    const real = (await a.store.db.selectFrom('syncRemotes').select('baseUrl').executeTakeFirstOrThrow())
      .baseUrl;
    // Nothing answers there: the station's address of its hub now points at a closed port.
    await a.store.db.updateTable('syncRemotes').set({ baseUrl: 'https://127.0.0.1:9' }).execute();
    try {
      const r = await a.request('PATCH', `/api/v1/donations/${held.id}`, {
        accountId: hub.accountId,
        donationAmount: 7.5,
      });
      expectError(r, 503, { code: 'hub_unreachable' });
      expect((r.body as { message: string }).message).toContain(
        'the event hub cannot be reached: try again when it answers',
      );
      expect(await hubGift(hubId)).toMatchObject({ donationAmount: 75 });
      expect(
        expectStatus(await a.request('GET', `/api/v1/donations/${held.id}?accountId=${hub.accountId}`), 200),
      ).toMatchObject({
        donationAmount: 75,
      });
      // A gift typed now stays in the outbox: it is corrected here, and the hub gets the corrected gift.
      const fresh = expectStatus(await gift(a, maria.id, 19.99), 201);
      const fixed = await a.request('PATCH', `/api/v1/donations/${fresh.id}`, {
        accountId: hub.accountId,
        donationAmount: 29.99,
      });
      expect(fixed.status, fixed.text).toBe(200);
      expect(fixed.body).toMatchObject({ donationAmount: 29.99 });
      await a.store.db.updateTable('syncRemotes').set({ baseUrl: real }).execute();
      const freshAtHub = await atHub(a, fresh.id as string);
      expect(await hubGift(freshAtHub)).toMatchObject({ donationAmount: 29.99 });
    } finally {
      await a.store.db.updateTable('syncRemotes').set({ baseUrl: real }).execute();
    }
  });
});

describe('once the hub sent the gift to HQ', () => {
  it('the station and the hub refuse with the same words: sent to HQ, change it there', async () => {
    const g = expectStatus(await gift(a, maria.id, 120, 'check'), 201);
    const hubId = await atHub(a, g.id as string);
    const key = await hq.otherAccount();
    const hqCampaign = expectStatus(
      await rawRequest(
        `${hq.url}/api/v1/campaigns`,
        'POST',
        { accountId: key.accountId, name: 'Gala 2026' },
        { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` },
      ),
      201,
    ) as { id: string };
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
    await saveRemoteSettings(
      hub.store,
      testKeys,
      {
        accountId: hub.accountId,
        baseUrl: hq.url,
        keyId: key.keyId,
        secret: key.secret,
        remoteAccountId: key.accountId,
        ratePerSecond: 1000,
      },
      new Date().toISOString(),
    );
    await expect
      .poll(async () => ((await hubGift(hubId)) as { sync: { state: string } }).sync.state)
      .toBe('sent');
    const atStation = await a.request('PATCH', `/api/v1/donations/${g.id}`, {
      accountId: hub.accountId,
      donationAmount: 12,
    });
    const atTheHub = await hub.request('PATCH', `/api/v1/donations/${hubId}`, {
      accountId: hub.accountId,
      donationAmount: 12,
    });
    expectError(atStation, 409, { code: 'donation_sent' });
    expectError(atTheHub, 409, { code: 'donation_sent' });
    const words = (atStation.body as { message: string }).message;
    expect(words).toContain('sent to HQ: change it there');
    expect(words).toBe((atTheHub.body as { message: string }).message);
    const voidAtStation = await a.request('POST', `/api/v1/donations/${g.id}/void`, {
      accountId: hub.accountId,
    });
    expectError(voidAtStation, 409, { code: 'donation_sent' });
    expect((voidAtStation.body as { message: string }).message).toContain('sent to HQ: change it there');
    expect(await hubGift(hubId)).toMatchObject({ donationAmount: 120, status: 'completed' });
  });
});
