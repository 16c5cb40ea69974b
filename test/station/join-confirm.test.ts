/**
 * A join is two steps: the hub's answer makes the station unconfirmed, and the station confirms
 * with its new key once it stored it. A join that failed on the station's side after the hub
 * answered leaves no station that never reports: it is not listed nor in the close-out, and it
 * ends at the next join of the same name, or when its ten minutes are up. Real hub over HTTPS,
 * real data folders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createContact } from '../../electron/domain/contacts/create.ts';
import { createContext } from '../../electron/domain/context.ts';
import { joinHub } from '../../electron/sync/station/join.ts';
import { keyFileSource } from '../../electron/sync/remote/secret-box.ts';
import { expectError, expectStatus } from '../helpers/api-fixtures.ts';
import { tempDir } from '../helpers/server.ts';
import { type Hub, httpsRequest, startHub } from '../hub/hub-rig.ts';

let hub: Hub;
const stores: Store[] = [];
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await hub?.close();
});

async function folder() {
  const dir = tempDir('giftdesk-station-');
  const store = await openStore({ dataDir: dir });
  stores.push(store);
  return { ctx: createContext(store), keys: keyFileSource(dir) };
}

async function listed(): Promise<string[]> {
  const r = expectStatus(await hub.request('GET', `/api/v1/hub/stations?accountId=${hub.accountId}`), 200);
  return (r.stations as Array<{ name: string }>).map((s) => s.name);
}

async function closeOutNames(): Promise<string[]> {
  const r = expectStatus(await hub.request('GET', `/api/v1/hub/close-out?accountId=${hub.accountId}`), 200);
  return (r.stations as Array<{ name: string }>).map((s) => s.name);
}

const rows = (name: string) =>
  hub.store.db
    .selectFrom('hubStations')
    .select(['id', 'confirmed', 'apiKeyId'])
    .where('name', '=', name)
    .execute();

describe('a station’s join', () => {
  it('is confirmed by the station once it kept its key', async () => {
    const { ctx, keys } = await folder();
    const joined = await joinHub(ctx, keys, {
      url: hub.url,
      code: await hub.code(),
      fingerprint: hub.fingerprint,
      name: 'Table B',
    });
    expect(await rows('Table B')).toEqual([expect.objectContaining({ id: joined.station.id, confirmed: 1 })]);
    expect(await listed()).toContain('Table B');
    expect(await closeOutNames()).toContain('Table B');
  });

  it('that failed at the station after the hub answered leaves no station in the close-out; the retry makes one', async () => {
    // This folder has the event's account already, with a donor never sent anywhere: the station
    // refuses the join after the hub made its station.
    const { ctx, keys } = await folder();
    await ctx.store.write((trx) =>
      trx
        .insertInto('accounts')
        .values({
          id: hub.accountId,
          name: 'Gala Org',
          defaultElectionType: null,
          defaultElectionYear: null,
          createdAt: ctx.now(),
        })
        .execute(),
    );
    await createContact(ctx, { accountId: hub.accountId, firstName: 'Łukasz', lastName: 'Żółć' });
    await expect(
      joinHub(ctx, keys, {
        url: hub.url,
        code: await hub.code(),
        fingerprint: hub.fingerprint,
        name: 'Table A',
      }),
    ).rejects.toMatchObject({ code: 'account_has_unsent_changes' });
    const ghost = await rows('Table A');
    expect(ghost).toEqual([expect.objectContaining({ confirmed: 0 })]);
    expect(await listed()).not.toContain('Table A');
    expect(await closeOutNames()).not.toContain('Table A');

    // The table tries again from a fresh folder with a new code: one Table A, confirmed; the
    // ghost is gone and its key no longer works.
    const fresh = await folder();
    const joined = await joinHub(fresh.ctx, fresh.keys, {
      url: hub.url,
      code: await hub.code(),
      fingerprint: hub.fingerprint,
      name: 'Table A',
    });
    expect(await rows('Table A')).toEqual([expect.objectContaining({ id: joined.station.id, confirmed: 1 })]);
    const ghostKey = await hub.store.db
      .selectFrom('apiKeys')
      .select('revokedAt')
      .where('id', '=', ghost[0]!.apiKeyId)
      .executeTakeFirstOrThrow();
    expect(ghostKey.revokedAt).not.toBeNull();
    expect((await closeOutNames()).filter((n) => n === 'Table A')).toEqual(['Table A']);
  });

  it('not confirmed within ten minutes is ended: its confirmation is a 409 and its key stops working', async () => {
    const res = await httpsRequest(
      `${hub.url}/api/v1/hub/join`,
      'POST',
      { code: await hub.code(), name: 'Table E' },
      {},
      hub.cert,
    );
    const joined = expectStatus(res, 201) as {
      keyId: string;
      secret: string;
      confirmBy: string;
      station: { id: string };
    };
    expect(Date.parse(joined.confirmBy)).toBeGreaterThan(Date.now() + 9 * 60 * 1000);
    const eleven = new Date(Date.now() - 11 * 60 * 1000).toISOString();
    await hub.store.write((trx) =>
      trx.updateTable('hubStations').set({ createdAt: eleven }).where('name', '=', 'Table E').execute(),
    );
    const key = { 'x-api-key': joined.keyId, authorization: `Bearer ${joined.secret}` };
    const late = await httpsRequest(
      `${hub.url}/api/v1/hub/join/confirm`,
      'POST',
      { stationId: joined.station.id },
      key,
      hub.cert,
    );
    expectError(late, 409, { code: 'station_join_expired' });
    expect(await rows('Table E')).toEqual([]);
    expect(
      (await httpsRequest(`${hub.url}/api/v1/hub/changes`, 'GET', undefined, key, hub.cert)).status,
    ).toBe(401);
  });

  it('a station paired before joins were confirmed counts as confirmed', async () => {
    const at = new Date().toISOString();
    await hub.store.write((trx) =>
      trx
        .insertInto('hubStations')
        .values({
          id: 'stn_EARLIER',
          accountId: hub.accountId,
          name: 'Table Old',
          apiKeyId: 'gdk_EARLIER',
          createdAt: at,
          revokedAt: null,
          lastSeenAt: at,
          reportedEntered: null,
          reportedLastSeq: null,
          reportedWaiting: null,
          reportedAt: null,
          reportedBatches: null,
        })
        .execute(),
    );
    expect(await rows('Table Old')).toEqual([expect.objectContaining({ confirmed: 1 })]);
    expect(await listed()).toContain('Table Old');
  });
});
