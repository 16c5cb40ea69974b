/**
 * A donor deleted at the hub while a station has work of it on the way: the gift wins. Station A,
 * offline, takes two $19.99 cash gifts (twins) for one of three Robert Browns while the person
 * hosting deletes him at the hub; once A is back, the hub and both stations hold him again with
 * each of the twins once. The other way round: a station's deletion of a donor the hub gave a
 * gift is refused by the hub, and the station gets the donor back.
 *
 * Real parts: the hub serves HTTPS on 127.0.0.1 from its SQLite folder, each station is a
 * GiftDesk on its own SQLite folder with its engine and feed running, joined by pairing code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext } from '../../electron/domain/context.ts';
import { startServer, type RunningServer } from '../../electron/server/serve.ts';
import { joinHub } from '../../electron/sync/station/join.ts';
import { keyFileSource } from '../../electron/sync/remote/secret-box.ts';
import { expectStatus, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { rawRequest, tempDir } from '../helpers/server.ts';
import { type Hub, startHub } from '../hub/hub-rig.ts';

type Request = (method: string, p: string, body?: unknown) => ReturnType<typeof rawRequest>;

interface StationHere {
  dir: string;
  server: RunningServer;
  keys: ReturnType<typeof keyFileSource>;
  auth: Record<string, string>;
  request: Request;
}

let hub: Hub;
let campaignId: string;
const stations: StationHere[] = [];

/** Joins a station and serves it on its folder (engine and feed running, or not: offline). */
async function station(name: string): Promise<StationHere> {
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
  const auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
  const s: StationHere = {
    dir,
    keys,
    auth,
    server: null as unknown as RunningServer,
    request: null as unknown as Request,
  };
  await serve(s, true);
  stations.push(s);
  return s;
}

/** (Re)starts a station's server on its folder; `online: false` runs no engine and no feed. */
async function serve(s: StationHere, online: boolean): Promise<void> {
  const store = await openStore({ dataDir: s.dir });
  s.server = await startServer({
    store,
    port: 0,
    rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
    sync: { keys: s.keys, run: online },
  });
  s.request = (method, p, body) => rawRequest(`${s.server.url}${p}`, method, body, s.auth);
}

async function waiting(s: StationHere): Promise<number> {
  return expectStatus(await s.request('GET', `/api/v1/sync/status?accountId=${hub.accountId}`), 200)
    .waiting as number;
}

interface Person {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
}
interface Gift {
  id: string;
  contactId: string;
  donationAmount: number;
  notes: string | null;
}

async function people(r: Request, search: string): Promise<Person[]> {
  const body = expectStatus(
    await r(
      'GET',
      `/api/v1/contacts?accountId=${hub.accountId}&search=${encodeURIComponent(search)}&limit=100`,
    ),
    200,
  );
  return body.data as Person[];
}

async function gifts(r: Request): Promise<Gift[]> {
  return expectStatus(await r('GET', `/api/v1/donations?accountId=${hub.accountId}&limit=100`), 200)
    .donations as Gift[];
}

const hubRequest: Request = (m, p, b) => hub.request(m, p, b);

beforeAll(async () => {
  hub = await startHub();
  campaignId = (await makeCampaign(hub, 'Gala 2026')).id;
});
afterAll(async () => {
  for (const s of stations) await s.server?.close();
  await hub?.close();
});

function cash(s: StationHere, contactId: string, amount: number) {
  return s.request('POST', '/api/v1/donations', {
    accountId: hub.accountId,
    contactId,
    donationAmount: amount,
    donationDate: '2026-12-02',
    paymentMethod: 'cash',
    campaignId,
  });
}

