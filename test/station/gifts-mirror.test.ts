/**
 * Every gift of the event, with every later change, at every station: a real hub over HTTPS
 * (as `serve --hub` runs it) and two stations, each a real data folder served with its
 * scheduler running (it pushes to the hub and reads its feed). What a station answers about the
 * event's gifts must equal what the hub answers:
 *
 * - a gift the hub voids (one of twin $19.99 cash gifts of one of three Robert Browns) and one
 *   it corrects ($500 typed for $50, over the limit until corrected): the donors' gift lists,
 *   totals, gift-check and flags;
 * - a flag reviewed at the hub shows reviewed at each station;
 * - thank-you marks made at the hub: a station's not-thanked letters no longer count them;
 * - the board (both bases, today and all time, by station), where gifts the hub typed
 *   yesterday and a station received today count yesterday, as at the hub;
 * - the hosts' leaderboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext } from '../../electron/domain/context.ts';
import { startServer, type RunningServer } from '../../electron/server/serve.ts';
import { defaultKeySource } from '../../electron/sync/remote/secret-box.ts';
import {
  expectError,
  expectStatus,
  makeCampaign,
  makeContact,
  makeDonationAccount,
} from '../helpers/api-fixtures.ts';
import { isolatedEnv } from '../helpers/cli.ts';
import { type ApiResponse, rawRequest, tempDir } from '../helpers/server.ts';
import { type Hub, startHub } from '../hub/hub-rig.ts';

type Request = (method: string, p: string, body?: unknown) => Promise<ApiResponse>;

interface Station {
  name: string;
  /** This station's id at the hub. */
  stationId: string;
  running: RunningServer;
  store: Store;
  request: Request;
}

const { env } = isolatedEnv();
let hub: Hub;
const stations: Station[] = [];
let a: Station;
let b: Station;
let pacId: string;
let galaId: string;
const DATE = '2026-11-27';
const TODAY = new Date().toISOString().slice(0, 10);
const YESTERDAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
/** The three Robert Browns, Maria Lopez, and the host who brought guests. */
const donors: Record<'rb1' | 'rb2' | 'rb3' | 'maria' | 'host', string> = {
  rb1: '',
  rb2: '',
  rb3: '',
  maria: '',
  host: '',
};

