/**
 * One request per change: the email match answers from what this device knows of HQ's
 * contacts (the directory a pull leaves), and unknown creates are looked for all at once — one
 * sweep per entity type — instead of one search per record. Real HQ through the fault proxy;
 * every request counted where HQ receives it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { listAttention } from '../../electron/sync/status/attention.ts';
import { DIRECTORY_FRESH_MS, matchContactByEmail } from '../../electron/sync/push/email-match.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { pullFromHq } from '../../electron/sync/pull/pull.ts';
import { loadRemoteConfig } from '../../electron/sync/remote/settings.ts';
import { remoteIdFor } from '../../electron/sync/outbox/links.ts';
import { getItem } from '../../electron/sync/outbox/items.ts';
import { type FaultAction, forwardAll } from './fault-proxy.ts';
import { checkHqMatchesLocal, startRig, syncToCompletion, testKeys, type SyncRig } from './rig.ts';
import { passWhenDue } from './until-due.ts';

let rig: SyncRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function pull(r: SyncRig) {
  const cfg = (await loadRemoteConfig(r.local.store.db, testKeys, r.local.accountId))!;
  const run = await pullFromHq({
    ctx: r.local.ctx,
    remote: r.makeClient(cfg),
    accountId: r.local.accountId,
    remoteAccountId: r.hq.accountId,
    emailMatch: true,
  });
  expect(run.status).toBe('done');
}

const requestsSince = (r: SyncRig, from: number) =>
  r.proxy.records
    .slice(from)
    .map((x) => `${x.method} ${x.path.split('?')[0]!.replace(/\/(cnt|don)_\w+/, '/:id')}`);
const hqDonations = async (r: SyncRig) =>
  r.remote.store.db
    .selectFrom('donations')
    .select(['id', 'notes'])
    .where('accountId', '=', r.hq.accountId)
    .execute();

describe('the email match from the directory', () => {
  it('no faults, right after a pull: writes only, not one read — and a donor HQ has (pulled here) is still created anew for a new local contact', async () => {
    rig = await startRig();
    const { local } = rig;
    const staffJose = await createContact(rig.remote.ctx, {
      accountId: rig.hq.accountId,
      firstName: 'José',
      lastName: 'Núñez',
      primaryEmail: 'jose.nunez@example.org',
    });
    await pull(rig);
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      matchContact: matchContactByEmail,
      random: () => 0,
    });
    try {
      const from = rig.proxy.records.length;
      const { ctx, accountId, campaignId } = local;
      // Three Robert Browns, one household email shared by two; Jose typed without accents; a twin gift.
      const people = [
        { firstName: 'Robert', lastName: 'Brown', primaryEmail: 'rbrown@example.org' },
        { firstName: 'Robert', lastName: 'Brown', primaryEmail: 'browns@example.org' },
        { firstName: 'Robert', lastName: 'Brown' },
        { firstName: 'Jose', lastName: 'Nunez', primaryEmail: 'Jose.Nunez@example.org' },
      ];
      for (const p of people) {
        const c = await createContact(ctx, { accountId, ...p });
        await createDonation(ctx, {
          accountId,
          contactId: c.id,
          donationAmount: 19.99,
          donationDate: '2026-11-24T19:42:00Z',
          paymentMethod: 'cash',
          campaignId,
        });
        await createDonation(ctx, {
          accountId,
          contactId: c.id,
          donationAmount: 19.99,
          donationDate: '2026-11-24T19:42:00Z',
          paymentMethod: 'cash',
          campaignId,
        });
      }
      await syncToCompletion(engine, rig);
      const sent = requestsSince(rig, from);
      expect(sent.filter((x) => x.startsWith('GET'))).toEqual([]);
      expect(sent).toHaveLength(people.length * 3); // a POST per contact and per gift
      // The pulled José is linked to his local copy: the new Jose is another local contact, created at HQ.
      const joses = await rig.remote.store.db
        .selectFrom('contacts')
        .select(['id', 'email'])
        .where('accountId', '=', rig.hq.accountId)
        .where('lastName', 'in', ['Núñez', 'Nunez'])
        .execute();
      expect(joses.map((j) => j.id)).toContain(staffJose.id);
      expect(joses).toHaveLength(2);
      expect(await hqDonations(rig)).toHaveLength(people.length * 2);
    } finally {
      await engine.stop();
    }
  });

  it('a contact HQ got after the pull is found by one delta read once the directory is older than the freshness window, shared by the whole pass', async () => {
    rig = await startRig();
    const { local } = rig;
    await pull(rig);
    const staff = await createContact(rig.remote.ctx, {
      accountId: rig.hq.accountId,
      firstName: 'Zoë',
      lastName: 'Ramírez',
      primaryEmail: 'zoe@example.org',
    });
    // The laptop's clock has moved past the window since the pull.
    const later = () => Date.now() + DIRECTORY_FRESH_MS + 60_000;
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      matchContact: matchContactByEmail,
      random: () => 0,
      clock: later,
    });
    try {
      const zoe = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Zoe',
        lastName: 'Ramirez',
        primaryEmail: ' ZOE@example.org ',
      });
      const other = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Ann',
        lastName: 'Other',
        primaryEmail: 'ann@example.org',
      });
      const from = rig.proxy.records.length;
      await engine.runPass({ accountId: local.accountId });
      expect(requestsSince(rig, from).sort()).toEqual([
        'GET /api/v1/contacts',
        'GET /api/v1/contacts/:id',
        'POST /api/v1/contacts',
      ]); // the delta, the matched contact's tags, Ann's create
      expect(await remoteIdFor(local.store.db, 'contact', zoe.id)).toBe(staff.id);
      expect(await remoteIdFor(local.store.db, 'contact', other.id)).toMatch(/^cnt_/);
      const link = await local.store.db
        .selectFrom('syncLinks')
        .select('source')
        .where('localId', '=', zoe.id)
        .executeTakeFirstOrThrow();
      expect(link.source).toBe('email');
    } finally {
      await engine.stop();
    }
  });

  it('a donor entered here before the pull, whom HQ already has, is linked without a search or a create (one read of her tags): the pull left her for the push, and the directory lists her', async () => {
    rig = await startRig();
    const { local } = rig;
    const staff = await createContact(rig.remote.ctx, {
      accountId: rig.hq.accountId,
      firstName: 'Renée',
      lastName: 'Dubois',
      primaryEmail: 'renee@example.org',
    });
    const here = await createContact(local.ctx, {
      accountId: local.accountId,
      firstName: 'Renee',
      lastName: 'Dubois',
      primaryEmail: 'Renee@Example.org',
    });
    await pull(rig); // not copied: it looks like the contact entered here, whose create is not confirmed
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      matchContact: matchContactByEmail,
      random: () => 0,
    });
    try {
      const from = rig.proxy.records.length;
      await engine.runPass({ accountId: local.accountId });
      expect(requestsSince(rig, from).filter((x) => x.startsWith('GET') || x.startsWith('POST'))).toEqual([
        'GET /api/v1/contacts/:id',
      ]); // her tags: no other contact of this laptop's
      expect(await remoteIdFor(local.store.db, 'contact', here.id)).toBe(staff.id);
      const renees = await rig.remote.store.db
        .selectFrom('contacts')
        .select('id')
        .where('accountId', '=', rig.hq.accountId)
        .where('lastName', '=', 'Dubois')
        .execute();
      expect(renees).toHaveLength(1);
    } finally {
      await engine.stop();
    }
  });

  it('never pulled: the email is searched at HQ, the match read for its tags, and linked', async () => {
    rig = await startRig();
    const { local } = rig;
    const staff = await createContact(rig.remote.ctx, {
      accountId: rig.hq.accountId,
      firstName: 'Grace',
      lastName: 'Hopper',
      primaryEmail: 'grace@navy.example',
    });
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      matchContact: matchContactByEmail,
      random: () => 0,
    });
    try {
      const grace = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Grace',
        lastName: 'Hopper',
        primaryEmail: 'Grace@Navy.example',
      });
      const from = rig.proxy.records.length;
      await engine.runPass({ accountId: local.accountId });
      expect(requestsSince(rig, from)).toEqual(['GET /api/v1/contacts', 'GET /api/v1/contacts/:id']);
      expect(await remoteIdFor(local.store.db, 'contact', grace.id)).toBe(staff.id);
    } finally {
      await engine.stop();
    }
  });

  it('a delta read that fails never leads to a create: the contact backs off', async () => {
    rig = await startRig();
    const { local } = rig;
    await pull(rig);
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      matchContact: matchContactByEmail,
      random: () => 0,
      clock: () => Date.now() + DIRECTORY_FRESH_MS + 60_000,
    });
    try {
      const c = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Ada',
        lastName: 'Byron',
        primaryEmail: 'ada@example.org',
      });
      rig.proxy.setRule((r): FaultAction =>
        r.method === 'GET' ? { kind: 'respond', status: 503 } : { kind: 'forward' },
      );
      const from = rig.proxy.records.length;
      await engine.runPass({ accountId: local.accountId });
      expect(requestsSince(rig, from).filter((x) => x.startsWith('POST'))).toEqual([]);
      expect(await remoteIdFor(local.store.db, 'contact', c.id)).toBeNull();
      expect((await getItem(local.store.db, 'contact', c.id))?.nextTryAt).not.toBeNull();
    } finally {
      await engine.stop();
    }
  });
});

describe('unknown creates reconciled in one sweep', () => {
  const actions: FaultAction[] = [
    { kind: 'dropAfterCommit' }, // at HQ, the answer lost
    { kind: 'respond', status: 503, forward: true }, // at HQ, looks failed
    { kind: 'resetBeforeForward' }, // not at HQ
    { kind: 'respond', status: 500 }, // not at HQ
  ];

  it('gifts (twins among them): one page of the date window for all of them, each posted or linked once', async () => {
    rig = await startRig();
    const { local } = rig;
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0,
    });
    try {
      const { ctx, accountId, campaignId } = local;
      const donor = await createContact(ctx, { accountId, firstName: 'Robert', lastName: 'Brown' });
      const gifts = [];
      for (let i = 0; i < 12; i++) {
        // Six identical $19.99 cash twins in the same minute, six others.
        const twin = i % 2 === 0;
        gifts.push(
          await createDonation(ctx, {
            accountId,
            contactId: donor.id,
            donationAmount: twin ? 19.99 : 20 + i,
            donationDate: twin ? '2026-11-24T19:42:00Z' : `2026-11-2${3 + (i % 3)}T18:00:00Z`,
            paymentMethod: 'cash',
            campaignId,
          }),
        );
      }
      const faulted = new Map(gifts.slice(0, 8).map((g, i) => [g.id, actions[i % actions.length]!]));
      rig.proxy.setRule((r): FaultAction => {
        for (const [id, a] of faulted) {
          if (r.method === 'POST' && r.body.includes(`gd:${id}`)) {
            faulted.delete(id);
            return a;
          }
        }
        return { kind: 'forward' };
      });
      // Every POST once (a lane waits after a failure: a pass each), well within the requests'
      // deadline: none is looked for before all eight are unknown.
      while (faulted.size > 0) await engine.runPass({ accountId });
      const unknown = await local.store.db
        .selectFrom('syncItems')
        .select('entityId')
        .where('state', '=', 'unknown')
        .execute();
      expect(unknown).toHaveLength(8);
      const from = rig.proxy.records.length;
      await syncToCompletion(engine, rig);
      const after = requestsSince(rig, from);
      expect(after.filter((x) => x.startsWith('GET'))).toEqual(['GET /api/v1/donations']); // one page: the merged windows of all eight
      // Twelve gifts, and the four that never reached HQ once more each.
      expect(requestsSince(rig, 0).filter((x) => x === 'POST /api/v1/donations')).toHaveLength(16);
      expect(await listAttention(local.store.db, accountId)).toEqual([]);
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 12 });
      const linked = await Promise.all(gifts.map((g) => remoteIdFor(local.store.db, 'donation', g.id)));
      expect(new Set(linked).size).toBe(12);
    } finally {
      await engine.stop();
    }
  });

  it('contacts (namesakes among them): one page of HQ contacts, and a read only of those that reached HQ', async () => {
    rig = await startRig();
    const { local } = rig;
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0,
    });
    try {
      const { ctx, accountId } = local;
      const ids: string[] = [];
      for (let i = 0; i < 10; i++)
        ids.push(
          (
            await createContact(ctx, {
              accountId,
              firstName: 'Robert',
              lastName: i < 3 ? 'Brown' : `Guest${i}`,
            })
          ).id,
        );
      const faulted = new Map(ids.slice(0, 8).map((id, i) => [id, actions[i % actions.length]!]));
      rig.proxy.setRule((r): FaultAction => {
        for (const [id, a] of faulted) {
          if (r.method === 'POST' && r.body.includes(`gd:${id}`)) {
            faulted.delete(id);
            return a;
          }
        }
        return { kind: 'forward' };
      });
      while (faulted.size > 0) await engine.runPass({ accountId });
      const from = rig.proxy.records.length;
      await syncToCompletion(engine, rig);
      const after = requestsSince(rig, from);
      expect(after.filter((x) => x === 'GET /api/v1/contacts')).toHaveLength(1);
      expect(after.filter((x) => x === 'GET /api/v1/contacts/:id')).toHaveLength(4); // the four at HQ, to see their tags
      expect(after.filter((x) => x === 'POST /api/v1/contacts')).toHaveLength(4);
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 10, donations: 0 });
    } finally {
      await engine.stop();
    }
  });

  it("a create whose answer was lost is not looked for until its request's deadline has passed (it may still land until then)", async () => {
    rig = await startRig(); // the engine's client: a 1.5-s deadline
    const { local } = rig;
    // The engine's clock moves only when the test moves it: "at once" is at once, however
    // slow the machine (the HTTP deadline itself stays real).
    let now = Date.now();
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0,
      clock: () => now,
    });
    try {
      const c = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Hal',
        lastName: 'Latecomer',
      });
      let dropped = false;
      rig.proxy.setRule((r): FaultAction => {
        if (dropped || r.method !== 'POST') return { kind: 'forward' };
        dropped = true;
        return { kind: 'dropAfterCommit' };
      });
      const passStarted = now;
      await engine.runPass({ accountId: local.accountId });
      const from = rig.proxy.records.length;
      await engine.runPass({ accountId: local.accountId }); // at once: too early to look
      expect(requestsSince(rig, from)).toEqual([]);
      expect((await getItem(local.store.db, 'contact', c.id))?.state).toBe('unknown');
      // The look is set for once the request's deadline (1.5 s) has passed.
      const due = (await engine.nextRetryAt())!;
      expect(due).toBeGreaterThanOrEqual(passStarted + 1500);
      now = due;
      await engine.runPass({ accountId: local.accountId });
      expect(requestsSince(rig, from)).toEqual(['GET /api/v1/contacts', 'GET /api/v1/contacts/:id']);
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 0 });
    } finally {
      await engine.stop();
    }
  });

  it('a sweep read that fails leaves every record of it unknown (none found under a made-up id); later each reaches HQ once', async () => {
    rig = await startRig();
    const { local } = rig;
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0,
    });
    try {
      const { ctx, accountId, campaignId } = local;
      const donor = await createContact(ctx, { accountId, firstName: 'Ada', lastName: 'Lovelace' });
      const gifts = [];
      for (let i = 0; i < 3; i++)
        gifts.push(
          await createDonation(ctx, {
            accountId,
            contactId: donor.id,
            donationAmount: 19.99,
            donationDate: '2026-11-24T19:42:00Z',
            paymentMethod: 'cash',
            campaignId,
          }),
        );
      let dropped = 0;
      rig.proxy.setRule((r): FaultAction => {
        if (r.method !== 'POST' || !r.path.startsWith('/api/v1/donations')) return { kind: 'forward' };
        dropped++;
        return { kind: 'dropAfterCommit' };
      });
      while (dropped < 3) await engine.runPass({ accountId });
      rig.proxy.setRule((r): FaultAction =>
        r.method === 'GET' ? { kind: 'respond', status: 503 } : { kind: 'forward' },
      );
      await passWhenDue(engine, accountId);
      for (const g of gifts) {
        const item = await getItem(local.store.db, 'donation', g.id);
        expect(item?.state).toBe('unknown');
        expect(await remoteIdFor(local.store.db, 'donation', g.id)).toBeNull();
      }
      rig.proxy.setRule(forwardAll);
      await syncToCompletion(engine, rig);
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 3 });
    } finally {
      await engine.stop();
    }
  });
});
