/**
 * Two hops, exactly once. A station pushes to an event hub (a GiftDesk it treats as its HQ),
 * and the hub pushes on to HQ. Ids are minted where a gift is typed: the hub sends a station's
 * gift and donor on under the STATION's references (the gift's notes end with the station's
 * `gd:` line, the contact carries the station's one `gd:` tag), so that when the hub is lost
 * and the station sends its records straight to HQ (or to a replacement hub), HQ answers with
 * what it holds instead of adding a second copy.
 *
 * Real parts only: three SQLite files (station, hub, HQ), the hub and HQ real GiftDesk servers
 * on 127.0.0.1 each behind a fault proxy, the real engine at the station (pushing to the hub
 * with an ordinary API key of the hub's) and at the hub (pushing to HQ).
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { donationReferenceOf, referencesIn } from '#shared/sync-reference.ts';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContact, getContact } from '../../electron/domain/contacts/index.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { linkRemote, remoteIdFor } from '../../electron/sync/outbox/links.ts';
import { queueCounts } from '../../electron/sync/outbox/outbox.ts';
import { markAllUnsent, markResent } from '../../electron/sync/outbox/resend.ts';
import { pullFromHq } from '../../electron/sync/pull/pull.ts';
import { type ContactMatcher, createSyncEngine } from '../../electron/sync/push/engine.ts';
import { matchContactByEmail } from '../../electron/sync/push/email-match.ts';
import { loadRemoteConfig, saveRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { listAttention } from '../../electron/sync/status/attention.ts';
import { rawRequest, startTestServer, tempDir } from '../helpers/server.ts';
import { type FaultAction, forwardAll, startFaultProxy } from './fault-proxy.ts';
import { fastClientFactory, type HqSide, startHq, testKeys } from './rig.ts';

/** Every engine's request deadline here: an unknown create is looked for this long after it left. */
const DEADLINE_MS = 300;
const makeClient = fastClientFactory(DEADLINE_MS);

/** An account at a GiftDesk server (the hub or HQ), its key, and its "Spring gala" campaign. */
interface Upstream {
  side: HqSide;
  accountId: string;
  keyId: string;
  secret: string;
  campaignId: string;
}

/** A GiftDesk that pushes (a station, or the hub towards HQ): its store, account and campaign. */
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

/** The hub: a desktop GiftDesk (SQLite) serving the station's pushes, behind a fault proxy. */
async function startHub(): Promise<HqSide> {
  const remote = await startTestServer({ engine: 'sqlite', synchronous: 'NORMAL' });
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
  return side;
}

async function startHqSide(): Promise<HqSide> {
  const side = await startHq({ synchronous: 'NORMAL' });
  closers.push(side.close);
  return side;
}

async function accountAt(side: HqSide): Promise<Upstream> {
  const key = await side.remote.otherAccount();
  const campaign = await createCampaign(side.remote.ctx, { accountId: key.accountId, name: 'Spring gala' });
  return { side, ...key, campaignId: campaign.id };
}

/** Makes `p` push to `up`: the remote settings (through `up`'s proxy) and its campaign linked to `up`'s. */
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