/** A fresh data folder joined to the hub by the route, then served with a key of the event's account. */
async function joinStation(name: string): Promise<Station> {
  const dir = tempDir('giftdesk-station-');
  const store = await openStore({ dataDir: dir });
  const ctx = createContext(store);
  const local = await createAccount(ctx, 'My Organisation');
  const key = await createApiKey(ctx, local.id, 'script');
  const first = await startServer({
    store,
    port: 0,
    rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
    sync: { keys: defaultKeySource(dir, env), run: true },
  });
  const joined = await rawRequest(
    `${first.url}/api/v1/event/join`,
    'POST',
    { url: `${hub.url}/join#code=${await hub.code()}&fingerprint=${hub.fingerprint}`, name },
    { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` },
  );
  expect(joined.status, joined.text).toBe(200);
  const stationId = (joined.body as { event: { station: { id: string } } }).event.station.id;
  await first.close();
  const again = await openStore({ dataDir: dir });
  const k = await createApiKey(createContext(again), hub.accountId, 'tests');
  const running = await startServer({
    store: again,
    port: 0,
    rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
    sync: { keys: defaultKeySource(dir, env), run: true },
  });
  const auth = { 'x-api-key': k.keyId, authorization: `Bearer ${k.secret}` };
  const s: Station = {
    name,
    stationId,
    running,
    store: again,
    request: (method, p, body) => rawRequest(`${running.url}${p}`, method, body, auth),
  };
  stations.push(s);
  return s;
}

const q = (extra: Record<string, string> = {}) =>
  new URLSearchParams({ accountId: hub.accountId, ...extra }).toString();

async function get(r: Request, p: string, extra: Record<string, string> = {}) {
  return expectStatus(await r('GET', `/api/v1${p}?${q(extra)}`), 200);
}

function giftBody(contactId: string, amount: number, extra: Record<string, unknown> = {}) {
  return {
    accountId: hub.accountId,
    contactId,
    donationAmount: amount,
    donationDate: DATE,
    paymentMethod: 'check',
    campaignId: galaId,
    donationAccountId: pacId,
    ...extra,
  };
}

/** Nothing waits at any station, and every station has read the hub's feed to its end. */
async function quiet(): Promise<void> {
  for (const s of stations)
    await expect.poll(async () => (await get(s.request, '/sync/status')).waiting as number).toBe(0);
  const end = async () => {
    const r = expectStatus(await hub.request('GET', `/api/v1/hub/changes?${q({ limit: '500' })}`), 200);
    let cursor = r.cursor as string;
    let more = r.more as boolean;
    while (more) {
      const n = expectStatus(
        await hub.request('GET', `/api/v1/hub/changes?${q({ after: cursor, limit: '500' })}`),
        200,
      );
      cursor = n.cursor as string;
      more = n.more as boolean;
    }
    return cursor.split('.')[0];
  };
  const hubSeq = await end();
  for (const s of stations)
    await expect
      .poll(async () => {
        const r = await s.store.db
          .selectFrom('syncRemotes')
          .select('hubCursor')
          .where('kind', '=', 'hub')
          .executeTakeFirst();
        return String(r?.hubCursor ?? '').split('.')[0];
      })
      .toBe(hubSeq);
}

/** A donor's gifts as a reader sees them: amount, method, status, station, when entered (ids aside: a station's own keep theirs). */
async function giftsOf(r: Request, contactId: string) {
  const list = await get(r, '/donations', { limit: '100' });
  const mine = (list.donations as Array<{ id: string; contactId: string }>).filter(
    (d) => d.contactId === contactId,
  );
  const full = [];
  for (const d of mine) {
    const g = await get(r, `/donations/${d.id}`);
    full.push(
      `${g.donationAmount} ${g.paymentMethod} ${g.status} ${g.createdAt} ${g.electionType}${g.electionYear}`,
    );
  }
  return full.sort();
}

async function giftCheck(r: Request, contactId: string) {
  return get(r, `/contacts/${contactId}/gift-check`, { donationAccountId: pacId, donationDate: DATE });
}

/** The flags as a reader sees them (the gift's own id aside). */
async function flags(r: Request) {
  const f = await get(r, '/flags', { state: 'all' });
  return (f.flagged as Array<Record<string, unknown>>)
    .map((x) => `${x.id} ${x.contactId} ${x.donationAmount} ${x.state} ${x.resolutionNote} ${x.overBy}`)
    .sort();
}

async function contactTotal(r: Request, contactId: string) {
  return (await get(r, `/contacts/${contactId}`)).totalDonations as number;
}

/** Each board row keyed by the station it counts (the hub as HUB), its count and total. */
function byStation(
  rows: Array<{ where: string; stationId: string | null; count: number; total: number }>,
  me: string | null,
) {
  return rows
    .map((r) => {
      const key = r.where === 'here' ? (me ?? 'HUB') : r.where === 'hub' ? 'HUB' : r.stationId;
      return `${key} ${r.count} ${r.total}`;
    })
    .sort();
}

async function board(r: Request, me: string | null, extra: Record<string, string>) {
  const s = await get(r, '/stats/donations', extra);
  return {
    count: s.count,
    total: s.total,
    byCampaign: s.byCampaign,
    overTime: s.overTime,
    byStation: byStation(s.byStation, me),
  };
}

beforeAll(async () => {
  hub = await startHub();
  const pac = await makeDonationAccount(hub, { perElection: 3300 }, 'PAC');
  pacId = pac.id;
  galaId = (await makeCampaign(hub, 'Gala 2026', [pac.id])).id;
  for (const [k, email] of [
    ['rb1', 'rb1@example.org'],
    ['rb2', 'rb2@example.org'],
    ['rb3', 'rb3@example.org'],
  ] as const)
    donors[k] = (await makeContact(hub, { firstName: 'Robert', lastName: 'Brown', primaryEmail: email })).id;
  donors.maria = (
    await makeContact(hub, { firstName: 'Łukasz', lastName: 'Żółć', primaryEmail: 'lz@example.org' })
  ).id;
  donors.host = (
    await makeContact(hub, { firstName: 'Hana', lastName: 'Host', primaryEmail: 'h@example.org' })
  ).id;
  // Gifts typed at the hub yesterday (before any station joined): a station receives them today.
  const yesterday: string[] = [];
  for (let i = 0; i < 12; i++) {
    const g = expectStatus(
      await hub.request('POST', '/api/v1/donations', giftBody(donors.rb3, 10 + i, { paymentMethod: 'cash' })),
      201,
    );
    yesterday.push(g.id as string);
  }
  await hub.store.write((trx) =>
    trx
      .updateTable('donations')
      .set({ createdAt: `${YESTERDAY}T20:00:00.000Z` })
      .where('id', 'in', yesterday)
      .execute(),
  );
  a = await joinStation('Table A');
  b = await joinStation('Table B');
}, 240_000);
afterAll(async () => {
  for (const s of stations) await s.running.close();
  await hub?.close();
});

describe('the event’s gifts at every station', { timeout: 180_000 }, () => {
  it('a gift the hub voids and one it corrects reach every station: lists, totals, gift-check, flags', async () => {
    // Twin $19.99 cash gifts of the second Robert Brown, typed at A within a second.
    const twin1 = expectStatus(
      await a.request('POST', '/api/v1/donations', giftBody(donors.rb2, 19.99, { paymentMethod: 'cash' })),
      201,
    );
    expectStatus(
      await a.request('POST', '/api/v1/donations', giftBody(donors.rb2, 19.99, { paymentMethod: 'cash' })),
      201,
    );
    // $3,000 from B, then A types $500 for what was $50: over the $3,300 limit, flagged.
    expectStatus(await b.request('POST', '/api/v1/donations', giftBody(donors.maria, 3000)), 201);
    await quiet();
    const typo = expectStatus(await a.request('POST', '/api/v1/donations', giftBody(donors.maria, 500)), 201);
    await quiet();
    const atHub = await get(hub.request, '/donations', { limit: '100' });
    const hubId = (ref: string) =>
      (atHub.donations as Array<{ id: string; notes: string | null }>).find((d) =>
        d.notes?.endsWith(`gd:${ref}`),
      )!.id;
    expect((await flags(hub.request)).some((f) => f.includes(' 500 open '))).toBe(true);

    // The hub voids one twin and corrects the typo.
    expectStatus(
      await hub.request('POST', `/api/v1/donations/${hubId(twin1.id)}/void`, {
        accountId: hub.accountId,
        reason: 'typed twice',
      }),
      200,
    );
    expectStatus(
      await hub.request('PATCH', `/api/v1/donations/${hubId(typo.id)}`, { donationAmount: 50 }),
      200,
    );
    await quiet();

    for (const who of ['rb1', 'rb2', 'rb3', 'maria'] as const) {
      const expected = {
        gifts: await giftsOf(hub.request, donors[who]),
        total: await contactTotal(hub.request, donors[who]),
        check: await giftCheck(hub.request, donors[who]),
      };
      for (const s of [a, b]) {
        expect(
          {
            gifts: await giftsOf(s.request, donors[who]),
            total: await contactTotal(s.request, donors[who]),
            check: await giftCheck(s.request, donors[who]),
          },
          `${who} at ${s.name}`,
        ).toEqual(expected);
      }
    }
    // The twin typed at A is voided there too (the other stays), and at B under the hub's id.
    expect((await get(a.request, `/donations/${twin1.id}`)).status).toBe('voided');
    expect((await get(b.request, `/donations/${hubId(twin1.id)}`)).status).toBe('voided');
    expect(await contactTotal(a.request, donors.rb2)).toBe(19.99);
    expect((await giftCheck(a.request, donors.maria)).limits[0].room).toBe(250);
    const hubFlags = await flags(hub.request);
    expect(hubFlags.some((f) => f.includes(' open '))).toBe(false);
    for (const s of [a, b]) expect(await flags(s.request), s.name).toEqual(hubFlags);
  });

  it('a flag reviewed at the hub shows reviewed at each station', async () => {
    // $300 more from B takes Łukasz over the limit ($3,350 of $3,300).
    expectStatus(await b.request('POST', '/api/v1/donations', giftBody(donors.maria, 300)), 201);
    await quiet();
    const open = (await get(hub.request, '/flags')).flagged as Array<{ id: string; donationAmount: number }>;
    const flag = open.find((f) => f.donationAmount === 300)!;
    expect(flag).toBeDefined();
    expectStatus(
      await hub.request('POST', `/api/v1/flags/${flag.id}/actions`, {
        accountId: hub.accountId,
        action: 'review',
        note: 'spouse’s share, checked',
      }),
      200,
    );
    await quiet();
    const hubFlags = await flags(hub.request);
    expect(hubFlags.find((f) => f.startsWith(flag.id))).toMatch(/ reviewed spouse’s share, checked /);
    for (const s of [a, b]) {
      expect(await flags(s.request), s.name).toEqual(hubFlags);
      expect((await get(s.request, '/flags')).flagged, s.name).toEqual([]);
    }
  });

  it('thank-you marks made at the hub reach every station: its not-thanked letters no longer count them', async () => {
    const notThanked = async (r: Request) => {
      const res = await r('GET', `/api/v1/letters/preview?${q({ kind: 'thank-you', notThanked: 'true' })}`);
      if (res.status === 404) return { documents: '0', gifts: '0' };
      expect(res.status, res.text).toBe(200);
      return { documents: res.headers.get('x-letter-documents'), gifts: res.headers.get('x-letter-gifts') };
    };
    const before = await notThanked(hub.request);
    // The hub marks the Robert Browns' gifts thanked (those its stations typed included).
    const list = (await get(hub.request, '/donations', { limit: '100' })).donations as Array<{
      id: string;
      contactId: string;
    }>;
    const rbs = list.filter((d) => [donors.rb1, donors.rb2, donors.rb3].includes(d.contactId));
    const marked = expectStatus(
      await hub.request('POST', '/api/v1/donations/thank-you', {
        accountId: hub.accountId,
        donations: rbs.map((d) => ({ id: d.id, thankYouSentDate: TODAY })),
      }),
      200,
    );
    expect(marked.marked).toBeGreaterThan(0);
    await quiet();
    const after = await notThanked(hub.request);
    expect(after).not.toEqual(before);
    for (const s of [a, b]) expect(await notThanked(s.request), s.name).toEqual(after);
  });

  it('the board answers at each station as at the hub: both bases, today and all time, by station', async () => {
    expectStatus(await a.request('POST', '/api/v1/donations', giftBody(donors.rb1, 75)), 201);
    expectStatus(await hub.request('POST', '/api/v1/donations', giftBody(donors.rb1, 40)), 201);
    await quiet();
    const today = { startDate: TODAY, endDate: TODAY };
    for (const extra of [
      { basis: 'entered', ...today },
      { basis: 'entered' },
      { basis: 'donationDate' },
      { basis: 'donationDate', startDate: DATE, endDate: DATE },
    ]) {
      const expected = await board(hub.request, null, extra);
      for (const s of [a, b])
        expect(await board(s.request, s.stationId, extra), `${s.name} ${JSON.stringify(extra)}`).toEqual(
          expected,
        );
    }
    // Tonight: the gifts the hub typed yesterday are not counted as entered today anywhere.
    const tonight = await get(a.request, '/stats/donations', { basis: 'entered', ...today });
    const allTime = await get(a.request, '/stats/donations', { basis: 'entered' });
    expect(allTime.count - tonight.count).toBe(12);
  });

  it('the hosts’ leaderboard answers at each station as at the hub', async () => {
    expectStatus(
      await a.request(
        'POST',
        '/api/v1/donations',
        giftBody(donors.rb1, 19.99, { paymentMethod: 'cash', facilitatedByContactId: donors.host }),
      ),
      201,
    );
    expectStatus(
      await b.request(
        'POST',
        '/api/v1/donations',
        giftBody(donors.rb2, 100, { facilitatedByContactId: donors.host }),
      ),
      201,
    );
    expectStatus(
      await hub.request(
        'POST',
        '/api/v1/donations',
        giftBody(donors.rb3, 250, { facilitatedByContactId: donors.host, onBehalfOfContactId: donors.rb1 }),
      ),
      201,
    );
    await quiet();
    const expected = await get(hub.request, '/reports/raised-by');
    expect(expected.hosts).toHaveLength(1);
    expect(expected.hosts[0]).toMatchObject({ contactId: donors.host, count: 3, total: 369.99 });
    for (const s of [a, b]) expect(await get(s.request, '/reports/raised-by'), s.name).toEqual(expected);
  });

  it('the hub keeps when a gift was entered at its station, and takes that from a station’s key only', async () => {
    const typed = expectStatus(
      await a.request('POST', '/api/v1/donations', giftBody(donors.rb3, 19.99)),
      201,
    );
    await quiet();
    const atHub = (await get(hub.request, '/donations', { limit: '100' })).donations as Array<{
      id: string;
      notes: string | null;
      createdAt: string;
    }>;
    expect(atHub.find((d) => d.notes?.endsWith(`gd:${typed.id}`))!.createdAt).toBe(typed.createdAt);
    const count = atHub.length;
    // The person hosting (any key but a station's) cannot say when a gift was entered.
    expectError(
      await hub.request(
        'POST',
        '/api/v1/donations',
        giftBody(donors.rb3, 5, { enteredAt: `${YESTERDAY}T20:00:00Z` }),
      ),
      400,
      { field: 'enteredAt' },
    );
    // Nor record a gift as voided where it was typed: that comes from a station only.
    expectError(
      await hub.request('POST', '/api/v1/donations', giftBody(donors.rb3, 5, { voided: { reason: 'x' } })),
      400,
      { field: 'voided' },
    );
    const script = await hub.join('Script');
    expectError(
      await script.request('POST', '/api/v1/donations', giftBody(donors.rb3, 5, { voided: 'yes' })),
      400,
      { field: 'voided' },
    );
    expectError(
      await script.request('POST', '/api/v1/donations', giftBody(donors.rb3, 5, { enteredAt: 'last night' })),
      400,
      { field: 'enteredAt' },
    );
    expect((await get(hub.request, '/donations', { limit: '100' })).donations).toHaveLength(count);
    const kept = expectStatus(
      await script.request(
        'POST',
        '/api/v1/donations',
        giftBody(donors.rb3, 5, { enteredAt: `${YESTERDAY}T20:00:00+01:00` }),
      ),
      201,
    );
    expect(kept.createdAt).toBe(`${YESTERDAY}T19:00:00.000Z`);
  });
});
