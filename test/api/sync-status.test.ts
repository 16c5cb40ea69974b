/**
 * GET /api/v1/sync/status, the one answer the badge and Settings → Sync show, over real HTTP
 * with the server's own scheduler running: pointed at a 127.0.0.1 port nothing listens on, at a
 * working GiftDesk HQ (through a plain forwarding proxy, which then goes away), and with a key
 * HQ refuses. Each figure is checked against what happened: what HQ holds, what the outbox
 * still has, the attention list in the same answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { SyncAttentionList, SyncStatus } from '#shared/schemas/sync.ts';
import {
  asNewAccount,
  expectStatus,
  makeContact,
  makeCustomField,
  makeDonation,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startFaultProxy, type FaultProxy } from '../sync/fault-proxy.ts';
import { testKeys } from '../sync/rig.ts';

let hq: TestServer;
let s: TestServer;
const proxies: FaultProxy[] = [];

beforeAll(async () => {
  hq = await startTestServer();
  s = await startTestServer({ sync: { keys: testKeys, run: true } });
});
afterAll(async () => {
  for (const p of proxies) await p.close();
  await s?.close();
  await hq?.close();
});

async function status(t: TestServer): Promise<SyncStatus> {
  return SyncStatus.parse(
    expectStatus(await t.request('GET', `/api/v1/sync/status?accountId=${t.accountId}`), 200),
  );
}

async function syncNow(t: TestServer): Promise<void> {
  expectStatus(await t.request('POST', '/api/v1/sync/run', { accountId: t.accountId }), 200);
}

/** The outbox read straight from the database: changes still to go, and those HQ confirmed. */
async function outbox(t: TestServer): Promise<{ left: number; confirmed: number }> {
  const rows = await t.store.db
    .selectFrom('changeLog')
    .select(['syncedAt', 'attemptId', 'entityType'])
    .where('accountId', '=', t.accountId)
    .where('push', '=', 1)
    .where('entityType', 'in', ['contact', 'donation'])
    .execute();
  return {
    left: rows.filter((r) => r.syncedAt === null).length,
    confirmed: rows.filter((r) => r.syncedAt !== null && r.attemptId !== null).length,
  };
}

/**
 * An event's worth of messy entry: three Robert Browns (two sharing an email), a donor typed
 * without her accents, identical twin gifts ($19.99 cash, same donor, same minute), a gift
 * corrected before it left, and a contact entered by mistake and deleted before any sync.
 */
async function messyEvent(t: TestServer, campaignId: string): Promise<{ twins: string[] }> {
  const mistake = await makeContact(t, { firstName: 'Robret', lastName: 'Brwon' });
  expectStatus(await t.request('DELETE', `/api/v1/contacts/${mistake.id}?accountId=${t.accountId}`), 200);
  const rob = await makeContact(t, { firstName: 'Robert', lastName: 'Brown', email: 'rbrown@example.org' });
  await makeContact(t, { firstName: 'Bob', lastName: 'Brown', email: 'rbrown@example.org' });
  await makeContact(t, { firstName: 'Robert', lastName: 'Brown' });
  const zoe = await makeContact(t, { firstName: 'Zoe', lastName: 'Nunez' });
  const twins = [
    await makeDonation(t, rob.id, {
      donationAmount: 19.99,
      paymentMethod: 'cash',
      donationDate: '2026-03-07',
      campaignId,
    }),
    await makeDonation(t, rob.id, {
      donationAmount: 19.99,
      paymentMethod: 'cash',
      donationDate: '2026-03-07',
      campaignId,
    }),
  ];
  const fixed = await makeDonation(t, zoe.id, {
    donationAmount: 250,
    paymentMethod: 'check',
    donationDate: '2026-03-07',
    campaignId,
  });
  expectStatus(
    await t.request('PATCH', `/api/v1/donations/${fixed.id}`, { accountId: t.accountId, donationAmount: 25 }),
    200,
  );
  return { twins: twins.map((d) => d.id) };
}

/** A local account syncing to `baseUrl` as HQ account `h`, with its campaign linked to HQ's. */
async function account(
  baseUrl: string,
  h: { accountId: string; keyId: string; secret: string },
): Promise<{ t: TestServer; campaignId: string }> {
  const t = await asNewAccount(s);
  const remote = await createCampaign(hq.ctx, { accountId: h.accountId, name: 'Spring Gala' });
  const campaignId = (await createCampaign(t.ctx, { accountId: t.accountId, name: 'Spring Gala' })).id;
  await t.store.write((trx) =>
    linkRemote(trx, {
      accountId: t.accountId,
      entityType: 'campaign',
      localId: campaignId,
      remoteId: remote.id,
      source: 'manual',
      at: new Date().toISOString(),
    }),
  );
  expectStatus(
    await t.request('PUT', '/api/v1/sync/settings', {
      accountId: t.accountId,
      baseUrl,
      keyId: h.keyId,
      secret: h.secret,
      remoteAccountId: h.accountId,
      ratePerSecond: 200,
      scheduleSeconds: 86_400,
    }),
    200,
  );
  return { t, campaignId };
}