/** A station: its own SQLite file and account, pushing to the hub's account. */
async function startStation(hub: Upstream): Promise<Pusher> {
  const dataDir = tempDir('giftdesk-station-');
  const store = await openStore({ dataDir, synchronous: 'NORMAL' });
  closers.push(async () => {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const ctx = createContext(store);
  const { id: accountId } = await createAccount(ctx, 'Gala night');
  const campaign = await createCampaign(ctx, { accountId, name: 'Spring gala' });
  const station = { store, ctx, accountId, campaignId: campaign.id };
  await pointAt(station, hub);
  return station;
}

/** The hub's account as a pusher towards HQ. */
async function hubPushesTo(hub: Upstream, hq: Upstream): Promise<Pusher> {
  const p = {
    store: hub.side.remote.store,
    ctx: hub.side.remote.ctx,
    accountId: hub.accountId,
    campaignId: hub.campaignId,
  };
  await pointAt(p, hq);
  return p;
}

/**
 * One engine's passes until nothing is left to push and nothing is in flight or unknown; a
 * record waiting for a person fails the test. The engine stops (its lease given up) at the end.
 */
async function drain(p: Pusher, opts: { matchContact?: ContactMatcher } = {}): Promise<void> {
  const engine = createSyncEngine({ store: p.store, keys: testKeys, makeClient, random: () => 0, ...opts });
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

/**
 * The station sends everything it typed again, to `up` (HQ, or a replacement hub), as after
 * its hub was lost: it knows nothing of what `up` holds, so no record is linked to anything
 * there and every change it made goes again — each create looked for at `up` first, as the
 * handover marks them (station/handover.ts: "may be there").
 */
async function sendAllAgainTo(station: Pusher, up: Upstream): Promise<void> {
  await station.store.write(async (trx) => {
    await markAllUnsent(trx, station.accountId);
    await markResent(trx, station.accountId, new Date().toISOString(), null);
  });
  await pointAt(station, up);
}

/** Fetches the station's records from `up` the way a pull does (its donors linked by email). */
async function pullAt(p: Pusher, up: Upstream): Promise<void> {
  const cfg = (await loadRemoteConfig(p.store.db, testKeys, p.accountId))!;
  const run = await pullFromHq({
    ctx: p.ctx,
    remote: makeClient(cfg),
    accountId: p.accountId,
    remoteAccountId: up.accountId,
  });
  expect(run.status).toBe('done');
}

async function hqDonations(hq: Upstream) {
  return hq.side.remote.store.db
    .selectFrom('donations')
    .select(['id', 'notes', 'contactId', 'amountCents'])
    .where('accountId', '=', hq.accountId)
    .orderBy('id')
    .execute();
}

/** HQ's contacts with their `gd:` tags. */
async function hqContacts(hq: Upstream) {
  const rows = await hq.side.remote.store.db
    .selectFrom('contacts')
    .select('id')
    .where('accountId', '=', hq.accountId)
    .execute();
  const out: Array<{ id: string; refs: string[] }> = [];
  for (const r of rows) {
    const c = await getContact(hq.side.remote.ctx, hq.accountId, r.id);
    out.push({ id: r.id, refs: c.tags.filter((t) => t.toLowerCase().startsWith('gd:')) });
  }
  return out;
}

/** A donor and a gift typed at the station. */
async function typeGift(station: Pusher, notes: string | null = 'table 4') {
  const donor = await createContact(station.ctx, {
    accountId: station.accountId,
    firstName: 'Maria',
    lastName: 'Lopez',
    primaryEmail: 'maria.lopez@example.org',
    tags: ['volunteer'],
  });
  const gift = await createDonation(station.ctx, {
    accountId: station.accountId,
    contactId: donor.id,
    donationAmount: 250,
    donationDate: '2026-11-27T19:42:00Z',
    paymentMethod: 'check',
    campaignId: station.campaignId,
    notes,
  });
  return { donor, gift };
}

/** HQ holds the gift and its donor once each, under the station's references. */
async function expectAtHqOnce(hq: Upstream, donorId: string, giftId: string, notes: string) {
  const gifts = await hqDonations(hq);
  expect(gifts).toHaveLength(1);
  expect(donationReferenceOf(gifts[0]!.notes)).toBe(`gd:${giftId}`);
  expect(referencesIn(gifts[0]!.notes)).toEqual([giftId]);
  expect(gifts[0]!.notes).toBe(`${notes}\ngd:${giftId}`);
  const contacts = await hqContacts(hq);
  expect(contacts).toEqual([{ id: gifts[0]!.contactId, refs: [`gd:${donorId}`] }]);
  return { giftAtHq: gifts[0]!.id, donorAtHq: contacts[0]!.id };
}

async function remoteIdsOf(p: Pusher, donorId: string, giftId: string) {
  return {
    giftAtHq: await remoteIdFor(p.store.db, 'donation', giftId),
    donorAtHq: await remoteIdFor(p.store.db, 'contact', donorId),
  };
}

/** Answers the first POST to `path` carrying `marker` with `action`; everything else goes through. */
function faultFirstPost(side: HqSide, path: string, marker: string, action: FaultAction): () => number {
  let hits = 0;
  side.proxy.setRule((req): FaultAction => {
    if (req.method === 'POST' && req.path.startsWith(`/api/v1${path}`) && req.body.includes(marker)) {
      hits++;
      if (hits === 1) return action;
    }
    return { kind: 'forward' };
  });
  return () => hits;
}

describe('a station’s gift through the hub to HQ', () => {
  it('reaches HQ under the station’s references, and the station sending it again straight to HQ doubles nothing', async () => {
    const [hubSide, hqSide] = [await startHub(), await startHqSide()];
    const [hub, hq] = [await accountAt(hubSide), await accountAt(hqSide)];
    const station = await startStation(hub);
    const { donor, gift } = await typeGift(station);

    await drain(station);
    const atHub = await hubSide.remote.store.db
      .selectFrom('donations')
      .select('notes')
      .where('accountId', '=', hub.accountId)
      .execute();
    expect(atHub.map((d) => d.notes)).toEqual([`table 4\ngd:${gift.id}`]);

    const hubAsPusher = await hubPushesTo(hub, hq);
    await drain(hubAsPusher);
    const held = await expectAtHqOnce(hq, donor.id, gift.id, 'table 4');
    const hubGift = (
      await hubSide.remote.store.db
        .selectFrom('donations')
        .select('id')
        .where('accountId', '=', hub.accountId)
        .execute()
    )[0]!.id;
    expect(await remoteIdFor(hubSide.remote.store.db, 'donation', hubGift)).toBe(held.giftAtHq);

    // The hub is lost; the station sends all it typed straight to HQ.
    await sendAllAgainTo(station, hq);
    await drain(station);
    expect(await expectAtHqOnce(hq, donor.id, gift.id, 'table 4')).toEqual(held);
    expect(await remoteIdsOf(station, donor.id, gift.id)).toEqual(held);
    expect(await listAttention(station.store.db, station.accountId)).toEqual([]);
  });

  // A hub that comes back after its station sent everything straight to HQ sends records it
  // never knew to be at HQ: only an HQ that creates once per reference keeps them once (an HQ
  // with the donor API alone gets them twice: docs/event-day.md, "If the hub laptop is lost").
  it.skipIf(process.env.GIFTDESK_TEST_HQ === 'spec-only')(
    'the other way round: the station reaches HQ first, then the hub sends the same records (matching the donor by email) and HQ still holds each once',
    async () => {
      const [hubSide, hqSide] = [await startHub(), await startHqSide()];
      const [hub, hq] = [await accountAt(hubSide), await accountAt(hqSide)];
      const station = await startStation(hub);
      const { donor, gift } = await typeGift(station);
      await drain(station);

      // The hub is out of reach; the station is pointed at HQ and sends everything there.
      await sendAllAgainTo(station, hq);
      await drain(station);
      const held = await expectAtHqOnce(hq, donor.id, gift.id, 'table 4');

      // The hub comes back and pushes what the station gave it.
      const hubAsPusher = await hubPushesTo(hub, hq);
      await drain(hubAsPusher, { matchContact: matchContactByEmail });
      expect(await expectAtHqOnce(hq, donor.id, gift.id, 'table 4')).toEqual(held);
      const links = await hubSide.remote.store.db
        .selectFrom('syncLinks')
        .select(['entityType', 'remoteId', 'source'])
        .where('accountId', '=', hub.accountId)
        .where('entityType', 'in', ['contact', 'donation'])
        .orderBy('entityType')
        .execute();
      // The donor's HQ copy carries the station's tag: it is this contact's, not a namesake's.
      expect(links).toEqual([
        { entityType: 'contact', remoteId: held.donorAtHq, source: 'found' },
        { entityType: 'donation', remoteId: held.giftAtHq, source: 'found' },
      ]);
    },
  );

  it('a gift without notes, and a contact whose tags are edited at the hub before it goes on, keep the station’s references', async () => {
    const [hubSide, hqSide] = [await startHub(), await startHqSide()];
    const [hub, hq] = [await accountAt(hubSide), await accountAt(hqSide)];
    const station = await startStation(hub);
    const { donor, gift } = await typeGift(station, null);
    await drain(station);

    // Someone at the hub replaces the contact's tags (its reference tag among them) before it goes to HQ.
    const hubDonor = (
      await hubSide.remote.store.db
        .selectFrom('contacts')
        .select('id')
        .where('accountId', '=', hub.accountId)
        .execute()
    )[0]!.id;
    const res = await rawRequest(
      `${hubSide.remote.url}/api/v1/contacts/${hubDonor}`,
      'PUT',
      { tags: ['volunteer', 'vip'] },
      { 'x-api-key': hub.keyId, authorization: `Bearer ${hub.secret}` },
    );
    expect(res.status).toBe(200);

    await drain(await hubPushesTo(hub, hq));
    const gifts = await hqDonations(hq);
    expect(gifts.map((g) => g.notes)).toEqual([`gd:${gift.id}`]);
    const contacts = await hqContacts(hq);
    expect(contacts.map((c) => c.refs)).toEqual([[`gd:${donor.id}`]]);
    const tags = (await getContact(hqSide.remote.ctx, hq.accountId, contacts[0]!.id)).tags;
    expect(tags).toEqual(['volunteer', 'vip', `gd:${donor.id}`]);
  });
});

describe('a gift corrected at the hub before it goes on', () => {
  it('goes under the station’s reference, put back last when the correction took it out of the notes', async () => {
    const [hubSide, hqSide] = [await startHub(), await startHqSide()];
    const [hub, hq] = [await accountAt(hubSide), await accountAt(hqSide)];
    const station = await startStation(hub);
    const { donor, gift } = await typeGift(station);
    await drain(station);
    const hubGift = (
      await hubSide.remote.store.db
        .selectFrom('donations')
        .select('id')
        .where('accountId', '=', hub.accountId)
        .executeTakeFirstOrThrow()
    ).id;
    const res = await rawRequest(
      `${hubSide.remote.url}/api/v1/donations/${hubGift}`,
      'PATCH',
      { notes: 'table 4, paid by check no. 1021' },
      { 'x-api-key': hub.keyId, authorization: `Bearer ${hub.secret}` },
    );
    expect(res.status).toBe(200);

    await drain(await hubPushesTo(hub, hq));
    const held = await expectAtHqOnce(hq, donor.id, gift.id, 'table 4, paid by check no. 1021');
    // The station, sending it straight to HQ, meets the same gift.
    await sendAllAgainTo(station, hq);
    await drain(station);
    expect(await remoteIdsOf(station, donor.id, gift.id)).toEqual(held);
    expect((await hqDonations(hq)).map((g) => g.id)).toEqual([held.giftAtHq]);
  });
});

describe('an unknown outcome at the hub → HQ hop', () => {
  const unknowns: Array<[string, FaultAction]> = [
    ['an answer dropped after HQ committed', { kind: 'dropAfterCommit' }],
    ['a 500 after HQ committed', { kind: 'respond', status: 500, forward: true }],
  ];

  it.each(unknowns)(
    'after %s, the hub finds the records at HQ by the station’s references; the station sending them again doubles nothing',
    async (_, action) => {
      const [hubSide, hqSide] = [await startHub(), await startHqSide()];
      const [hub, hq] = [await accountAt(hubSide), await accountAt(hqSide)];
      const station = await startStation(hub);
      const { donor, gift } = await typeGift(station);
      await drain(station);

      // Both creates at HQ commit, and the hub never hears it.
      let contactHits = 0;
      let giftHits = 0;
      hqSide.proxy.setRule((req): FaultAction => {
        if (req.method !== 'POST') return { kind: 'forward' };
        if (req.path.startsWith('/api/v1/contacts') && contactHits++ === 0) return action;
        if (req.path.startsWith('/api/v1/donations') && giftHits++ === 0) return action;
        return { kind: 'forward' };
      });
      const hubAsPusher = await hubPushesTo(hub, hq);
      await drain(hubAsPusher);
      expect([contactHits, giftHits]).toEqual([1, 1]); // found by reconcile: neither posted again
      const held = await expectAtHqOnce(hq, donor.id, gift.id, 'table 4');
      const links = await hubSide.remote.store.db
        .selectFrom('syncLinks')
        .select(['entityType', 'remoteId', 'source'])
        .where('accountId', '=', hub.accountId)
        .where('entityType', 'in', ['contact', 'donation'])
        .orderBy('entityType')
        .execute();
      expect(links).toEqual([
        { entityType: 'contact', remoteId: held.donorAtHq, source: 'found' },
        { entityType: 'donation', remoteId: held.giftAtHq, source: 'found' },
      ]);

      hqSide.proxy.setRule(forwardAll);
      await sendAllAgainTo(station, hq);
      await drain(station);
      expect(await expectAtHqOnce(hq, donor.id, gift.id, 'table 4')).toEqual(held);
      expect(await remoteIdsOf(station, donor.id, gift.id)).toEqual(held);
    },
  );
});

describe('twin gifts from two stations', () => {
  const unknowns: Array<[string, FaultAction]> = [
    ['a 503 that was never forwarded', { kind: 'respond', status: 503 }],
    ['an answer dropped after HQ committed', { kind: 'dropAfterCommit' }],
  ];

  it.each(unknowns)(
    'each reaches HQ once when the second one’s create at HQ meets %s, and again once when both stations send them straight to HQ',
    async (_, action) => {
      const [hubSide, hqSide] = [await startHub(), await startHqSide()];
      const [hub, hq] = [await accountAt(hubSide), await accountAt(hqSide)];
      const a = await startStation(hub);
      const b = await startStation(hub);
      const twin = (s: Pusher, contactId: string) =>
        createDonation(s.ctx, {
          accountId: s.accountId,
          contactId,
          donationAmount: 19.99,
          donationDate: '2026-11-27T19:42:00Z',
          paymentMethod: 'cash',
          campaignId: s.campaignId,
        });
      const donorA = await createContact(a.ctx, {
        accountId: a.accountId,
        firstName: 'Robert',
        lastName: 'Brown',
        primaryEmail: 'robert.brown@example.org',
      });
      const giftA = await twin(a, donorA.id);
      await drain(a);
      // Station B knows the donor from the hub (as its feed brings the event's donors) and takes the same gift.
      await pullAt(b, hub);
      const donorB = await b.store.db
        .selectFrom('contacts')
        .select('id')
        .where('accountId', '=', b.accountId)
        .executeTakeFirstOrThrow();
      const giftB = await twin(b, donorB.id);
      await drain(b);
      expect(
        await hubSide.remote.store.db
          .selectFrom('donations')
          .select('notes')
          .where('accountId', '=', hub.accountId)
          .orderBy('id')
          .execute(),
      ).toEqual([{ notes: `gd:${giftA.id}` }, { notes: `gd:${giftB.id}` }]);

      const faulted = faultFirstPost(hqSide, '/donations', `gd:${giftB.id}`, action);
      await drain(await hubPushesTo(hub, hq));
      expect(faulted()).toBeGreaterThanOrEqual(1);
      const twinsAtHq = async () => {
        const gifts = await hqDonations(hq);
        expect(gifts.map((g) => donationReferenceOf(g.notes)).sort()).toEqual(
          [`gd:${giftA.id}`, `gd:${giftB.id}`].sort(),
        );
        expect(gifts.map((g) => referencesIn(g.notes))).toEqual(gifts.map((g) => [g.notes!.slice(3)]));
        expect(new Set(gifts.map((g) => g.contactId)).size).toBe(1);
        expect(await hqContacts(hq)).toEqual([{ id: gifts[0]!.contactId, refs: [`gd:${donorA.id}`] }]);
        return gifts;
      };
      const held = await twinsAtHq();
      expect(await listAttention(hubSide.remote.store.db, hub.accountId)).toEqual([]);

      // The hub is lost: both stations send what they typed straight to HQ.
      hqSide.proxy.setRule(forwardAll);
      await sendAllAgainTo(a, hq);
      await sendAllAgainTo(b, hq);
      await pullAt(b, hq);
      await drain(a);
      await drain(b);
      expect(await twinsAtHq()).toEqual(held);
      const byRef = new Map(held.map((g) => [donationReferenceOf(g.notes), g.id]));
      expect(await remoteIdFor(a.store.db, 'donation', giftA.id)).toBe(byRef.get(`gd:${giftA.id}`));
      expect(await remoteIdFor(b.store.db, 'donation', giftB.id)).toBe(byRef.get(`gd:${giftB.id}`));
    },
  );
});

describe('a `gd:` reference a person types', () => {
  it('at the hub, pasted into a gift’s notes or a contact’s tags in the app’s window, is text: each record is its own, at the hub and at HQ', async () => {
    const [hubSide, hqSide] = [await startHub(), await startHqSide()];
    const [hub, hq] = [await accountAt(hubSide), await accountAt(hqSide)];
    const station = await startStation(hub);
    const { donor, gift } = await typeGift(station);
    await drain(station);

    const window = await createApiKey(hubSide.remote.ctx, hub.accountId, 'window', 'desktop');
    const asWindow = (path: string, body: unknown) =>
      rawRequest(`${hubSide.remote.url}/api/v1${path}`, 'POST', body, {
        'x-api-key': window.keyId,
        authorization: `Bearer ${window.secret}`,
      });
    const hubDonor = (
      await hubSide.remote.store.db
        .selectFrom('contacts')
        .select('id')
        .where('accountId', '=', hub.accountId)
        .executeTakeFirstOrThrow()
    ).id;
    const typedGift = await asWindow('/donations', {
      accountId: hub.accountId,
      contactId: hubDonor,
      donationAmount: 250,
      donationDate: '2026-11-27T19:42:00Z',
      paymentMethod: 'check',
      campaignId: hub.campaignId,
      notes: `table 4\ngd:${gift.id}`,
    });
    expect(typedGift.status).toBe(201);
    const typedContact = await asWindow('/contacts', {
      accountId: hub.accountId,
      firstName: 'Ana',
      lastName: 'Ruiz',
      tags: [`gd:${donor.id}`],
    });
    expect(typedContact.status).toBe(201);

    await drain(await hubPushesTo(hub, hq));
    const gifts = await hqDonations(hq);
    expect(gifts.map((g) => g.notes).sort()).toEqual(
      [`table 4\ngd:${gift.id}`, `table 4\ngd:${gift.id}\ngd:${typedGift.body.id}`].sort(),
    );
    const contacts = await hqContacts(hq);
    expect(contacts.map((c) => c.refs).sort()).toEqual(
      [[`gd:${donor.id}`], [`gd:${donor.id}`, `gd:${typedContact.body.id}`]].sort(),
    );
  });
});
