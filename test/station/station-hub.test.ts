/**
 * A station and its hub, end to end on loopback: a real hub over HTTPS with its own
 * certificate (as `serve --hub` runs it), stations as real data folders.
 *
 * - `giftdesk hub join` from a fresh data folder: the event's account, the remote pinned to the
 *   hub's certificate, reference data and the directory here before it returns; a gift
 *   entered at once reaches the hub by itself once the station serves.
 * - the wrong fingerprint: refused before anything is sent (the code still works after).
 * - POST /api/v1/event/join from another fresh folder, GET /api/v1/event.
 * - the whole event at each station: another station's gift in the donor's room and the flag;
 *   each station's board names the other station.
 * - a field edit that lost at the hub: the notice at the station whose edit lost.
 * - a revoked station stops, and its status says so.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext } from '../../electron/domain/context.ts';
import { startServer, type RunningServer } from '../../electron/server/serve.ts';
import { defaultKeySource } from '../../electron/sync/remote/secret-box.ts';
import { type ApiResponse, rawRequest, tempDir } from '../helpers/server.ts';
import { expectStatus, makeCampaign, makeContact, makeDonationAccount } from '../helpers/api-fixtures.ts';
import { isolatedEnv, oneJsonObject, runCli } from '../helpers/cli.ts';
import { type Hub, startHub } from '../hub/hub-rig.ts';

interface StationServer {
  running: RunningServer;
  dataDir: string;
  accountId: string;
  request(method: string, p: string, body?: unknown): Promise<ApiResponse>;
}

const { env } = isolatedEnv();
let hub: Hub;
let campaignId: string;
let pacId: string;
let maria: { id: string };
const servers: StationServer[] = [];

/** A station's data folder served (its scheduler pushes to the hub and reads its feed), with a key of the event's account. */
async function serveStation(dataDir: string, accountId: string): Promise<StationServer> {
  const store = await openStore({ dataDir });
  const ctx = createContext(store);
  const key = await createApiKey(ctx, accountId, 'tests');
  const running = await startServer({
    store,
    port: 0,
    rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
    sync: { keys: defaultKeySource(dataDir, env), run: true },
  });
  const auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
  const s = {
    running,
    dataDir,
    accountId,
    request: (method: string, p: string, body?: unknown) =>
      rawRequest(`${running.url}${p}`, method, body, auth),
  };
  servers.push(s);
  return s;
}

/**
 * The station's server stopped (its sync off, as with the hub out of reach) while `typed` makes
 * requests to the same data folder served without sync, as the station's own routes take them.
 * The caller serves the station again.
 */
async function whileOffline(
  s: StationServer,
  typed: (request: StationServer['request']) => Promise<void>,
): Promise<void> {
  await s.running.close();
  servers.splice(servers.indexOf(s), 1);
  const store = await openStore({ dataDir: s.dataDir });
  const offline = await startServer({
    store,
    port: 0,
    rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
  });
  try {
    const key = await createApiKey(offline.ctx, s.accountId, 'offline');
    const auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
    await typed((method, p, body) => rawRequest(`${offline.url}${p}`, method, body, auth));
  } finally {
    await offline.close();
  }
}

async function hubGifts(): Promise<Array<{ id: string; notes: string | null; donationAmount: number }>> {
  const r = expectStatus(
    await hub.request('GET', `/api/v1/donations?accountId=${hub.accountId}&limit=100`),
    200,
  );
  return r.donations as Array<{ id: string; notes: string | null; donationAmount: number }>;
}

function gift(
  s: Pick<StationServer, 'request' | 'accountId'>,
  amount: number,
  extra: Record<string, unknown> = {},
) {
  return s.request('POST', '/api/v1/donations', {
    accountId: s.accountId,
    contactId: maria.id,
    donationAmount: amount,
    donationDate: '2026-11-27',
    paymentMethod: 'check',
    campaignId,
    donationAccountId: pacId,
    ...extra,
  });
}

