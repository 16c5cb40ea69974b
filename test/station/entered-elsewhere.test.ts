/**
 * Who entered a gift typed at another station. Vera, signed in at Table A, enters a $19.99 cash
 * gift to one of three Robert Browns; Table B's History of that gift (the hub's feed brought it)
 * names her and her station, "Vera Volunteer (Station Table A)", not only "Station Table A". The
 * twin gift Table A's window typed with no one signed in still says "Station Table A".
 *
 * Real parts: a hub over HTTPS with its certificate, two stations as data folders joined with
 * the pairing code and served with their scheduler (push, feed loop), a person signed in at a
 * station, every request over real HTTP/TLS on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { addUser } from '../../electron/domain/accounts/index.ts';
import { createContext } from '../../electron/domain/context.ts';
import { type RunningServer, startServer } from '../../electron/server/serve.ts';
import { keyFileSource } from '../../electron/sync/remote/secret-box.ts';
import { joinHub } from '../../electron/sync/station/join.ts';
import { expectStatus, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { type ApiResponse, rawRequest, tempDir } from '../helpers/server.ts';
import { type Hub, startHub } from '../hub/hub-rig.ts';

interface StationSide {
  store: Store;
  running: RunningServer;
  request(method: string, p: string, body?: unknown): Promise<ApiResponse>;
}

const PASSWORD = 'correct horse battery';
let hub: Hub;
let a: StationSide;
let b: StationSide;
let campaignId: string;
const robert: string[] = [];

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

/** Station `s`'s id of the hub's gift `hubId`, once its feed brought it. */
async function localOf(s: StationSide, hubId: string): Promise<string> {
  let id: string | undefined;
  await expect
    .poll(async () => {
      const link = await s.store.db
        .selectFrom('syncLinks')
        .select('localId')
        .where('entityType', '=', 'donation')
        .where('remoteId', '=', hubId)
        .executeTakeFirst();
      id = link?.localId;
      return id !== undefined;
    })
    .toBe(true);
  return id!;
}

/** The hub's id of station `s`'s own gift, once the hub holds it. */
async function hubIdOf(s: StationSide, localId: string): Promise<string> {
  let id: string | undefined;
  await expect
    .poll(async () => {
      const link = await s.store.db
        .selectFrom('syncLinks')
        .select('remoteId')
        .where('entityType', '=', 'donation')
        .where('localId', '=', localId)
        .executeTakeFirst();
      id = link?.remoteId;
      return id !== undefined;
    })
    .toBe(true);
  return id!;
}

const giftBody = (contactId: string) => ({
  accountId: hub.accountId,
  contactId,
  donationAmount: 19.99,
  donationDate: '2026-12-01',
  paymentMethod: 'cash',
  campaignId,
});

beforeAll(async () => {
  hub = await startHub();
  campaignId = (await makeCampaign(hub, 'Gala 2026')).id;
  for (const email of ['rb1@example.org', 'rb2@example.org', null])
    robert.push(
      (
        await makeContact(hub, {
          firstName: 'Robert',
          lastName: 'Brown',
          ...(email ? { primaryEmail: email } : {}),
        })
      ).id,
    );
  a = await serveStation('Table A');
  b = await serveStation('Table B');
});
afterAll(async () => {
  for (const s of [a, b]) await s?.running.close();
  await hub?.close();
});

describe('a gift typed at another station', () => {
  it('names the person who typed it there, with the station', async () => {
    await addUser(createContext(a.store), {
      accountId: hub.accountId,
      email: 'vera@example.org',
      name: 'Vera Volunteer',
      role: 'volunteer',
      password: PASSWORD,
    });
    const vera = expectStatus(
      await rawRequest(`${a.running.url}/api/v1/sign-in`, 'POST', {
        email: 'vera@example.org',
        password: PASSWORD,
      }),
      201,
    ) as { keyId: string; secret: string };
    const hers = expectStatus(
      await rawRequest(`${a.running.url}/api/v1/donations`, 'POST', giftBody(robert[1]!), {
        'x-api-key': vera.keyId,
        authorization: `Bearer ${vera.secret}`,
      }),
      201,
    );
    const twin = expectStatus(await a.request('POST', '/api/v1/donations', giftBody(robert[1]!)), 201);

    const atB = await localOf(b, await hubIdOf(a, hers.id as string));
    await expect
      .poll(async () => {
        const h = expectStatus(
          await b.request('GET', `/api/v1/donations/${atB}/history?accountId=${hub.accountId}`),
          200,
        );
        return h.entered.by?.label;
      })
      .toBe('Vera Volunteer (Station Table A)');

    const twinAtB = await localOf(b, await hubIdOf(a, twin.id as string));
    const h = expectStatus(
      await b.request('GET', `/api/v1/donations/${twinAtB}/history?accountId=${hub.accountId}`),
      200,
    );
    expect(h.entered.by.label).toBe('Station Table A');
  });
});
