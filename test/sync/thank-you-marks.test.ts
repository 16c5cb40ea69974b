/**
 * Thank-you marks reach HQ. A gift marked thanked after it reached HQ goes to GiftDesk's
 * route for marks (`POST /donations/thank-you`, by HQ's id for the gift); a gift not sent yet
 * carries both fields in its create; a request of unknown outcome is sent again (setting a
 * mark twice is harmless); an HQ of the donor API alone (no such route: 404 or 405) leaves
 * the marks here with one note in the sync status, never a gift needing attention; and a
 * station's marks go on through its event hub to HQ.
 *
 * Real parts only: SQLite files, HQ (and the hub) real GiftDesk servers on 127.0.0.1 behind a
 * fault proxy, the real engine.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createDonation, markThanked } from '../../electron/domain/donations/index.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { linkRemote, remoteIdFor } from '../../electron/sync/outbox/links.ts';
import { queueCounts } from '../../electron/sync/outbox/outbox.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { saveRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { listAttention } from '../../electron/sync/status/attention.ts';
import { syncStatus } from '../../electron/sync/status/status.ts';
import { startTestServer, tempDir } from '../helpers/server.ts';
import { type FaultAction, startFaultProxy } from './fault-proxy.ts';
import { fastClientFactory, type HqSide, testKeys } from './rig.ts';

const DEADLINE_MS = 300;
const makeClient = fastClientFactory(DEADLINE_MS);
const MARKS = '/api/v1/donations/thank-you';
const SENT_AT = '2026-12-01T09:30:00.000Z';

/** An account at a GiftDesk server (HQ or the hub), its key, and its campaign. */
interface Upstream {
  side: HqSide;
  accountId: string;
  keyId: string;
  secret: string;
  campaignId: string;
}