beforeAll(async () => {
  hub = await startHub();
  const pac = await makeDonationAccount(hub, { perElection: 3300 }, 'PAC');
  pacId = pac.id;
  campaignId = (await makeCampaign(hub, 'Gala 2026', [pac.id])).id;
  maria = await makeContact(hub, {
    firstName: 'Maria',
    lastName: 'Lopez',
    primaryEmail: 'maria@example.org',
  });
});
afterAll(async () => {
  for (const s of servers) await s.running.close();
  await hub?.close();
});

describe('a station of an event hub', () => {
  let a: StationServer;
  let b: StationServer;

  it('refuses a hub whose certificate is not the one given, sending nothing', async () => {
    const code = await hub.code();
    const wrong = `sha256:${'ab:'.repeat(31)}ab`;
    const dir = tempDir('giftdesk-station-');
    const r = await runCli(
      ['hub', 'join', hub.url, '--code', code, '--fingerprint', wrong, '--data-dir', dir, '--json'],
      env,
    );
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/The hub’s certificate does not match the fingerprint this station was given/);
    // The code never reached the hub: it still pairs.
    const ok = await runCli(
      [
        'hub',
        'join',
        hub.url,
        '--code',
        code,
        '--fingerprint',
        hub.fingerprint,
        '--name',
        'Spare',
        '--data-dir',
        dir,
        '--json',
      ],
      env,
    );
    expect(ok.status).toBe(0);
  });

  it('joins by the CLI from a fresh data folder, with reference data and the directory here at once', async () => {
    const dir = path.join(tempDir('giftdesk-station-'), 'a');
    const r = await runCli(
      [
        'hub',
        'join',
        hub.url,
        '--code',
        await hub.code(),
        '--fingerprint',
        hub.fingerprint,
        '--name',
        'Table A',
        '--data-dir',
        dir,
        '--json',
      ],
      env,
    );
    expect(r.status, r.stderr).toBe(0);
    const out = oneJsonObject(r);
    expect(out).toEqual({
      accountId: hub.accountId,
      station: { id: expect.any(String), name: 'Table A' },
      // The hub has no HQ: nothing to say of thank-you marks.
      marksNote: null,
    });
    a = await serveStation(dir, hub.accountId);
    const campaigns = expectStatus(await a.request('GET', `/api/v1/campaigns?accountId=${a.accountId}`), 200);
    expect(JSON.stringify(campaigns)).toContain(campaignId);
    const found = expectStatus(
      await a.request('GET', `/api/v1/contacts?accountId=${a.accountId}&search=lopez`),
      200,
    );
    expect(found.data.map((c: { id: string }) => c.id)).toContain(maria.id);

    // A gift at once, and it reaches the hub by itself.
    const mine = expectStatus(await gift(a, 3000), 201);
    await expect
      .poll(async () => (await hubGifts()).some((g) => g.notes?.endsWith(`gd:${mine.id}`)))
      .toBe(true);
    const status = expectStatus(await a.request('GET', `/api/v1/sync/status?accountId=${a.accountId}`), 200);
    expect(status).toMatchObject({ remoteKind: 'hub', revokedAt: null });
    // The station reports itself: what it entered is what the hub holds from it, nothing waits.
    await expect
      .poll(async () => {
        const list = expectStatus(
          await hub.request('GET', `/api/v1/hub/stations?accountId=${hub.accountId}`),
          200,
        );
        const me = (
          list.stations as Array<{
            name: string;
            received: number;
            reportedEntered: number | null;
            waiting: number | null;
          }>
        ).find((x) => x.name === 'Table A');
        return me && { received: me.received, entered: me.reportedEntered, waiting: me.waiting };
      })
      .toEqual({ received: 1, entered: 1, waiting: 0 });

    // This folder belongs to the event now: another join is refused, and nothing changes.
    const again = await runCli(
      [
        'hub',
        'join',
        hub.url,
        '--code',
        await hub.code(),
        '--fingerprint',
        hub.fingerprint,
        '--data-dir',
        dir,
        '--json',
      ],
      env,
    );
    expect(again.status).not.toBe(0);
    expect(again.stderr).toMatch(/already a station of the event hub/);
  });

  it('joins by the route from another fresh folder; the other station’s gift counts in the limit check here', async () => {
    const dir = tempDir('giftdesk-station-');
    const store = await openStore({ dataDir: dir });
    const ctx = createContext(store);
    const { createAccount } = await import('../../electron/domain/accounts/accounts.ts');
    const local = await createAccount(ctx, 'My Organisation');
    const key = await createApiKey(ctx, local.id, 'script');
    const running = await startServer({
      store,
      port: 0,
      rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
      sync: { keys: defaultKeySource(dir, env), run: true },
    });
    const auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
    const bad = await rawRequest(
      `${running.url}/api/v1/event/join`,
      'POST',
      { url: 'http://x', code: 'A', fingerprint: 'x', name: 'B' },
      auth,
    );
    expect(bad.status).toBe(400);
    const joined = await rawRequest(
      `${running.url}/api/v1/event/join`,
      'POST',
      { url: `${hub.url}/join#code=${await hub.code()}&fingerprint=${hub.fingerprint}`, name: 'Table B' },
      auth,
    );
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body.event).toMatchObject({
      role: 'station',
      accountId: hub.accountId,
      hubUrl: hub.url,
      fingerprint: hub.fingerprint,
      station: { name: 'Table B' },
    });
    expect(joined.body.session).toBeNull();
    await running.close();
    b = await serveStation(dir, hub.accountId);
    const ev = expectStatus(await b.request('GET', `/api/v1/event?accountId=${b.accountId}`), 200);
    expect(ev).toMatchObject({ role: 'station', revokedAt: null, notices: 0 });

    // Station A's $3,000 reaches B: Maria's room under the $3,300 limit is $300 here.
    await expect
      .poll(async () => {
        const c = expectStatus(
          await b.request(
            'GET',
            `/api/v1/contacts/${maria.id}/gift-check?accountId=${b.accountId}&donationAccountId=${pacId}&donationDate=2026-11-27`,
          ),
          200,
        );
        return c.limits[0]?.room;
      })
      .toBe(300);
    const second = expectStatus(await gift(b, 3000), 201);
    const flags = expectStatus(await b.request('GET', `/api/v1/flags?accountId=${b.accountId}`), 200);
    expect(JSON.stringify(flags)).toContain(second.id);
    // Not doubled anywhere: A's gift once at B, B's own once at A after the round trip.
    await expect
      .poll(async () => {
        const list = expectStatus(
          await a.request('GET', `/api/v1/donations?accountId=${a.accountId}&limit=100`),
          200,
        );
        return list.donations.length;
      })
      .toBe(2);
    const atB = expectStatus(
      await b.request('GET', `/api/v1/donations?accountId=${b.accountId}&limit=100`),
      200,
    );
    expect(atB.donations).toHaveLength(2);
  });

  it('each station’s board names the other station, as the hub names it', async () => {
    const byStation = async (s: StationServer) =>
      expectStatus(
        await s.request('GET', `/api/v1/stats/donations?accountId=${s.accountId}&basis=entered`),
        200,
      ).byStation as Array<{ where: string; stationName: string | null; count: number }>;
    await expect
      .poll(async () => (await byStation(a)).map((r) => `${r.where} ${r.stationName} ${r.count}`))
      .toEqual(['here Table A 1', 'station Table B 1']);
    await expect
      .poll(async () => (await byStation(b)).map((r) => `${r.where} ${r.stationName} ${r.count}`))
      .toEqual(['here Table B 1', 'station Table A 1']);
  });

  it('the same new donor at two stations, the second after the first reached it: one donor everywhere', async () => {
    const dana = { firstName: 'Dana', lastName: 'Kim', primaryEmail: 'dana@example.org' };
    expectStatus(await a.request('POST', '/api/v1/contacts', { accountId: a.accountId, ...dana }), 201);
    const named = async (s: StationServer) =>
      expectStatus(await s.request('GET', `/api/v1/contacts?accountId=${s.accountId}&search=kim`), 200)
        .data as Array<{ id: string }>;
    await expect.poll(async () => (await named(b)).length).toBe(1);
    // Station B's volunteer adds her again (same name and email), with a gift.
    const mine = expectStatus(
      await b.request('POST', '/api/v1/contacts', { accountId: b.accountId, ...dana }),
      201,
    );
    const g = expectStatus(
      await b.request('POST', '/api/v1/donations', {
        accountId: b.accountId,
        contactId: mine.id,
        donationAmount: 15,
        donationDate: '2026-11-27',
        paymentMethod: 'cash',
        campaignId,
      }),
      201,
    );
    await expect
      .poll(
        async () =>
          expectStatus(await b.request('GET', `/api/v1/sync/status?accountId=${b.accountId}`), 200).waiting,
      )
      .toBe(0);
    expect((await named(b)).map((c) => c.id)).toEqual([mine.id]);
    const atHub = expectStatus(
      await hub.request('GET', `/api/v1/contacts?accountId=${hub.accountId}&search=kim`),
      200,
    ).data as Array<{ id: string }>;
    expect(atHub).toHaveLength(1);
    expect((await hubGifts()).filter((x) => x.notes?.endsWith(`gd:${g.id}`))).toHaveLength(1);
    await expect.poll(async () => (await named(a)).length).toBe(1);
  });

  it('the same new donor typed twice at one station ("Łukasz Żółć", then "lukasz zolc"): one donor, the gift on it, nothing parked', async () => {
    const waiting = async (s: StationServer) =>
      expectStatus(await s.request('GET', `/api/v1/sync/status?accountId=${s.accountId}`), 200) as {
        waiting: number;
        needsAttention: number;
      };
    const first = expectStatus(
      await b.request('POST', '/api/v1/contacts', {
        accountId: b.accountId,
        firstName: 'Łukasz',
        lastName: 'Żółć',
        primaryEmail: 'lukasz@zolc.example',
      }),
      201,
    );
    await expect.poll(async () => (await waiting(b)).waiting).toBe(0);
    // Another volunteer at the same table types him again, without the accents, with a gift.
    const again = expectStatus(
      await b.request('POST', '/api/v1/contacts', {
        accountId: b.accountId,
        firstName: 'lukasz',
        lastName: 'zolc',
        primaryEmail: 'lukasz@zolc.example',
      }),
      201,
    );
    const g = expectStatus(
      await b.request('POST', '/api/v1/donations', {
        accountId: b.accountId,
        contactId: again.id,
        donationAmount: 19.99,
        donationDate: '2026-11-27',
        paymentMethod: 'cash',
        campaignId,
      }),
      201,
    );
    await expect.poll(async () => (await waiting(b)).waiting).toBe(0);
    expect((await waiting(b)).needsAttention).toBe(0);
    const here = expectStatus(
      await b.request('GET', `/api/v1/contacts?accountId=${b.accountId}&search=zolc`),
      200,
    ).data as Array<{ id: string }>;
    expect(here.map((c) => c.id)).toEqual([first.id]);
    const gifts = expectStatus(
      await b.request('GET', `/api/v1/contacts/${first.id}/donations?accountId=${b.accountId}`),
      200,
    ).donations as Array<{ id: string; donationAmount: number }>;
    expect(gifts.map((x) => [x.id, x.donationAmount])).toEqual([[g.id, 19.99]]);
    // The hub holds one donor, with the gift.
    const atHub = expectStatus(
      await hub.request('GET', `/api/v1/contacts?accountId=${hub.accountId}&search=zolc`),
      200,
    ).data as Array<{ id: string }>;
    expect(atHub).toHaveLength(1);
    const hubGiftsOf = expectStatus(
      await hub.request('GET', `/api/v1/contacts/${atHub[0]!.id}/donations?accountId=${hub.accountId}`),
      200,
    ).donations as Array<{ donationAmount: number }>;
    expect(hubGiftsOf.map((x) => x.donationAmount)).toEqual([19.99]);
  });

  it('a donor the hub has, typed again at a station without the accents: the station shows the hub’s donor', async () => {
    const hubs = await makeContact(hub, {
      firstName: 'Zoë',
      lastName: 'Núñez',
      primaryEmail: 'zoe@nunez.example',
      primaryPhone: '555-0142',
    });
    const page = async (s: StationServer, id: string) =>
      expectStatus(await s.request('GET', `/api/v1/contacts/${id}?accountId=${s.accountId}`), 200) as {
        firstName: string;
        lastName: string;
        primaryPhone: string | null;
        createdAt: string;
      };
    // The feed brings her to station B first.
    await expect
      .poll(
        async () => (await b.request('GET', `/api/v1/contacts/${hubs.id}?accountId=${b.accountId}`)).status,
      )
      .toBe(200);
    const mine = expectStatus(
      await b.request('POST', '/api/v1/contacts', {
        accountId: b.accountId,
        firstName: 'zoe',
        lastName: 'nunez',
        primaryEmail: 'zoe@nunez.example',
      }),
      201,
    );
    await expect
      .poll(
        async () =>
          (
            expectStatus(await b.request('GET', `/api/v1/sync/status?accountId=${b.accountId}`), 200) as {
              waiting: number;
            }
          ).waiting,
      )
      .toBe(0);
    const atHub = await page(hub, hubs.id);
    expect(atHub).toMatchObject({ firstName: 'Zoë', lastName: 'Núñez', primaryPhone: '555-0142' });
    const here = await page(b, mine.id);
    expect(here).toMatchObject({
      firstName: atHub.firstName,
      lastName: atHub.lastName,
      primaryPhone: atHub.primaryPhone,
      createdAt: atHub.createdAt,
    });
  });

  it('a gift the second record of one person gave on behalf of the first: after the fold it is the donor`s own gift, at the hub too, nothing parked', async () => {
    const status = async (s: StationServer) =>
      expectStatus(await s.request('GET', `/api/v1/sync/status?accountId=${s.accountId}`), 200) as {
        waiting: number;
        needsAttention: number;
      };
    const first = expectStatus(
      await b.request('POST', '/api/v1/contacts', {
        accountId: b.accountId,
        firstName: 'Robert',
        lastName: 'Brown',
        primaryEmail: 'rbrown.fold@example.org',
      }),
      201,
    );
    await expect.poll(async () => (await status(b)).waiting).toBe(0);
    // Typed again at the same table (same email) and credited to the record already here.
    const again = expectStatus(
      await b.request('POST', '/api/v1/contacts', {
        accountId: b.accountId,
        firstName: 'robert',
        lastName: 'brown',
        primaryEmail: 'rbrown.fold@example.org',
      }),
      201,
    );
    const g = expectStatus(
      await b.request('POST', '/api/v1/donations', {
        accountId: b.accountId,
        contactId: again.id,
        onBehalfOfContactId: first.id,
        donationAmount: 50,
        donationDate: '2026-11-27',
        paymentMethod: 'check',
        campaignId,
      }),
      201,
    );
    await expect.poll(async () => (await status(b)).waiting).toBe(0);
    expect((await status(b)).needsAttention).toBe(0);
    const here = expectStatus(
      await b.request('GET', `/api/v1/donations/${g.id}?accountId=${b.accountId}`),
      200,
    ) as { contactId: string; onBehalfOfContactId: string | null };
    expect([here.contactId, here.onBehalfOfContactId]).toEqual([first.id, null]);
    const atHub = expectStatus(
      await hub.request('GET', `/api/v1/contacts?accountId=${hub.accountId}&search=rbrown.fold@example.org`),
      200,
    ).data as Array<{ id: string }>;
    expect(atHub).toHaveLength(1);
    const hubGifts = expectStatus(
      await hub.request('GET', `/api/v1/contacts/${atHub[0]!.id}/donations?accountId=${hub.accountId}`),
      200,
    ).donations as Array<{ donationAmount: number; onBehalfOfContactId: string | null }>;
    expect(hubGifts.map((x) => [x.donationAmount, x.onBehalfOfContactId ?? null])).toEqual([[50, null]]);
  });

  it('a gift voided at a station before it left (the hub out of reach): the hub holds it voided too, with the reason, and the donor’s gifts read alike', async () => {
    // Table B types while its sync is off (the hub's laptop lid closed): the gift and its void
    // are made before anything is sent, as the station's routes make them.
    await whileOffline(b, async (request) => {
      const typed = expectStatus(
        await request('POST', '/api/v1/donations', {
          accountId: b.accountId,
          contactId: maria.id,
          donationAmount: 2500,
          donationDate: '2026-11-27',
          paymentMethod: 'check',
          campaignId,
          donationAccountId: pacId,
        }),
        201,
      );
      expectStatus(
        await request('POST', `/api/v1/donations/${typed.id}/void`, {
          accountId: b.accountId,
          reason: 'meant $25',
        }),
        200,
      );
    });
    b = await serveStation(b.dataDir, b.accountId);
    const status = async () =>
      expectStatus(await b.request('GET', `/api/v1/sync/status?accountId=${b.accountId}`), 200) as {
        waiting: number;
        needsAttention: number;
      };
    await expect.poll(async () => (await status()).waiting).toBe(0);
    expect((await status()).needsAttention).toBe(0);
    // At the hub: the gift, voided, with the reason typed at the table.
    const atHub = (
      expectStatus(
        await hub.request(
          'GET',
          `/api/v1/contacts/${maria.id}/donations?accountId=${hub.accountId}&limit=100`,
        ),
        200,
      ).donations as Array<{ id: string; donationAmount: number }>
    ).find((g) => g.donationAmount === 2500);
    expect(atHub).toBeDefined();
    const detail = expectStatus(
      await hub.request('GET', `/api/v1/donations/${atHub!.id}?accountId=${hub.accountId}`),
      200,
    ) as { status: string };
    expect(detail.status).toBe('voided');
    const history = expectStatus(
      await hub.request('GET', `/api/v1/donations/${atHub!.id}/history?accountId=${hub.accountId}`),
      200,
    ) as { data: Array<{ action: string; note: string | null }> };
    expect(history.data.filter((e) => e.action === 'voided').map((e) => e.note)).toEqual(['meant $25']);
    // The donor's gifts, at the station and at the hub: the same list, the voided one in it.
    const gifts = async (end: { request: StationServer['request'] }, accountId: string) =>
      (
        expectStatus(
          await end.request('GET', `/api/v1/contacts/${maria.id}/donations?accountId=${accountId}&limit=100`),
          200,
        ).donations as Array<{ donationAmount: number; status: string }>
      )
        .map((g) => `${g.donationAmount} ${g.status}`)
        .sort();
    await expect.poll(() => gifts(b, b.accountId)).toEqual(await gifts(hub, hub.accountId));
    expect(await gifts(b, b.accountId)).toContain('2500 voided');
  });

  it('a host deleted at the hub while a station still had a gift of theirs on its way: the gifts they hosted lose the host at the station too', async () => {
    const host = await makeContact(hub, { firstName: 'Hana', lastName: 'Host' });
    const hosted = expectStatus(
      await hub.request('POST', '/api/v1/donations', {
        accountId: hub.accountId,
        contactId: maria.id,
        facilitatedByContactId: host.id,
        donationAmount: 75,
        donationDate: '2026-11-27',
        paymentMethod: 'cash',
        campaignId,
      }),
      201,
    );
    const hostOf = async (end: { request: StationServer['request'] }, accountId: string) => {
      const r = await end.request('GET', `/api/v1/donations/${hosted.id}?accountId=${accountId}`);
      return r.status === 200 ? (r.body.facilitatedByContactId as string | null) : `status ${r.status}`;
    };
    const board = async (end: { request: StationServer['request'] }, accountId: string) =>
      expectStatus(await end.request('GET', `/api/v1/reports/raised-by?accountId=${accountId}`), 200).hosts;
    await expect.poll(() => hostOf(a, a.accountId)).toBe(host.id);
    // Table A, its sync off for a moment, takes a gift from the host; meanwhile the hub deletes her.
    await whileOffline(a, async (request) => {
      expectStatus(
        await request('POST', '/api/v1/donations', {
          accountId: a.accountId,
          contactId: host.id,
          donationAmount: 40,
          donationDate: '2026-11-27',
          paymentMethod: 'cash',
          campaignId,
        }),
        201,
      );
    });
    expectStatus(await hub.request('DELETE', `/api/v1/contacts/${host.id}?accountId=${hub.accountId}`), 200);
    expect(await hostOf(hub, hub.accountId)).toBeNull();
    // Back: the station's gift brings the host back (the gift wins), and the gift the hub
    // typed no longer names her as its host, here as at the hub.
    a = await serveStation(a.dataDir, a.accountId);
    const status = async () =>
      expectStatus(await a.request('GET', `/api/v1/sync/status?accountId=${a.accountId}`), 200) as {
        waiting: number;
      };
    await expect.poll(async () => (await status()).waiting).toBe(0);
    await expect.poll(() => hostOf(a, a.accountId)).toBeNull();
    await expect.poll(() => board(a, a.accountId)).toEqual(await board(hub, hub.accountId));
  });

  it('a flag reviewed at the hub, then the gift corrected there and still over: the station lists the reviewed flag and the new open one, as the hub does', async () => {
    const donor = await makeContact(hub, { firstName: 'Robert', lastName: 'Brown' });
    const over = expectStatus(await gift(hub, 3500, { contactId: donor.id }), 201);
    const flagsOf = async (end: { request: StationServer['request'] }, accountId: string) =>
      (
        expectStatus(await end.request('GET', `/api/v1/flags?accountId=${accountId}&state=all`), 200)
          .flagged as Array<{ id: string; donationId: string; state: string; window: string }>
      )
        .filter((f) => f.donationId === over.id)
        .map((f) => `${f.id} ${f.state} ${f.window}`);
    const [first] = await flagsOf(hub, hub.accountId);
    expect(first).toMatch(/ open /);
    expectStatus(
      await hub.request('POST', `/api/v1/flags/${first!.split(' ')[0]}/actions`, {
        accountId: hub.accountId,
        action: 'review',
        note: 'checked the card',
      }),
      200,
    );
    expectStatus(
      await hub.request('PATCH', `/api/v1/donations/${over.id}`, {
        accountId: hub.accountId,
        donationAmount: 3400,
      }),
      200,
    );
    const atHub = await flagsOf(hub, hub.accountId);
    // Two flags on one gift, one limit and one window: the one the treasurer reviewed, and the
    // one the corrected amount raised.
    expect(atHub.map((f) => f.split(' ')[1])).toEqual(['open', 'reviewed']);
    expect(new Set(atHub.map((f) => f.split(' ')[2])).size).toBe(1);
    await expect.poll(() => flagsOf(a, a.accountId)).toEqual(atHub);
  });

  it('tells the station whose edit lost', async () => {
    expectStatus(await a.request('PUT', `/api/v1/contacts/${maria.id}`, { primaryPhone: '555-0001' }), 200);
    await expect
      .poll(
        async () =>
          expectStatus(
            await hub.request('GET', `/api/v1/contacts/${maria.id}?accountId=${hub.accountId}`),
            200,
          ).phone,
      )
      .toBe('555-0001');
    expectStatus(await b.request('PUT', `/api/v1/contacts/${maria.id}`, { primaryPhone: '555-0002' }), 200);
    await expect
      .poll(
        async () =>
          expectStatus(await a.request('GET', `/api/v1/event/notices?accountId=${a.accountId}`), 200).notices
            .length,
      )
      .toBe(1);
    const { notices } = expectStatus(
      await a.request('GET', `/api/v1/event/notices?accountId=${a.accountId}`),
      200,
    );
    expect(notices[0]).toMatchObject({
      contactName: 'Maria Lopez',
      field: 'primaryPhone',
      mine: '555-0001',
      theirs: '555-0002',
    });
    expect(notices[0].message).toMatch(
      /^Your change to Maria Lopez's phone was replaced by a later change at another station/,
    );
    const atA = expectStatus(
      await a.request('GET', `/api/v1/contacts/${maria.id}?accountId=${a.accountId}`),
      200,
    );
    expect(atA.phone).toBe('555-0002');
  });

  it('a revoked station stops pushing and says so', async () => {
    const ev = expectStatus(await b.request('GET', `/api/v1/event?accountId=${b.accountId}`), 200);
    expectStatus(
      await hub.request('POST', `/api/v1/hub/stations/${ev.station.id}/revoke`, { accountId: hub.accountId }),
      200,
    );
    const late = expectStatus(await gift(b, 10), 201);
    await expect
      .poll(
        async () =>
          expectStatus(await b.request('GET', `/api/v1/sync/status?accountId=${b.accountId}`), 200).revokedAt,
      )
      .not.toBeNull();
    const status = expectStatus(await b.request('GET', `/api/v1/sync/status?accountId=${b.accountId}`), 200);
    expect(status).toMatchObject({ remoteKind: 'hub' });
    expect(status.waiting).toBeGreaterThan(0);
    expect((await hubGifts()).some((g) => g.notes?.endsWith(`gd:${late.id}`))).toBe(false);
    expect(
      expectStatus(await b.request('GET', `/api/v1/event?accountId=${b.accountId}`), 200).revokedAt,
    ).not.toBeNull();
  });

  it('the app’s own session joining gets a key of the event’s account', async () => {
    const dir = tempDir('giftdesk-station-');
    const store = await openStore({ dataDir: dir });
    const ctx = createContext(store);
    const { createAccount } = await import('../../electron/domain/accounts/accounts.ts');
    const local = await createAccount(ctx, 'My Organisation');
    const windowKey = await createApiKey(ctx, local.id, 'browser window', 'browser');
    const running = await startServer({
      store,
      port: 0,
      rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
      sync: { keys: defaultKeySource(dir, env), run: false },
    });
    try {
      const auth = { 'x-api-key': windowKey.keyId, authorization: `Bearer ${windowKey.secret}` };
      const joined = await rawRequest(
        `${running.url}/api/v1/event/join`,
        'POST',
        {
          url: hub.url,
          code: await hub.code(),
          fingerprint: hub.fingerprint.toUpperCase().replace('SHA256', 'sha256'),
          name: 'Tablet',
        },
        auth,
      );
      expect(joined.status, joined.text).toBe(200);
      const session = joined.body.session as { accountId: string; keyId: string; secret: string };
      expect(session.accountId).toBe(hub.accountId);
      const theirs = { 'x-api-key': session.keyId, authorization: `Bearer ${session.secret}` };
      const ev = await rawRequest(
        `${running.url}/api/v1/event?accountId=${hub.accountId}`,
        'GET',
        undefined,
        theirs,
      );
      expect(expectStatus(ev, 200)).toMatchObject({ role: 'station', station: { name: 'Tablet' } });
      // The directory is here for it: the event's donor is found at once.
      const found = await rawRequest(
        `${running.url}/api/v1/contacts?accountId=${hub.accountId}&search=lopez`,
        'GET',
        undefined,
        theirs,
      );
      expect(expectStatus(found, 200).data.map((c: { id: string }) => c.id)).toContain(maria.id);
    } finally {
      await running.close();
    }
  });

  it('passes the hub’s refusals on in words: a wrong code (403), then too many (429)', async () => {
    const dir = tempDir('giftdesk-station-');
    const join = (code: string) =>
      runCli(
        [
          'hub',
          'join',
          hub.url,
          '--code',
          code,
          '--fingerprint',
          hub.fingerprint,
          '--data-dir',
          dir,
          '--json',
        ],
        env,
      );
    const wrong = await join('ZZZZ-ZZZZ');
    expect(wrong.status).not.toBe(0);
    expect(JSON.parse(wrong.stderr.trim().split('\n').pop()!)).toMatchObject({
      error: {
        code: 'pairing_code_wrong',
        message: expect.stringMatching(/^The hub refused the pairing code: /),
      },
    });
    let last = wrong;
    for (let i = 0; i < 6 && !/too many/i.test(last.stderr); i++) last = await join('ZZZZ-ZZZ2');
    expect(last.stderr).toMatch(/The hub refused: too many wrong codes; try again in \d+ s/);
  });
});
