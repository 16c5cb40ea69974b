/**
 * Pairing with the event hub and the gate on stations' keys, over real HTTPS on 127.0.0.1:
 * a good code pairs one station (its own key, labelled, and its row); a wrong, a used and an
 * expired code are refused (403, each with its code); past five refused codes in a minute
 * every join is 429 with Retry-After; plain HTTP to the hub's port gets no API answer; a
 * station's key opens only a station's routes; a revoked station is refused at once with
 * station_revoked; a station's use of its key is noted as its last contact.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubJoined, HubStationList } from '#shared/schemas/hub.ts';
import { createContext } from '../../electron/domain/context.ts';
import { createPairingCode } from '../../electron/hub/pairing.ts';
import { expectError, expectStatus } from '../helpers/api-fixtures.ts';
import { type Hub, httpsRequest, startHub } from './hub-rig.ts';

let hub: Hub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

const join = (h: Hub, body: unknown) => httpsRequest(`${h.url}/api/v1/hub/join`, 'POST', body, {}, h.cert);

describe('joining with a pairing code', () => {
  it('a good code pairs one station: its own key labelled with its name, the hub’s fingerprint', async () => {
    const code = await hub.code();
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    // Typed in lower case without the dash: the same code.
    const res = await join(hub, { code: code.replace('-', '').toLowerCase(), name: '  Table A ' });
    const joined = HubJoined.parse(expectStatus(res, 201));
    expect(joined).toMatchObject({
      accountId: hub.accountId,
      accountName: 'Gala Org',
      station: { name: 'Table A' },
      fingerprint: hub.fingerprint,
    });
    const key = await hub.store.db
      .selectFrom('apiKeys')
      .select(['label', 'accountId', 'secretHash'])
      .where('id', '=', joined.keyId)
      .executeTakeFirstOrThrow();
    expect(key).toMatchObject({ label: 'station: Table A', accountId: hub.accountId });
    expect(key.secretHash).not.toContain(joined.secret);
    const codes = await hub.store.db.selectFrom('hubPairingCodes').selectAll().execute();
    // Only the code's hash is stored.
    expect(JSON.stringify(codes)).not.toContain(code.replace('-', ''));
    expect(codes.find((c) => c.stationId === joined.station.id)?.usedAt).not.toBeNull();
    // The station's key works for a station's route.
    const feed = await httpsRequest(
      `${hub.url}/api/v1/hub/changes`,
      'GET',
      undefined,
      { 'x-api-key': joined.keyId, authorization: `Bearer ${joined.secret}` },
      hub.cert,
    );
    expectStatus(feed, 200);
  });

  it('refuses a wrong code: 403 pairing_code_wrong naming the field, nothing made', async () => {
    const before = await hub.store.db.selectFrom('hubStations').select('id').execute();
    const res = await join(hub, { code: 'ABCD-EFGH', name: 'Table Z' });
    expectError(res, 403, { code: 'pairing_code_wrong', field: 'code' });
    expect(await hub.store.db.selectFrom('hubStations').select('id').execute()).toEqual(before);
  });

  it('refuses a used code: 403 pairing_code_used', async () => {
    const code = await hub.code();
    expectStatus(await join(hub, { code, name: 'Table B' }), 201);
    const again = await join(hub, { code, name: 'Table C' });
    expectError(again, 403, { code: 'pairing_code_used', field: 'code' });
    expect(again.body.message).toMatch(/used already/);
  });

  it('refuses an expired code (made 11 minutes ago by the clock): 403 pairing_code_expired', async () => {
    const earlier = new Date(Date.now() - 11 * 60 * 1000).toISOString();
    const { code } = await createPairingCode(
      createContext(hub.store, () => earlier),
      hub.accountId,
    );
    const res = await join(hub, { code, name: 'Table late' });
    expectError(res, 403, { code: 'pairing_code_expired', field: 'code' });
    expect(res.body.message).toMatch(/expired/);
    // A code made 9 minutes ago still pairs.
    const nineAgo = new Date(Date.now() - 9 * 60 * 1000).toISOString();
    const fresh = await createPairingCode(
      createContext(hub.store, () => nineAgo),
      hub.accountId,
    );
    expectStatus(await join(hub, { code: fresh.code, name: 'Table in time' }), 201);
  });

  it('refuses a body without a code or a name: 400 naming the field', async () => {
    expectError(await join(hub, { name: 'Table D' }), 400, { field: 'code' });
    expectError(await join(hub, { code: await hub.code() }), 400, { field: 'name' });
  });
});

describe('guessing codes', () => {
  it('the 6th refused code in a minute is 429 with Retry-After, and so is a good code then', async () => {
    const own = await startHub();
    try {
      for (let i = 0; i < 5; i++) {
        expectError(await join(own, { code: `WXYZ-WXY${i + 2}`, name: 'guess' }), 403, {
          code: 'pairing_code_wrong',
        });
      }
      const sixth = await join(own, { code: 'WXYZ-WXYZ', name: 'guess' });
      expectError(sixth, 429, { code: 'pairing_rate_limited' });
      const wait = Number(sixth.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      expect(sixth.body.retryAfter).toBe(wait);
      // Refused before the code is looked at: even a good one waits.
      const good = await own.code();
      expectError(await join(own, { code: good, name: 'Table A' }), 429, { code: 'pairing_rate_limited' });
      expect(await own.store.db.selectFrom('hubStations').select('id').execute()).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

describe('TLS only', () => {
  it('plain HTTP to the hub’s port gets no API answer', async () => {
    const { port } = new URL(hub.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `GET /api/v1/hub/changes HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-API-Key: gdk_0000000000\r\nAuthorization: Bearer x\r\n\r\n`,
        );
      });
      let got = '';
      socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
      socket.on('close', () => resolve(got));
      socket.on('error', () => undefined);
    });
    expect(answer).not.toMatch(/HTTP\/1\.[01] \d{3}/);
    expect(answer).not.toContain('statusCode');
    // And fetch over http:// fails outright.
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/hub/changes`)).rejects.toThrow();
  });
});

describe("a station's key", () => {
  it('opens only what a station does: 403 station_key_forbidden for the hosting routes', async () => {
    const st = await hub.join('Table E');
    for (const [method, path, body] of [
      ['GET', `/api/v1/hub/stations?accountId=${hub.accountId}`, undefined],
      ['POST', '/api/v1/hub/codes', { accountId: hub.accountId }],
      ['POST', `/api/v1/hub/stations/${st.stationId}/revoke`, { accountId: hub.accountId }],
      ['GET', `/api/v1/hub/close-out?accountId=${hub.accountId}`, undefined],
      ['GET', `/api/v1/api-keys?accountId=${hub.accountId}`, undefined],
      ['GET', `/api/v1/sync/status?accountId=${hub.accountId}`, undefined],
      ['GET', `/api/v1/letters/settings?accountId=${hub.accountId}`, undefined],
      ['POST', '/api/v1/letters/runs', { accountId: hub.accountId, kind: 'thank-you' }],
    ] as const) {
      expectError(await st.request(method, path, body), 403, { code: 'station_key_forbidden' });
    }
    // What a station does is open to it.
    expectStatus(await st.request('GET', `/api/v1/contacts?accountId=${hub.accountId}`), 200);
    expectStatus(await st.request('GET', `/api/v1/campaigns?accountId=${hub.accountId}`), 200);
    expectStatus(await st.request('POST', '/api/v1/hub/report', { entered: 0, lastSeq: 0, waiting: 0 }), 200);
    // Its engine sends the thank-you marks of gifts the hub has.
    expect(
      expectStatus(
        await st.request('POST', '/api/v1/donations/thank-you', {
          accountId: hub.accountId,
          donations: [{ id: 'don_not_at_the_hub', thankYouSentDate: '2026-12-01' }],
        }),
        200,
      ),
    ).toEqual({ marked: 0, unknown: ['don_not_at_the_hub'] });
    // A report is a station's: the hosting key is told so.
    expectError(
      await hub.request('POST', '/api/v1/hub/report', { entered: 0, lastSeq: 0, waiting: 0 }),
      403,
      {
        code: 'station_key_required',
      },
    );
  });

  it('is noted as the station’s last contact when used', async () => {
    const st = await hub.join('Table F');
    await hub.store.write((trx) =>
      trx.updateTable('hubStations').set({ lastSeenAt: null }).where('id', '=', st.stationId).execute(),
    );
    expectStatus(await st.request('GET', '/api/v1/hub/changes'), 200);
    await expect
      .poll(
        async () =>
          (
            await hub.store.db
              .selectFrom('hubStations')
              .select('lastSeenAt')
              .where('id', '=', st.stationId)
              .executeTakeFirstOrThrow()
          ).lastSeenAt,
      )
      .not.toBeNull();
  });

  it('a revoked station is refused at once: 401 station_revoked, saying so', async () => {
    const st = await hub.join('Table G');
    expectStatus(await st.request('GET', '/api/v1/hub/changes'), 200);
    const revoked = expectStatus(
      await hub.request('POST', `/api/v1/hub/stations/${st.stationId}/revoke`, { accountId: hub.accountId }),
      200,
    );
    expect(revoked).toMatchObject({ id: st.stationId, revoked: true });
    const refused = await st.request('GET', '/api/v1/hub/changes');
    expectError(refused, 401, { code: 'station_revoked' });
    expect(refused.body.message).toContain(`removed from the event at ${revoked.revokedAt}`);
    expectError(await st.request('POST', '/api/v1/donations', { accountId: hub.accountId }), 401, {
      code: 'station_revoked',
    });
    // Another key with a wrong secret is a plain 401, not a station's.
    const wrong = await httpsRequest(
      `${hub.url}/api/v1/hub/changes`,
      'GET',
      undefined,
      { 'x-api-key': st.keyId, authorization: 'Bearer gds_not-the-secret' },
      hub.cert,
    );
    expectError(wrong, 401, { code: 'unauthorized' });
    const list = HubStationList.parse(
      expectStatus(await hub.request('GET', `/api/v1/hub/stations?accountId=${hub.accountId}`), 200),
    );
    expect(list.stations.find((s) => s.id === st.stationId)?.revokedAt).toBe(revoked.revokedAt);
    // Revoking again changes nothing; an unknown station is a 404 naming the id.
    expect(
      expectStatus(
        await hub.request('POST', `/api/v1/hub/stations/${st.stationId}/revoke`, {
          accountId: hub.accountId,
        }),
        200,
      ).revokedAt,
    ).toBe(revoked.revokedAt);
    expectError(
      await hub.request('POST', '/api/v1/hub/stations/stn_nope/revoke', { accountId: hub.accountId }),
      404,
      { code: 'station_not_found', field: 'id' },
    );
  });
});