describe('a donor deleted at the hub while a station types a gift for him: the gift wins', () => {
  it('brings the donor back at the hub and at every station, with each twin gift once', async () => {
    // Three Robert Browns; the one with this email is deleted at the hub.
    const x = await makeContact(hub, {
      firstName: 'Robert',
      lastName: 'Brown',
      primaryEmail: 'rbrown.oak@example.org',
    });
    await makeContact(hub, { firstName: 'Robert', lastName: 'Brown', primaryEmail: 'bob.brown@example.org' });
    await makeContact(hub, { firstName: 'Robert', lastName: 'Brown' });
    const a = await station('Table A');
    const b = await station('Table B');
    // An earlier gift of his, at the hub before the deletion: the hub deletes it with him.
    const earlier = expectStatus(await cash(a, x.id, 50), 201) as Gift;
    await expect.poll(() => waiting(a)).toBe(0);

    // A goes offline and takes twin $19.99 cash gifts for him ...
    await a.server.close();
    await serve(a, false);
    const twins = [
      expectStatus(await cash(a, x.id, 19.99), 201),
      expectStatus(await cash(a, x.id, 19.99), 201),
    ] as Gift[];
    // ... while the person hosting deletes him at the hub (and B sees him go).
    expectStatus(await hub.request('DELETE', `/api/v1/contacts/${x.id}?accountId=${hub.accountId}`), 200);
    await expect.poll(async () => (await people(b.request, 'Brown')).length).toBe(2);

    // A is back.
    await a.server.close();
    await serve(a, true);
    await expect.poll(() => waiting(a), { timeout: 30_000 }).toBe(0);

    // The hub holds him again (three Robert Browns), with each twin once and nothing else.
    await expect.poll(async () => (await people(hubRequest, 'Brown')).length, { timeout: 30_000 }).toBe(3);
    const back = (await people(hubRequest, 'Brown')).find((p) => p.email === 'rbrown.oak@example.org');
    expect(back, JSON.stringify(await people(hubRequest, 'Brown'))).toBeDefined();
    const atHub = (await gifts(hubRequest)).filter((g) => g.contactId === back!.id);
    expect(atHub.map((g) => g.donationAmount).sort()).toEqual([19.99, 19.99]);
    for (const t of twins) expect(atHub.filter((g) => g.notes?.endsWith(`gd:${t.id}`))).toHaveLength(1);
    expect(atHub.some((g) => g.notes?.endsWith(`gd:${earlier.id}`))).toBe(false);
    // The person hosting sees why on the donor's page.
    const page = expectStatus(
      await hub.request('GET', `/api/v1/contacts/${back!.id}?accountId=${hub.accountId}`),
      200,
    );
    expect((page.notes as Array<{ content: string }>).map((n) => n.content).join(' ')).toContain(
      'Deleted at the event hub, then brought back by a gift typed at Table A',
    );

    // Station A shows him with the twins, once each; the gift the hub deleted with him is gone.
    const hereA = (await people(a.request, 'Brown')).filter((p) => p.email === 'rbrown.oak@example.org');
    expect(hereA).toHaveLength(1);
    await expect
      .poll(async () =>
        (await gifts(a.request))
          .filter((g) => g.contactId === hereA[0]!.id)
          .map((g) => g.id)
          .sort(),
      )
      .toEqual(twins.map((t) => t.id).sort());
    // Station B gets him back from the feed, with the twins.
    await expect
      .poll(
        async () =>
          (await people(b.request, 'Brown')).filter((p) => p.email === 'rbrown.oak@example.org').length,
      )
      .toBe(1);
    const hereB = (await people(b.request, 'Brown')).find((p) => p.email === 'rbrown.oak@example.org')!;
    await expect
      .poll(async () =>
        (await gifts(b.request)).filter((g) => g.contactId === hereB.id).map((g) => g.donationAmount),
      )
      .toEqual([19.99, 19.99]);
  }, 120_000);
});

