/**
 * What an event station's key reaches at the hub, over real HTTPS on 127.0.0.1: it deletes
 * only a donor whose gifts are all its own (409 otherwise, nothing deleted); it marks thanked
 * only its own gifts (403 naming the others, nothing marked); a long poll it has open ends with
 * 401 station_revoked when the station is removed (through the hub, or by another process); a
 * path written another way (`/%61pi/…`, `..`, `//`) is a 400 before any gate or route; wrong
 * pairing codes are limited per address with a bound for the whole hub, kept in the database;
 * a code made with `only` retires the older unused ones.
 */
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubChanges } from '#shared/schemas/hub.ts';
import { createContact } from '../../electron/domain/contacts/create.ts';
import { createWrongCodeLimit, revokeStation } from '../../electron/hub/index.ts';
import type { ApiResponse } from '../helpers/server.ts';
import { expectError, expectStatus, giftBody, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { type Hub, type Station, startHub } from './hub-rig.ts';

let hub: Hub;
let a: Station;
let b: Station;
let campaignId: string;
beforeAll(async () => {
  hub = await startHub();
  a = await hub.join('Table A');
  b = await hub.join('Table B');
  campaignId = (await makeCampaign(hub)).id;
});
afterAll(async () => {
  await hub?.close();
});

async function gift(s: Hub | Station, contactId: string, amount: number, method = 'cash'): Promise<string> {
  const body = giftBody(s, contactId, { donationAmount: amount, paymentMethod: method, campaignId });
  return (expectStatus(await s.request('POST', '/api/v1/donations', body), 201) as { id: string }).id;
}

async function giftsOf(contactId: string) {
  return hub.store.db
    .selectFrom('donations')
    .select(['id', 'stationId', 'thankYouSent'])
    .where('contactId', '=', contactId)
    .orderBy('id')
    .execute();
}

async function contactExists(id: string): Promise<boolean> {
  return (
    (await hub.store.db.selectFrom('contacts').select('id').where('id', '=', id).executeTakeFirst()) !==
    undefined
  );
}

describe('a station deleting a donor', () => {
  it('refuses a donor with gifts typed at another table: 409 naming how many, nothing deleted', async () => {
    // Three Robert Browns; the one at Table B gave twice the same $19.99 in cash.
    const roberts = [];
    for (let i = 0; i < 3; i++)
      roberts.push(await makeContact(a, { firstName: 'Robert', lastName: 'Brown' }));
    const robert = roberts[1]!;
    await gift(b, robert.id, 19.99);
    await gift(b, robert.id, 19.99);
    await gift(a, robert.id, 5);
    const before = await giftsOf(robert.id);
    const res = await a.request('DELETE', `/api/v1/contacts/${robert.id}?accountId=${hub.accountId}`);
    expectError(res, 409, { code: 'donor_has_other_gifts', field: 'id' });
    expect((res.body as { message: string }).message).toContain(
      '2 gifts typed at another station or at the hub',
    );
    expect(await contactExists(robert.id)).toBe(true);
    expect(await giftsOf(robert.id)).toEqual(before);
  });

  it('refuses a donor with a gift typed at the hub itself (a voided one too)', async () => {
    const donor = await makeContact(a, { firstName: 'Łukasz', lastName: 'Żółć' });
    const atHub = await gift(hub, donor.id, 100, 'check');
    expectStatus(
      await hub.request('POST', `/api/v1/donations/${atHub}/void`, {
        accountId: hub.accountId,
        reason: 'typed twice',
      }),
      200,
    );
    const res = await a.request('DELETE', `/api/v1/contacts/${donor.id}?accountId=${hub.accountId}`);
    expectError(res, 409, { code: 'donor_has_other_gifts' });
    expect((res.body as { message: string }).message).toContain('1 gift typed');
    expect(await contactExists(donor.id)).toBe(true);
    expect((await giftsOf(donor.id)).length).toBe(1);
  });

  it('deletes a donor whose gifts are all its own, and one with no gifts', async () => {
    const own = await makeContact(a, { firstName: 'Maria', lastName: 'Lopez' });
    await gift(a, own.id, 19.99);
    await gift(a, own.id, 19.99);
    expectStatus(await a.request('DELETE', `/api/v1/contacts/${own.id}?accountId=${hub.accountId}`), 200);
    expect(await contactExists(own.id)).toBe(false);
    const bare = await makeContact(b, { firstName: 'Nobody', lastName: 'Gave' });
    expectStatus(await a.request('DELETE', `/api/v1/contacts/${bare.id}?accountId=${hub.accountId}`), 200);
    expect(await contactExists(bare.id)).toBe(false);
  });

  it("the hub's own key still deletes any donor", async () => {
    const donor = await makeContact(hub, { firstName: 'Robert', lastName: 'Brown' });
    await gift(a, donor.id, 10);
    await gift(b, donor.id, 20);
    expectStatus(await hub.request('DELETE', `/api/v1/contacts/${donor.id}?accountId=${hub.accountId}`), 200);
    expect(await contactExists(donor.id)).toBe(false);
  });
});

describe('a station marking gifts thanked', () => {
  const mark = (s: Hub | Station, ids: string[]) =>
    s.request('POST', '/api/v1/donations/thank-you', {
      accountId: hub.accountId,
      donations: ids.map((id) => ({ id, thankYouSentDate: '2026-03-02T10:00:00.000Z' })),
    });

  it('refuses the whole request when a gift was typed at another table or at the hub: 403 naming them, nothing marked', async () => {
    const donor = await makeContact(a, { firstName: 'Robert', lastName: 'Brown' });
    const own1 = await gift(a, donor.id, 19.99);
    const own2 = await gift(a, donor.id, 19.99);
    const atB = await gift(b, donor.id, 19.99);
    const atHub = await gift(hub, donor.id, 40);
    const res = await mark(a, [own1, atB, own2, atHub]);
    expectError(res, 403, { code: 'not_this_stations_gift', field: 'donations[1].id' });
    const message = (res.body as { message: string }).message;
    expect(message).toContain(atB);
    expect(message).toContain(atHub);
    expect(message).not.toContain(own1);
    expect((res.body as { details: Array<{ field: string }> }).details.map((d) => d.field)).toEqual([
      'donations[1].id',
      'donations[3].id',
    ]);
    expect((await giftsOf(donor.id)).map((g) => g.thankYouSent)).toEqual([0, 0, 0, 0]);
  });

  it("marks its own gifts, and the hub's key marks any", async () => {
    const donor = await makeContact(b, { firstName: 'Maria', lastName: 'Lopez' });
    const own = await gift(a, donor.id, 25);
    const atB = await gift(b, donor.id, 30);
    expect(expectStatus(await mark(a, [own, 'no-such-gift']), 200)).toEqual({
      marked: 1,
      unknown: ['no-such-gift'],
    });
    expect(expectStatus(await mark(hub, [atB]), 200)).toMatchObject({ marked: 1 });
  });
});

describe('a long poll of a station that is removed meanwhile', () => {
  const feed = (s: Station, q: string) => s.request('GET', `/api/v1/hub/changes${q}`);

  it('is ended at once with 401 station_revoked, and carries nothing written after the removal', async () => {
    const st = await hub.join('Table R');
    const first = HubChanges.parse(expectStatus(await feed(st, ''), 200));
    const held = feed(st, `?after=${encodeURIComponent(first.cursor)}&wait=30`);
    await expect.poll(() => hub.running.hub!.feed.waiting).toBe(1);
    const revoked = expectStatus(
      await hub.request('POST', `/api/v1/hub/stations/${st.stationId}/revoke`, { accountId: hub.accountId }),
      200,
    );
    // Ended by the removal itself, before anything else is written.
    await expect.poll(() => hub.running.hub!.feed.waiting).toBe(0);
    const donor = await makeContact(hub, { firstName: 'Robert', lastName: 'Brown' });
    const res = await held;
    expectError(res, 401, { code: 'station_revoked' });
    expect((res.body as { message: string }).message).toContain(
      `removed from the event at ${revoked.revokedAt}`,
    );
    expect(res.text).not.toContain(donor.id);
  });

  it('removed by another process (the CLI): the poll wakes and is refused, a gift written meanwhile not sent', async () => {
    const st = await hub.join('Table S');
    const first = HubChanges.parse(expectStatus(await feed(st, ''), 200));
    const held = feed(st, `?after=${encodeURIComponent(first.cursor)}&wait=30`);
    await expect.poll(() => hub.running.hub!.feed.waiting).toBe(1);
    // Straight through the domain, as `giftdesk hub revoke` does: no request to this server.
    await revokeStation(hub.ctx, st.stationId);
    const donor = await createContact(hub.ctx, {
      accountId: hub.accountId,
      firstName: 'After',
      lastName: 'Removal',
    });
    const res = await held;
    expectError(res, 401, { code: 'station_revoked' });
    expect(res.text).not.toContain(donor.id);
  });
});

describe('a path written another way', () => {
  // The path as written, sent as it is: a URL would take out its "." and ".." segments first.
  const raw = (method: string, p: string, headers: Record<string, string> = {}, body?: unknown) =>
    new Promise<ApiResponse>((resolve, reject) => {
      const { hostname, port } = new URL(hub.url);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = https.request(
        {
          host: hostname,
          port,
          path: p,
          method,
          ca: hub.cert,
          agent: false,
          headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => {
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
            resolve({
              status: res.statusCode ?? 0,
              headers: h,
              body: text ? JSON.parse(text) : undefined,
              text,
            });
          });
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  const keyOf = (s: Station) => ({ 'x-api-key': s.keyId, authorization: `Bearer ${s.secret}` });

  it('is refused before any route: 400 non_canonical_path, the stations not listed, without a key or with a station’s', async () => {
    for (const headers of [{}, keyOf(a)]) {
      const res = await raw('GET', `/%61pi/v1/hub/stations?accountId=${hub.accountId}`, headers);
      expectError(res, 400, { code: 'non_canonical_path', field: '(path)' });
      expect(res.text).not.toContain('Table A');
    }
    for (const p of [
      '/api/v1/hub/st%61tions',
      '/api/v1/hub/%73tations',
      '/api/v1/%68ub/stations',
      '/api/v1/contacts/../hub/stations',
      '/api/v1/./hub/stations',
      '/api/v1//hub/stations',
      '/api%2Dv1/hub/stations',
    ]) {
      const res = await raw('GET', `${p}?accountId=${hub.accountId}`, keyOf(a));
      expectError(res, 400, { code: 'non_canonical_path' });
    }
  });

  it('a join sent that way is refused without counting as a try, and changes nothing', async () => {
    const before = await hub.store.db.selectFrom('hubStations').select('id').execute();
    const code = await hub.code();
    const res = await raw('POST', '/%61pi/v1/hub/join', {}, { code, name: 'Table Q' });
    expectError(res, 400, { code: 'non_canonical_path' });
    expect(await hub.store.db.selectFrom('hubStations').select('id').execute()).toEqual(before);
  });

  it('the plain path still works, with a trailing slash too, and an encoded space in an id is not refused', async () => {
    expectStatus(await hub.request('GET', `/api/v1/hub/stations/?accountId=${hub.accountId}`), 200);
    expectError(await hub.request('GET', `/api/v1/contacts/Robert%20Brown?accountId=${hub.accountId}`), 404);
    expectStatus(
      await hub.request('GET', `/api/v1/contacts?accountId=${hub.accountId}&search=%4Cukasz`),
      200,
    );
    // A station's key is still kept off the hosting routes, matched by their route.
    expectError(await a.request('GET', `/api/v1/hub/stations?accountId=${hub.accountId}`), 403, {
      code: 'station_key_forbidden',
    });
  });
});

describe('wrong pairing codes', () => {
  /** A join sent from `from` (another loopback address: the hub listens on 127.0.0.1). */
  const joinFrom = (h: Hub, from: string, body: unknown) =>
    new Promise<ApiResponse>((resolve, reject) => {
      const payload = JSON.stringify(body);
      const req = https.request(
        `${h.url}/api/v1/hub/join`,
        {
          method: 'POST',
          ca: h.cert,
          agent: false,
          localAddress: from,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => {
            const hs = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') hs.set(k, v);
            resolve({
              status: res.statusCode ?? 0,
              headers: hs,
              body: text ? JSON.parse(text) : undefined,
              text,
            });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  it('one address’s wrong codes do not refuse another address’s right code', async () => {
    const own = await startHub();
    try {
      for (let i = 0; i < 5; i++)
        expectError(await joinFrom(own, '127.0.0.2', { code: `WXYZ-WXY${i + 2}`, name: 'guess' }), 403, {
          code: 'pairing_code_wrong',
        });
      const sixth = await joinFrom(own, '127.0.0.2', { code: await own.code(), name: 'Table A' });
      expectError(sixth, 429, { code: 'pairing_rate_limited' });
      expect((sixth.body as { message: string }).message).toContain('from this address');
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Another table in the room pairs with its right code.
      expectStatus(await joinFrom(own, '127.0.0.3', { code: await own.code(), name: 'Table B' }), 201);
      const names = await own.store.db.selectFrom('hubStations').select('name').execute();
      expect(names.map((n) => n.name)).toEqual(['Table B']);
    } finally {
      await own.close();
    }
  });

  it('past 50 wrong codes in a minute from any addresses, every join waits', async () => {
    const own = await startHub();
    try {
      for (let a = 0; a < 10; a++)
        for (let i = 0; i < 5; i++)
          expectError(
            await joinFrom(own, `127.0.1.${a + 1}`, { code: `WXYZ-WX${a + 2}${i + 2}`, name: 'guess' }),
            403,
            { code: 'pairing_code_wrong' },
          );
      const late = await joinFrom(own, '127.0.2.1', { code: await own.code(), name: 'Table A' });
      expectError(late, 429, { code: 'pairing_rate_limited' });
      expect((late.body as { message: string }).message).toContain('at this hub');
    } finally {
      await own.close();
    }
  });

  it('are kept across a restart of the hub (in its database)', async () => {
    const own = await startHub();
    try {
      const before = createWrongCodeLimit(own.store);
      for (let i = 0; i < 5; i++) await before.refused('192.0.2.7');
      // A new hub process on the same data folder.
      const after = createWrongCodeLimit(own.store);
      expect(await after.retryAfter('192.0.2.7')).toMatchObject({ from: 'address' });
      expect(await after.retryAfter('192.0.2.8')).toBeNull();
    } finally {
      await own.close();
    }
  });

  it('a code made with `only` retires the older codes not used yet', async () => {
    const own = await startHub();
    try {
      const older = await own.code();
      const res = expectStatus(
        await own.request('POST', '/api/v1/hub/codes', { accountId: own.accountId, only: true }),
        200,
      );
      expectError(await joinFrom(own, '127.0.0.4', { code: older, name: 'Table A' }), 403, {
        code: 'pairing_code_wrong',
      });
      expectStatus(await joinFrom(own, '127.0.0.4', { code: res.code, name: 'Table A' }), 201);
      expectError(
        await own.request('POST', '/api/v1/hub/codes', { accountId: own.accountId, only: 'yes' }),
        400,
        { field: 'only' },
      );
    } finally {
      await own.close();
    }
  });
});
