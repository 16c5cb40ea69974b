/**
 * Closing the night (GET /api/v1/hub/close-out) over real HTTPS: per station the gifts the hub
 * holds from it and their totals by payment method; complete only when the station reported
 * nothing waiting and as many gifts entered as the hub received; a row for the gifts typed at
 * the hub itself; the event's totals; the deposit's cash total and checks with donor and
 * amount. Voided gifts and gifts from before the event are left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DonationCreateBody } from '#shared/schemas/donations.ts';
import { CloseOut } from '#shared/schemas/hub.ts';
import { createContext } from '../../electron/domain/context.ts';
import { createDonation } from '../../electron/domain/donations/create.ts';
import { expectError, expectStatus, giftBody, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { type Hub, type Station, httpsRequest, startHub } from './hub-rig.ts';

let hub: Hub;
let a: Station;
let b: Station;
let c: Station;
let d: Station;
beforeAll(async () => {
  hub = await startHub();
  [a, b, c, d] = [
    await hub.join('Table A'),
    await hub.join('Table B'),
    await hub.join('Table C'),
    await hub.join('Table D'),
  ];
});
afterAll(async () => {
  await hub?.close();
});

describe('the close-out', () => {
  it('sums per station and in all, by method; says which stations are complete; lists the deposit', async () => {
    const campaign = await makeCampaign(hub, 'Gala');
    const maria = await makeContact(hub, { firstName: 'Maria', lastName: 'Lopez' });
    const wen = await makeContact(hub, { firstName: 'Wen', lastName: 'Li' });
    // A gift of an earlier event, typed at this laptop before it hosted this one: not the event's.
    const before = new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString();
    await createDonation(
      createContext(hub.store, () => before),
      {
        ...(giftBody(hub, wen.id, { campaignId: campaign.id, donationAmount: 999 }) as DonationCreateBody),
      },
    );
    await hub.store.write((trx) =>
      trx
        .updateTable('hubSettings')
        .set({ createdAt: new Date(Date.now() - 24 * 3600 * 1000).toISOString() })
        .execute(),
    );
    const gift = async (s: Station | Hub, contactId: string, amount: number, method: string) =>
      expectStatus(
        await s.request(
          'POST',
          '/api/v1/donations',
          giftBody(hub, contactId, {
            campaignId: campaign.id,
            donationAmount: amount,
            paymentMethod: method,
          }),
        ),
        201,
      );
    await gift(a, maria.id, 100, 'cash');
    await gift(a, maria.id, 50.25, 'check');
    await gift(b, wen.id, 25, 'credit_card');
    await gift(b, wen.id, 10, 'cash');
    const voided = await gift(b, wen.id, 40, 'check');
    await gift(c, wen.id, 7.5, 'check');
    await gift(hub, maria.id, 5, 'cash');
    // Voided at the hub before it went on: not a gift.
    expectStatus(
      await hub.request('POST', `/api/v1/donations/${voided.id}/void`, {
        accountId: hub.accountId,
        reason: 'typo',
      }),
      200,
    );
    expectStatus(await a.request('POST', '/api/v1/hub/report', { entered: 2, lastSeq: 9, waiting: 0 }), 200);
    expectStatus(await b.request('POST', '/api/v1/hub/report', { entered: 3, lastSeq: 14, waiting: 0 }), 200);
    // C still has one gift on its way; D never reported.
    expectStatus(await c.request('POST', '/api/v1/hub/report', { entered: 2, lastSeq: 5, waiting: 1 }), 200);

    const out = CloseOut.parse(
      expectStatus(await hub.request('GET', `/api/v1/hub/close-out?accountId=${hub.accountId}`), 200),
    );
    const row = (id: string) => out.stations.find((s) => s.id === id)!;
    expect(row(a.stationId)).toMatchObject({
      name: 'Table A',
      gifts: 2,
      total: 150.25,
      byMethod: { cash: { gifts: 1, total: 100 }, check: { gifts: 1, total: 50.25 } },
      complete: true,
      reportedEntered: 2,
      reportedLastSeq: 9,
      waiting: 0,
    });
    // B entered 3; the hub received 3 (one voided here since): complete, 2 gifts counted.
    expect(row(b.stationId)).toMatchObject({
      gifts: 2,
      total: 35,
      byMethod: { cash: { gifts: 1, total: 10 }, credit_card: { gifts: 1, total: 25 } },
      complete: true,
    });
    expect(row(c.stationId)).toMatchObject({ gifts: 1, total: 7.5, complete: false, waiting: 1 });
    expect(row(d.stationId)).toMatchObject({
      gifts: 0,
      total: 0,
      byMethod: {},
      complete: false,
      waiting: null,
    });
    expect(row('hub')).toMatchObject({ name: 'At the hub', gifts: 1, total: 5, complete: true });
    expect(out.gifts).toBe(6);
    expect(out.total).toBe(197.75);
    expect(out.byMethod).toEqual({
      cash: { gifts: 3, total: 115 },
      check: { gifts: 2, total: 57.75 },
      credit_card: { gifts: 1, total: 25 },
    });
    expect(out.cashTotal).toBe(115);
    expect(out.checks.map(({ donor, amount, stationId }) => ({ donor, amount, stationId }))).toEqual([
      { donor: 'Maria Lopez', amount: 50.25, stationId: a.stationId },
      { donor: 'Wen Li', amount: 7.5, stationId: c.stationId },
    ]);
    // The stations' sums and the hub's row add up to the event.
    expect(out.stations.reduce((n, s) => n + s.gifts, 0)).toBe(out.gifts);
  });

  it('is for an account that hosts an event here: 404 otherwise; a report needs its numbers', async () => {
    const other = await hub.otherAccount();
    const res = await hub.request('GET', `/api/v1/hub/close-out?accountId=${other.accountId}`, undefined, {
      'x-api-key': other.keyId,
      authorization: `Bearer ${other.secret}`,
    });
    expectError(res, 404, { code: 'hub_not_hosted', field: 'accountId' });
    expectError(await a.request('POST', '/api/v1/hub/report', { entered: -1, lastSeq: 0, waiting: 0 }), 400, {
      field: 'entered',
    });
  });

  it('takes a removed station back only by the key it had: a wrong secret is 403 and leaves the code unused', async () => {
    const e = await hub.join('Table E');
    expectStatus(
      await hub.request('POST', `/api/v1/hub/stations/${e.stationId}/revoke`, { accountId: hub.accountId }),
      200,
    );
    const code = await hub.code();
    const join = (body: unknown) => httpsRequest(`${hub.url}/api/v1/hub/join`, 'POST', body, {}, hub.cert);
    const proof = { stationId: e.stationId, keyId: e.keyId, secret: e.secret };
    expectError(await join({ code, name: 'Table E', rejoin: { ...proof, secret: 'not-its-secret' } }), 403, {
      code: 'station_rejoin_refused',
      field: 'rejoin',
    });
    // Another station's key is no proof either.
    expectError(
      await join({ code, name: 'Table E', rejoin: { ...proof, keyId: a.keyId, secret: a.secret } }),
      403,
      {
        code: 'station_rejoin_refused',
      },
    );
    expectError(await join({ code, name: 'Table E', rejoin: { ...proof, stationId: 5 } }), 400, {
      field: 'rejoin.stationId',
    });
    // The code is still good: the right key takes the same station back, with a new key.
    const back = expectStatus(await join({ code, name: 'Another name', rejoin: proof }), 201);
    expect(back.station).toEqual({ id: e.stationId, name: 'Table E' });
    expect(back.keyId).not.toBe(e.keyId);
    const stations = expectStatus(
      await hub.request('GET', `/api/v1/hub/stations?accountId=${hub.accountId}`),
      200,
    ).stations as Array<{ id: string; name: string; revokedAt: string | null; reportedAt: string | null }>;
    expect(stations.filter((s) => s.name === 'Table E')).toEqual([
      expect.objectContaining({ id: e.stationId, revokedAt: null, reportedAt: null }),
    ]);
    // The old key is refused; the new one reports.
    expect(
      (await e.request('POST', '/api/v1/hub/report', { entered: 0, lastSeq: 0, waiting: 0 })).status,
    ).toBe(401);
    const again = {
      ...e,
      request: (m: string, p: string, b?: unknown) =>
        httpsRequest(
          `${hub.url}${p}`,
          m,
          b,
          { 'x-api-key': back.keyId, authorization: `Bearer ${back.secret}` },
          hub.cert,
        ),
    };
    expectStatus(
      await again.request('POST', '/api/v1/hub/report', { entered: 0, lastSeq: 0, waiting: 0 }),
      200,
    );
  });
});
