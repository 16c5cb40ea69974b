/**
 * The dashboard's statistics by station (GiftDesk extension), over real HTTP: empty outside an
 * event; at the hub, its own gifts as `here` and each station's by id with its name; at a
 * station, its own (stamped with its station id when typed) as `here` (with its name), the
 * hub's (a gift without a station) as `hub`, and another station's by id (no name known here).
 * Each split sums to the statistics' own total.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, makeCampaign, makeContact, makeDonation } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let hub: TestServer;
let station: TestServer;

beforeAll(async () => {
  [hub, station] = await Promise.all([startTestServer(), startTestServer()]);
});
afterAll(async () => {
  await Promise.all([hub?.close(), station?.close()]);
});

async function stats(t: TestServer) {
  return expectStatus(
    await t.request('GET', `/api/v1/stats/donations?accountId=${t.accountId}&basis=entered`),
    200,
  );
}

/** A gift of `amount` with its station set as the hub's feed would have it (undefined: as typed). */
async function gift(
  t: TestServer,
  contactId: string,
  campaignId: string,
  amount: number,
  stationId: string | null | undefined,
) {
  const d = await makeDonation(t, contactId, { campaignId, donationAmount: amount });
  if (stationId !== undefined)
    await t.store.write((trx) =>
      trx.updateTable('donations').set({ stationId }).where('id', '=', d.id).execute(),
    );
  return d;
}

describe('statistics by station', () => {
  it('are empty outside an event', async () => {
    const c = await makeContact(hub);
    const gala = await makeCampaign(hub, 'Spring Gala');
    await gift(hub, c.id, gala.id, 100, undefined);
    const st = await stats(hub);
    expect(st.count).toBe(1);
    expect(st.byStation).toEqual([]);
  });

  it('at the hub: its own gifts here, each station named from its stations', async () => {
    const at = new Date().toISOString();
    await hub.store.write(async (trx) => {
      await trx
        .insertInto('hubSettings')
        .values({
          accountId: hub.accountId,
          fingerprint: `sha256:${'00:'.repeat(31)}00`,
          url: null,
          createdAt: at,
          updatedAt: at,
        })
        .execute();
      for (const [id, name] of [
        ['sta_b', 'Table B'],
        ['sta_c', 'Table C'],
      ] as const)
        await trx
          .insertInto('hubStations')
          .values({ id, accountId: hub.accountId, name, apiKeyId: `key_${id}`, createdAt: at })
          .execute();
    });
    const c = await makeContact(hub, { firstName: 'Maria', lastName: 'Lopez' });
    const gala = await makeCampaign(hub, 'Autumn Gala');
    await gift(hub, c.id, gala.id, 250, 'sta_b');
    await gift(hub, c.id, gala.id, 40, 'sta_b');
    await gift(hub, c.id, gala.id, 500, 'sta_c');
    const st = await stats(hub);
    expect(st.byStation).toEqual([
      { where: 'here', stationId: null, stationName: null, count: 1, total: 100 },
      { where: 'station', stationId: 'sta_c', stationName: 'Table C', count: 1, total: 500 },
      { where: 'station', stationId: 'sta_b', stationName: 'Table B', count: 2, total: 290 },
    ]);
    expect(st.byStation.reduce((n: number, s: { count: number }) => n + s.count, 0)).toBe(st.count);
  });

  it('at a station: its own here with its name, the hub’s, and another station by id', async () => {
    const at = new Date().toISOString();
    await station.store.write((trx) =>
      trx
        .insertInto('syncRemotes')
        .values({
          accountId: station.accountId,
          baseUrl: 'https://127.0.0.1:4871',
          keyId: 'key_station',
          secretSealed: 'sealed',
          remoteAccountId: 'acc_hub',
          ratePerSecond: 5,
          scheduleSeconds: 60,
          emailMatch: 1,
          kind: 'hub',
          stationId: 'sta_me',
          stationName: 'Table D',
          createdAt: at,
          updatedAt: at,
        })
        .execute(),
    );
    const c = await makeContact(station);
    const gala = await makeCampaign(station, 'Spring Gala');
    const mine = await gift(station, c.id, gala.id, 30, undefined); // typed here: stamped with this station
    const row = await station.store.db
      .selectFrom('donations')
      .select('stationId')
      .where('id', '=', mine.id)
      .executeTakeFirstOrThrow();
    expect(row.stationId).toBe('sta_me');
    await gift(station, c.id, gala.id, 75, null); // the hub's own, as the feed brings it
    await gift(station, c.id, gala.id, 20, 'sta_other');
    await gift(station, c.id, gala.id, 5, 'sta_me'); // its own, as the hub names it
    const st = await stats(station);
    expect(st.byStation).toEqual([
      { where: 'here', stationId: null, stationName: 'Table D', count: 2, total: 35 },
      { where: 'hub', stationId: null, stationName: null, count: 1, total: 75 },
      { where: 'station', stationId: 'sta_other', stationName: null, count: 1, total: 20 },
    ]);
    expect(st.total).toBe(130);
  });
});
