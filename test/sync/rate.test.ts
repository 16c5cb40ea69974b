/**
 * Rate at the remote, counted where it matters — at the proxy in front of it: however many
 * lanes send at once and however slow the remote is, no one-second window sees more than
 * the configured rate plus one bucket's burst; a remote that enforces a lower rate of its
 * own is followed (its headers and its 429s), and every request still gets through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { defaultClient } from '../../electron/sync/push/default-client.ts';
import { createRemoteClient, type RemoteClient } from '../../electron/sync/net/http-client.ts';
import { createPacer } from '../../electron/sync/net/pacer.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { maxInAnyWindow, startFaultProxy, type FaultProxy } from './fault-proxy.ts';
import { createRng } from './random.ts';
import { checkHqMatchesLocal, startHq, startRig, syncToCompletion, testKeys } from './rig.ts';

/**
 * The proxy shares this process's event loop with HQ and the client: a stall of the loop (GC,
 * a busy CI machine, PostgreSQL answers arriving together) delays arrivals and can bunch two
 * that left 200 ms apart into one window. One request of allowance for that, no more.
 */
const ARRIVAL_JITTER = 1;

let remote: TestServer;
let strict: TestServer;

beforeAll(async () => {
  [remote, strict] = await Promise.all([
    startTestServer(),
    startTestServer({ rateLimit: { ratePerSecond: 3, burst: 2 } }),
  ]);
});
afterAll(async () => {
  await remote?.close();
  await strict?.close();
});

/** `lanes` workers share one client and send `total` GETs between them; a 429 is retried. */
async function drive(client: RemoteClient, server: TestServer, lanes: number, total: number) {
  let next = 0;
  const statuses: number[] = [];
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < total) {
        next++;
        for (;;) {
          const r = await client.request('GET', '/contacts', undefined, {
            query: { accountId: server.accountId, limit: 1 },
          });
          statuses.push(r.status ?? 0);
          if (r.status !== 429) break;
        }
      }
    }),
  );
  return statuses;
}

describe('rate at the remote', () => {
  let proxy: FaultProxy;
  afterAll(async () => proxy?.close());

  it('8 lanes at 5/s with a remote answering in 0–400 ms: never more than 5 + 1 in any second', async () => {
    const rng = createRng(5);
    proxy = await startFaultProxy({
      target: remote.url,
      rule: () => ({ kind: 'forward', latencyMs: rng.int(0, 400) }),
    });
    const client = createRemoteClient({
      baseUrl: proxy.url,
      keyId: remote.keyId,
      secret: remote.secret,
      pacer: createPacer({ ratePerSecond: 5, burst: 1 }),
    });
    const statuses = await drive(client, remote, 8, 16);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const times = proxy.records.map((r) => r.at);
    expect(times).toHaveLength(16);
    expect(maxInAnyWindow(times, 1000)).toBeLessThanOrEqual(5 + 1 + ARRIVAL_JITTER);
  });

  it('a remote that enforces 3/s of its own: its headers hold us back, a 429 pauses us, every request gets through', async () => {
    const p = await startFaultProxy({ target: strict.url });
    try {
      const client = createRemoteClient({
        baseUrl: p.url,
        keyId: strict.keyId,
        secret: strict.secret,
        pacer: createPacer({ ratePerSecond: 10, burst: 1 }),
      });
      const statuses = await drive(client, strict, 4, 12);
      expect(statuses.filter((s) => s === 200)).toHaveLength(12);
      const limited = statuses.filter((s) => s === 429).length;
      // The remote's X-RateLimit-Remaining: 0 holds the queue until its reset, so 429s are the
      // exception (requests already on their way), not the rule.
      expect(limited).toBeLessThanOrEqual(4);
      const times = p.records.map((r) => r.at);
      expect(maxInAnyWindow(times, 1000)).toBeLessThanOrEqual(10 + 1);
    } finally {
      await p.close();
    }
  });
});

describe('rate at the remote, with the sync engine', () => {
  it('pushing 50 changes over many lanes at the default 5/s, remote answering in 0–300 ms: never more than 5 + 1 requests in any second', async () => {
    const hq = await startHq();
    const rng = createRng(11);
    const rig = await startRig({
      hqSide: hq,
      ratePerSecond: 5,
      rule: () => ({ kind: 'forward', latencyMs: rng.int(0, 300) }),
    });
    // The production client: the settings' rate, burst 1, the production deadline.
    const engine = createSyncEngine({ store: rig.local.store, keys: testKeys, makeClient: defaultClient });
    try {
      for (let i = 0; i < 25; i++) {
        const c = await createContact(rig.local.ctx, {
          accountId: rig.local.accountId,
          firstName: 'Rate',
          lastName: `Donor${i}`,
        });
        await createDonation(rig.local.ctx, {
          accountId: rig.local.accountId,
          contactId: c.id,
          donationAmount: 10 + i,
          donationDate: '2026-11-24',
          paymentMethod: 'cash',
          campaignId: rig.local.campaignId,
        });
      }
      const from = hq.proxy.records.length;
      await syncToCompletion(engine, rig);
      await checkHqMatchesLocal(rig);
      const times = hq.proxy.records.slice(from).map((r) => r.at);
      expect(times.length).toBeGreaterThanOrEqual(50);
      expect(maxInAnyWindow(times, 1000)).toBeLessThanOrEqual(5 + 1 + ARRIVAL_JITTER);
    } finally {
      await engine.stop();
      await rig.close();
      await hq.close();
    }
  });
});