describe("a station's deletion of a donor the hub gave a gift", () => {
  it('is refused by the hub, and the station gets the donor back with every gift of it', async () => {
    const a = stations[0] ?? (await station('Table A'));
    const x = await makeContact(hub, {
      firstName: 'Łukasz',
      lastName: 'Żółć',
      primaryEmail: 'lukasz@example.org',
    });
    // A takes twin $19.99 cash gifts for him; the hub takes one of its own.
    await expect.poll(async () => (await people(a.request, 'lukasz zolc')).length).toBe(1);
    const twins = [
      expectStatus(await cash(a, x.id, 19.99), 201),
      expectStatus(await cash(a, x.id, 19.99), 201),
    ] as Gift[];
    const atTheHub = expectStatus(
      await hub.request('POST', '/api/v1/donations', {
        accountId: hub.accountId,
        contactId: x.id,
        donationAmount: 250,
        donationDate: '2026-12-02',
        paymentMethod: 'check',
        campaignId,
      }),
      201,
    ) as Gift;
    await expect.poll(() => waiting(a)).toBe(0);
    await expect.poll(async () => (await gifts(a.request)).some((g) => g.id === atTheHub.id)).toBe(true);

    // A deletes him: gone here at once, refused at the hub, back here from the hub.
    expectStatus(await a.request('DELETE', `/api/v1/contacts/${x.id}?accountId=${hub.accountId}`), 200);
    // Deleting him at the hub would take its gifts there too: a person confirms first (Settings → Sync).
    await expect
      .poll(async () =>
        JSON.stringify(
          expectStatus(await a.request('GET', `/api/v1/sync/attention?accountId=${hub.accountId}`), 200),
        ),
      )
      .toContain('confirm_delete');
    expectStatus(
      await a.request('POST', `/api/v1/sync/items/contact/${x.id}/retry`, { accountId: hub.accountId }),
      200,
    );
    await expect
      .poll(async () => (await people(a.request, 'lukasz zolc')).map((p) => p.email), { timeout: 30_000 })
      .toEqual(['lukasz@example.org']);
    const here = (await people(a.request, 'lukasz zolc'))[0]!;
    await expect
      .poll(async () =>
        (await gifts(a.request))
          .filter((g) => g.contactId === here.id)
          .map((g) => g.donationAmount)
          .sort(),
      )
      .toEqual([19.99, 19.99, 250]);
    await expect.poll(() => waiting(a)).toBe(0);
    // The hub still holds him with the three gifts, each once; nothing waits for a person at A.
    const atHub = (await gifts(hubRequest)).filter((g) => g.contactId === x.id);
    expect(atHub.map((g) => g.donationAmount).sort()).toEqual([19.99, 19.99, 250]);
    for (const t of twins) expect(atHub.filter((g) => g.notes?.endsWith(`gd:${t.id}`))).toHaveLength(1);
    const attention = expectStatus(
      await a.request('GET', `/api/v1/sync/attention?accountId=${hub.accountId}`),
      200,
    );
    expect(JSON.stringify(attention)).not.toContain('kept_at_hub');
  }, 120_000);
});

describe('GET /hub/donors/{id}', () => {
  it("answers one donor with every gift of it in the feed's shapes, and a clear 400 for a bad id", async () => {
    const z = await hub.join('Table Z');
    const x = await makeContact(hub, {
      firstName: 'Robert',
      lastName: 'Brown',
      primaryEmail: 'rb.z@example.org',
    });
    for (let i = 0; i < 2; i++)
      expectStatus(
        await z.request('POST', '/api/v1/donations', {
          accountId: hub.accountId,
          contactId: x.id,
          donationAmount: 19.99,
          donationDate: '2026-12-02',
          paymentMethod: 'cash',
          campaignId,
        }),
        201,
      );
    const page = expectStatus(await z.request('GET', `/api/v1/hub/donors/${x.id}`), 200);
    expect((page.contacts as Array<{ id: string }>).map((c) => c.id)).toEqual([x.id]);
    expect((page.donations as Gift[]).map((g) => g.donationAmount)).toEqual([19.99, 19.99]);
    expect(page.deletedContacts).toEqual([]);
    const bad = await z.request('GET', `/api/v1/hub/donors/${'x'.repeat(65)}`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id');
    expectStatus(await hub.request('DELETE', `/api/v1/contacts/${x.id}?accountId=${hub.accountId}`), 200);
    const gone = expectStatus(await z.request('GET', `/api/v1/hub/donors/${x.id}`), 200);
    expect(gone).toMatchObject({ contacts: [], deletedContacts: [x.id], donations: [] });
  });
});