describe('GET /sync/status', () => {
  it('HQ unreachable: never reached HQ, nothing counted as sent, everything left is waiting', async () => {
    const h = await hq.otherAccount();
    const { t, campaignId } = await account(`http://127.0.0.1:${await freePort()}`, h);
    await messyEvent(t, campaignId);
    await syncNow(t);
    const st = await status(t);
    const box = await outbox(t);

    // The deleted mistake was merged into nothing: done with, but HQ confirmed nothing.
    expect(st.sent).toBe(0);
    expect(box.confirmed).toBe(0);
    expect(st.connection).toMatchObject({
      state: 'never',
      lastAnsweredAt: null,
      refusedAt: null,
      onlineWindowSeconds: 120,
    });
    expect(st.connection.lastFailedAt).not.toBeNull();
    // Once, in words a coordinator can act on (the address, what is wrong, what to check).
    expect(st.connection.lastFailure).toMatch(
      /^GiftDesk cannot reach HQ at http:\/\/127\.0\.0\.1:\d+: nothing answers at that address and port \(the connection was refused\)\. Check the HQ address in the sync settings\./,
    );
    // Every change waits; the status says when they go next (the earliest record's backoff).
    expect(st.nextTryAt).not.toBeNull();
    expect(Date.parse(st.nextTryAt!)).toBeGreaterThan(Date.parse(st.checkedAt));
    expect(st.waiting).toBe(box.left);
    expect(st.waiting).toBeGreaterThanOrEqual(7); // 4 contacts, 3 gifts
    expect(st.inFlight).toBe(0);
    expect(st.needsAttention).toBe(0);
    expect(st.attention).toEqual([]);
    expect(st.lastError).toMatch(/HQ cannot be reached|failed/);
    // The attention route says the same as the status.
    expect(
      SyncAttentionList.parse(
        expectStatus(await t.request('GET', `/api/v1/sync/attention?accountId=${t.accountId}`), 200),
      ).data,
    ).toEqual(st.attention);
  });

  it('HQ working, then gone: online with sent = what HQ confirmed and the refused contact in the list beside its count; then offline since that answer', async () => {
    const h = await hq.otherAccount();
    const port = await freePort();
    const proxy = await startFaultProxy({ target: hq.url, port });
    proxies.push(proxy);
    const { t, campaignId } = await account(`http://127.0.0.1:${port}`, h);
    const { twins } = await messyEvent(t, campaignId);
    // A contact HQ refuses (a custom field HQ lacks): parked; its gift waits for it.
    await makeCustomField(t, 'Shirt Size', 'text');
    const cy = await makeContact(t, {
      firstName: 'Cy',
      lastName: 'Dee',
      customFields: { 'Shirt Size': 'L' },
    });
    await makeDonation(t, cy.id, {
      donationAmount: 19.99,
      paymentMethod: 'cash',
      donationDate: '2026-03-07',
      campaignId,
    });
    const before = Date.now();
    await syncNow(t);
    const st = await status(t);
    const box = await outbox(t);

    expect(st.connection.state).toBe('online');
    expect(Date.parse(st.connection.lastAnsweredAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(st.connection.lastAnsweredAt!)).toBeLessThanOrEqual(Date.parse(st.checkedAt));
    // Sent: exactly the changes HQ confirmed (the deleted mistake's two are done, not sent).
    expect(st.sent).toBe(box.confirmed);
    expect(st.sent).toBeGreaterThanOrEqual(8); // 4 contacts, 3 gifts, the correction
    expect(st.done).toBe(st.sent + 2);
    const atHq = await hq.store.db
      .selectFrom('donations')
      .select('amountCents')
      .where('accountId', '=', h.accountId)
      .execute();
    expect(atHq.filter((d) => Number(d.amountCents) === 1999)).toHaveLength(twins.length);
    expect(atHq.map((d) => Number(d.amountCents)).sort((a, b) => a - b)).toEqual([1999, 1999, 2500]);
    // Needs attention: Cy Dee, in the list of the same answer; waiting: Cy's gift, nothing else.
    expect(st.needsAttention).toBe(1);
    expect(st.attention.map((a) => [a.label, a.code])).toEqual([['Cy Dee', 'remote_refused']]);
    expect(st.waiting).toBe(1);
    // HQ answers and nothing backs off: no time to name (it goes with a pass in a few seconds).
    expect(st.nextTryAt).toBeNull();
    expect(box.left).toBe(st.waiting + 1); // Cy Dee's own change is parked, not waiting
    expect(st.inFlight).toBe(0);

    // HQ goes away: the next request fails; HQ's last answer stays what it was.
    await proxy.close();
    await makeContact(t, { firstName: 'Zoë', lastName: 'Núñez' });
    await syncNow(t);
    const gone = await status(t);
    expect(gone.connection.state).toBe('offline');
    expect(gone.connection.lastAnsweredAt).toBe(st.connection.lastAnsweredAt);
    expect(Date.parse(gone.connection.lastFailedAt!)).toBeGreaterThan(
      Date.parse(gone.connection.lastAnsweredAt!),
    );
    expect(gone.sent).toBe(st.sent);
    expect(gone.waiting).toBe(2);
  });

  it('a key HQ refuses: the state says so, and a new secret takes the refusal away', async () => {
    const h = await hq.otherAccount();
    const { t, campaignId } = await account(hq.url, { ...h, secret: 'gds_not_the_secret' });
    await messyEvent(t, campaignId);
    await syncNow(t);
    const st = await status(t);
    expect(st.connection.state).toBe('refused');
    expect(st.connection.refusedAt).not.toBeNull();
    expect(st.connection.lastFailure).toMatch(
      /^HQ refused the API key \(401\): the key id or secret is wrong, or the key was revoked\. Enter a current key in the sync settings\./,
    );
    expect(st.sent).toBe(0);
    expect(st.waiting).toBe((await outbox(t)).left);

    expectStatus(
      await t.request('PUT', '/api/v1/sync/settings', {
        accountId: t.accountId,
        baseUrl: hq.url,
        keyId: h.keyId,
        secret: h.secret,
        remoteAccountId: h.accountId,
      }),
      200,
    );
    await syncNow(t);
    const ok = await status(t);
    expect(ok.connection.state).toBe('online');
    expect(ok.waiting).toBe(0);
    expect(ok.sent).toBe((await outbox(t)).confirmed);
  });
});
