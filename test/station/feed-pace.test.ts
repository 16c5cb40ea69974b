/**
 * A station at event pace, against a real hub over HTTPS with the per-key limit a hub has
 * (20 a second, a burst of 40, for a station's key what a station does): the station's own
 * loop (its feed and its report) runs for real; the event around it is driven step by step.
 *
 * Time here is the test's: the hub's rate limit, the hub's gathering and the station's report
 * cadence all read one clock that moves only when the test moves it, 50 ms per step, with one
 * gift per step (20 a second across the room: five at another station, and every sixth the
 * station's own, sent with its key, after which a push pass asks for its report). A step is
 * taken only once the station's feed request is parked at the hub (waiting for a change, or
 * gathering), so how many requests the station makes per second of the event does not depend
 * on this machine's speed. Then a 429 that comes anyway: the station waits the hub's
 * Retry-After before reading or reporting again, reads from the same cursor and loses nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createContext } from '../../electron/domain/context.ts';
import type { FeedPace } from '../../electron/hub/index.ts';
import type { RemoteClient, RemoteResult } from '../../electron/sync/net/http-client.ts';
import { defaultClient } from '../../electron/sync/push/default-client.ts';
import { type KeySource, keyFileSource } from '../../electron/sync/remote/secret-box.ts';
import { loadRemoteConfig, type RemoteConfig } from '../../electron/sync/remote/settings.ts';
import { startStationLoop } from '../../electron/sync/station/feed-loop.ts';
import { joinHub } from '../../electron/sync/station/join.ts';
import { expectStatus, giftBody, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { tempDir } from '../helpers/server.ts';
import { type Hub, type Station, httpsRequest, startHub } from '../hub/hub-rig.ts';

const SECONDS = 20;
const STEP_MS = 50;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let now = Date.now();
const clock = () => now;
let hub: Hub;
let tableB: Station;
let store: Store;
let keys: KeySource;
let cfg: RemoteConfig;
let campaignId: string;
let donorId: string;
let realPace: FeedPace;

/** Gatherings at the hub waiting for the test's clock. */
const gatherings: Array<{ until: number; end: () => void }> = [];
const testPace: FeedPace = {
  gatherMs: 250,
  now: clock,
  pause: (ms, signal) =>
    new Promise<void>((resolve) => {
      const g = { until: now + ms, end: resolve };
      gatherings.push(g);
      signal.addEventListener('abort', () => resolve(), { once: true });
    }),
};

beforeAll(async () => {
  hub = await startHub({ rateLimit: { ratePerSecond: 20, burst: 40, now: clock } });
  campaignId = (await makeCampaign(hub, 'Gala 2026')).id;
  donorId = (await makeContact(hub, { firstName: 'Maria', lastName: 'Lopez' })).id;
  tableB = await hub.join('Table B');
  const dir = tempDir('giftdesk-station-');
  store = await openStore({ dataDir: dir });
  keys = keyFileSource(dir);
  await joinHub(createContext(store), keys, {
    url: hub.url,
    code: await hub.code(),
    fingerprint: hub.fingerprint,
    name: 'Table A',
  });
  cfg = (await loadRemoteConfig(store.db, keys, hub.accountId))!;
  realPace = hub.running.hub!.pace;
});
afterAll(async () => {
  for (const g of gatherings.splice(0)) g.end();
  await store?.close();
  await hub?.close();
});

/** Every request of the station's loop, by route and status, and what is in flight. */
function counted(
  seen: Array<{ what: string; status: number | undefined }>,
  inFlight: { feed: number; other: number },
) {
  return (c: RemoteConfig, ms: number): RemoteClient => {
    const inner = defaultClient(c, ms);
    return {
      baseUrl: inner.baseUrl,
      keyId: inner.keyId,
      pacer: inner.pacer,
      timeoutMs: inner.timeoutMs,
      async request(method, path, body, opts) {
        const kind = path === '/hub/changes' ? 'feed' : 'other';
        inFlight[kind]++;
        try {
          const r = await inner.request(method, path, body, opts);
          seen.push({ what: `${method} ${path}`, status: r.status });
          return r;
        } finally {
          inFlight[kind]--;
        }
      },
    };
  };
}