/** A GiftDesk that pushes (a desktop, a station, or the hub towards HQ). */
interface Pusher {
  store: Store;
  ctx: DomainContext;
  accountId: string;
  campaignId: string;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

async function startUpstream(): Promise<Upstream> {
  const remote = await startTestServer({ synchronous: 'NORMAL' });
  const proxy = await startFaultProxy({ target: remote.url });
  const side = {
    remote,
    proxy,
    async close() {
      await proxy.close();
      await remote.close();
    },
  };
  closers.push(side.close);
  const key = await remote.otherAccount();
  const campaign = await createCampaign(remote.ctx, { accountId: key.accountId, name: 'Year-end appeal' });
  return { side, ...key, campaignId: campaign.id };
}

async function pointAt(p: Pusher, up: Upstream): Promise<void> {
  const at = new Date().toISOString();
  await p.store.write((trx) =>
    linkRemote(trx, {
      accountId: p.accountId,
      entityType: 'campaign',
      localId: p.campaignId,
      remoteId: up.campaignId,
      source: 'manual',
      at,
    }),
  );
  await saveRemoteSettings(
    p.store,
    testKeys,
    {
      accountId: p.accountId,
      baseUrl: up.side.proxy.url,
      keyId: up.keyId,
      secret: up.secret,
      remoteAccountId: up.accountId,
      ratePerSecond: 1000,
    },
    at,
  );
}

/** A desktop GiftDesk (or a station) on its own SQLite file, pushing to `up`. */
async function startDesk(up: Upstream): Promise<Pusher> {
  const dataDir = tempDir('giftdesk-marks-');
  const store = await openStore({ dataDir, synchronous: 'NORMAL' });
  closers.push(async () => {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const ctx = createContext(store);
  const { id: accountId } = await createAccount(ctx, 'Friends of the Library');
  const campaign = await createCampaign(ctx, { accountId, name: 'Year-end appeal' });
  const desk = { store, ctx, accountId, campaignId: campaign.id };
  await pointAt(desk, up);
  return desk;
}

/** Passes until nothing is left to go; a record waiting for a person fails the test. */
async function drain(p: Pusher): Promise<void> {
  const engine = createSyncEngine({ store: p.store, keys: testKeys, makeClient, random: () => 0 });
  try {
    for (let i = 0; i < 60; i++) {
      await engine.runPass({ accountId: p.accountId });
      const c = await queueCounts(p.store.db, p.accountId);
      const open = await p.store.db
        .selectFrom('syncItems')
        .select(['entityType', 'entityId', 'state', 'attentionReason'])
        .where('accountId', '=', p.accountId)
        .where('state', '!=', 'idle')
        .execute();
      if (open.some((o) => o.state === 'attention'))
        throw new Error(`a record waits for a person: ${JSON.stringify(open)}`);
      if (c.pending === 0 && c.inFlight === 0 && open.length === 0) return;
      const next = await engine.nextRetryAt();
      const wait = next === null ? 5 : Math.min(Math.max(0, next - Date.now()), 250);
      await new Promise((r) => setTimeout(r, wait));
    }
    throw new Error(`sync did not finish: ${JSON.stringify(await queueCounts(p.store.db, p.accountId))}`);
  } finally {
    await engine.stop();
  }
}

/** Gifts of one donor typed at `p`. */
async function typeGifts(p: Pusher, amounts: number[]): Promise<string[]> {
  const donor = await createContact(p.ctx, {
    accountId: p.accountId,
    firstName: 'Siobhán',
    lastName: "O'Brien",
    primaryEmail: 'siobhan.obrien@example.org',
  });
  const ids: string[] = [];
  for (const [i, amount] of amounts.entries()) {
    const gift = await createDonation(p.ctx, {
      accountId: p.accountId,
      contactId: donor.id,
      donationAmount: amount,
      donationDate: `2026-11-${String(10 + i).padStart(2, '0')}`,
      paymentMethod: 'check',
      campaignId: p.campaignId,
    });
    ids.push(gift.id);
  }
  return ids;
}

/** HQ's marks for `p`'s gift, read from HQ's own database by the id the gift is linked to. */
async function marksAt(up: Upstream, p: Pusher, giftId: string) {
  const remoteId = await remoteIdFor(p.store.db, 'donation', giftId);
  expect(remoteId).not.toBeNull();
  const row = await up.side.remote.store.db
    .selectFrom('donations')
    .select(['thankYouSent', 'thankYouSentDate'])
    .where('accountId', '=', up.accountId)
    .where('id', '=', remoteId!)
    .executeTakeFirstOrThrow();
  return { thankYouSent: row.thankYouSent, thankYouSentDate: row.thankYouSentDate };
}

const marksPosts = (up: Upstream) =>
  up.side.proxy.records.filter((r) => r.method === 'POST' && r.path.startsWith(MARKS));

describe('thank-you marks and a GiftDesk HQ', () => {
  it('a gift marked after it reached HQ: the marks reach HQ through the marks route, by HQ’s id, and nothing needs a person', async () => {
    const hq = await startUpstream();
    const desk = await startDesk(hq);
    const [gift, other] = await typeGifts(desk, [120, 35.5]);
    await drain(desk);
    expect(await marksAt(hq, desk, gift!)).toEqual({ thankYouSent: 0, thankYouSentDate: null });

    expect(await markThanked(desk.ctx, desk.accountId, [gift!], SENT_AT)).toBe(1);
    await drain(desk);

    expect(await marksAt(hq, desk, gift!)).toEqual({ thankYouSent: 1, thankYouSentDate: SENT_AT });
    expect(await marksAt(hq, desk, other!)).toEqual({ thankYouSent: 0, thankYouSentDate: null });
    const posts = marksPosts(hq);
    expect(posts).toHaveLength(1);
    expect(JSON.parse(posts[0]!.body)).toEqual({
      accountId: hq.accountId,
      donations: [{ id: await remoteIdFor(desk.store.db, 'donation', gift!), thankYouSentDate: SENT_AT }],
    });
    expect(await listAttention(desk.store.db, desk.accountId)).toEqual([]);
    const status = await syncStatus(desk.store.db, desk.accountId);
    expect(status).toMatchObject({ waiting: 0, needsAttention: 0, marksKeptHere: 0, marksNote: null });
  });

  it('a gift marked before it was sent carries both fields in its create: no request to the marks route', async () => {
    const hq = await startUpstream();
    const desk = await startDesk(hq);
    const [gift] = await typeGifts(desk, [75]);
    await markThanked(desk.ctx, desk.accountId, [gift!], SENT_AT);
    await drain(desk);

    expect(await marksAt(hq, desk, gift!)).toEqual({ thankYouSent: 1, thankYouSentDate: SENT_AT });
    expect(marksPosts(hq)).toHaveLength(0);
    const bodies = hq.side.proxy.records
      .filter((r) => r.method === 'POST' && r.path.split('?')[0] === '/api/v1/donations')
      .map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ thankYouSent: true, thankYouSentDate: SENT_AT });
  });

  it('the marks’ request answered with nothing (HQ applied it, the answer was lost): sent again, HQ marked once, its date the first', async () => {
    const hq = await startUpstream();
    const desk = await startDesk(hq);
    const [gift] = await typeGifts(desk, [500]);
    await drain(desk);
    let hits = 0;
    hq.side.proxy.setRule((req): FaultAction => {
      if (req.method === 'POST' && req.path.startsWith(MARKS) && ++hits === 1)
        return { kind: 'dropAfterCommit' };
      return { kind: 'forward' };
    });
    await markThanked(desk.ctx, desk.accountId, [gift!], SENT_AT);
    await drain(desk);

    expect(hits).toBe(2);
    expect(marksPosts(hq).map((r) => r.upstreamStatus)).toEqual([200, 200]);
    expect(JSON.parse(marksPosts(hq)[1]!.upstreamBody!)).toEqual({ marked: 0, unknown: [] });
    expect(await marksAt(hq, desk, gift!)).toEqual({ thankYouSent: 1, thankYouSentDate: SENT_AT });
    expect(await syncStatus(desk.store.db, desk.accountId)).toMatchObject({ waiting: 0, needsAttention: 0 });
  });
});

describe('thank-you marks and an HQ of the donor API alone', () => {
  it.each([404, 405])(
    'HQ has no marks route (%i): the marks stay here, one note in the status, no gift needs a person, one request only',
    async (status) => {
      const hq = await startUpstream();
      const desk = await startDesk(hq);
      const gifts = await typeGifts(desk, [20, 40, 60]);
      await drain(desk);
      hq.side.proxy.setRule((req): FaultAction =>
        req.method === 'POST' && req.path.startsWith(MARKS)
          ? { kind: 'respond', status, body: JSON.stringify({ statusCode: status, error: 'Not Found' }) }
          : { kind: 'forward' },
      );
      await markThanked(desk.ctx, desk.accountId, gifts, SENT_AT);
      await drain(desk);

      for (const g of gifts)
        expect(await marksAt(hq, desk, g)).toEqual({ thankYouSent: 0, thankYouSentDate: null });
      expect(marksPosts(hq)).toHaveLength(1); // the pass learnt it once; the other two were not asked
      expect(await listAttention(desk.store.db, desk.accountId)).toEqual([]);
      const s = await syncStatus(desk.store.db, desk.accountId);
      expect(s).toMatchObject({ waiting: 0, needsAttention: 0, marksKeptHere: 3 });
      expect(s.marksNote).toBe(
        'Thank-you marks of 3 gifts already at HQ are kept here only: HQ does not take thank-you marks (its API cannot change a gift once it has it; GiftDesk as HQ can). Mark them thanked at HQ if HQ needs them.',
      );
      // Here they stay marked.
      const here = await desk.store.db
        .selectFrom('donations')
        .select('thankYouSent')
        .where('id', 'in', gifts)
        .execute();
      expect(here.map((r) => r.thankYouSent)).toEqual([1, 1, 1]);
    },
  );
});

describe('thank-you marks through an event hub', () => {
  it('a station’s marks on a gift HQ has go station → hub → HQ', async () => {
    const hq = await startUpstream();
    const hubUp = await startUpstream();
    const station = await startDesk(hubUp);
    const [gift] = await typeGifts(station, [250]);
    await drain(station);
    const hubPusher: Pusher = {
      store: hubUp.side.remote.store,
      ctx: hubUp.side.remote.ctx,
      accountId: hubUp.accountId,
      campaignId: hubUp.campaignId,
    };
    await pointAt(hubPusher, hq);
    await drain(hubPusher);
    const hubGift = (await remoteIdFor(station.store.db, 'donation', gift!))!;
    expect(await remoteIdFor(hubUp.side.remote.store.db, 'donation', hubGift)).not.toBeNull();

    await markThanked(station.ctx, station.accountId, [gift!], SENT_AT);
    await drain(station);
    expect(await marksAt(hubUp, station, gift!)).toEqual({ thankYouSent: 1, thankYouSentDate: SENT_AT });
    await drain(hubPusher);

    expect(await marksAt(hq, hubPusher, hubGift)).toEqual({ thankYouSent: 1, thankYouSentDate: SENT_AT });
    expect(marksPosts(hubUp)).toHaveLength(1);
    expect(marksPosts(hq)).toHaveLength(1);
    expect(await listAttention(hubUp.side.remote.store.db, hubUp.accountId)).toEqual([]);
  });
});