async function giftsHere(): Promise<number> {
  const r = await store.db
    .selectFrom('donations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('accountId', '=', hub.accountId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

const asStation = (keyId: string, secret: string, body: unknown) =>
  httpsRequest(
    `${hub.url}/api/v1/donations`,
    'POST',
    body,
    { 'x-api-key': keyId, authorization: `Bearer ${secret}` },
    hub.cert,
  );

describe('a station at 20 gifts a second across the event', () => {
  it('is never refused: it reads the feed at most four times and reports at most once every two seconds of the event', async () => {
    hub.running.hub!.pace = testPace;
    const seen: Array<{ what: string; status: number | undefined }> = [];
    const inFlight = { feed: 0, other: 0 };
    const loop = startStationLoop({
      store,
      keys,
      accountId: hub.accountId,
      clock,
      makeClient: counted(seen, inFlight),
    });
    const feed = hub.running.hub!.feed;
    /** The station's feed request is at the hub, waiting for a change or gathering; nothing else in flight. */
    const parked = async () => {
      while (!(
        inFlight.other === 0 &&
        inFlight.feed === 1 &&
        (feed.waiting === 1 || gatherings.length === 1)
      ))
        await sleep(2);
    };
    const before = await giftsHere();
    let written = 0;
    for (let step = 1; step <= SECONDS * (1000 / STEP_MS); step++) {
      await parked();
      now += STEP_MS;
      if (step % 6 === 0) {
        // The station's own gift (its push, with its key), then the pass asks for its report.
        const r = await asStation(cfg.keyId, cfg.secret, giftBody(hub, donorId, { campaignId }));
        seen.push({ what: 'POST /donations', status: r.status });
        loop.report();
      } else
        expectStatus(
          await tableB.request('POST', '/api/v1/donations', giftBody(hub, donorId, { campaignId })),
          201,
        );
      written++;
      for (const g of gatherings.filter((x) => x.until <= now)) {
        gatherings.splice(gatherings.indexOf(g), 1);
        g.end();
      }
    }
    const during = [...seen];
    // Every gift reaches the station.
    now += 60_000;
    for (const g of gatherings.splice(0)) g.end();
    await expect.poll(giftsHere, { timeout: 30_000 }).toBe(before + written);
    await loop.stop();
    hub.running.hub!.pace = realPace;

    const count = (what: string) => during.filter((s) => s.what === what).length;
    expect(during.filter((s) => s.status !== 200 && s.status !== 201)).toEqual([]);
    expect(count('POST /donations')).toBe(
      (SECONDS * 1000) / STEP_MS / 6 - (((SECONDS * 1000) / STEP_MS / 6) % 1),
    );
    expect(count('GET /hub/changes')).toBeLessThanOrEqual(SECONDS * 4 + 2);
    expect(count('POST /hub/report')).toBeLessThanOrEqual(SECONDS / 2 + 2);
    expect(count('POST /hub/report')).toBeGreaterThanOrEqual(SECONDS / 5);
  });
});

describe('a station refused anyway (429)', () => {
  it('waits the hub’s Retry-After before its next read and report, reads from the same cursor and loses nothing', async () => {
    const reportedAt = async () =>
      (
        await hub.store.db
          .selectFrom('hubStations')
          .select('reportedAt')
          .where('name', '=', 'Table A')
          .executeTakeFirstOrThrow()
      ).reportedAt;
    const reportedBefore = await reportedAt();
    const calls: Array<{ what: string; at: number; after: unknown }> = [];
    const refused = { feed: false, report: false };
    const refusal = (): RemoteResult => ({
      outcome: 'notApplied',
      sent: true,
      status: 429,
      error: { message: 'Too many requests; retry after 2 s', code: 'rate_limited' },
      retryAfterMs: 1500,
      sentAt: Date.now(),
    });
    const loop = startStationLoop({
      store,
      keys,
      accountId: hub.accountId,
      makeClient: (c, ms) => {
        const inner = defaultClient(c, ms);
        return {
          baseUrl: inner.baseUrl,
          keyId: inner.keyId,
          pacer: inner.pacer,
          timeoutMs: inner.timeoutMs,
          async request(method, path, body, opts) {
            calls.push({ what: `${method} ${path}`, at: Date.now(), after: opts?.query?.after });
            const kind = path === '/hub/changes' ? 'feed' : 'report';
            if (!refused[kind]) {
              refused[kind] = true;
              return refusal();
            }
            return inner.request(method, path, body, opts);
          },
        };
      },
    });
    const gift = expectStatus(
      await tableB.request(
        'POST',
        '/api/v1/donations',
        giftBody(hub, donorId, { campaignId, donationAmount: 77 }),
      ),
      201,
    );
    // It reaches the station (linked to the hub's id).
    const here = async () =>
      (
        await store.db
          .selectFrom('syncLinks')
          .select('localId')
          .where('entityType', '=', 'donation')
          .where('remoteId', '=', gift.id as string)
          .executeTakeFirst()
      )?.localId ?? null;
    await expect.poll(here, { timeout: 30_000 }).not.toBeNull();
    // The report the hub refused goes again, and reaches it.
    await expect.poll(reportedAt, { timeout: 30_000 }).not.toBe(reportedBefore);
    await loop.stop();

    const reads = calls.filter((c) => c.what === 'GET /hub/changes');
    expect(reads[1]!.at - reads[0]!.at).toBeGreaterThanOrEqual(1490);
    expect(reads[1]!.after).toBe(reads[0]!.after);
    const reports = calls.filter((c) => c.what === 'POST /hub/report');
    expect(reports[1]!.at - reports[0]!.at).toBeGreaterThanOrEqual(1490);
  });
});
