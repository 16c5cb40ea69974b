/**
 * HQ commits a create after the client's deadline: the one doubling the engine alone cannot
 * prevent (docs/design.md, "Why it is exactly once"). The first create of a record is held in
 * a real proxy on 127.0.0.1 past the engine's 300-ms deadline, so the engine records it
 * unknown, looks for it at HQ once the deadline has passed, finds nothing and posts again; only
 * after that re-post has committed at HQ does the proxy let the first create through. GiftDesk
 * HQ (the real server, on PostgreSQL with GIFTDESK_TEST_ENGINE=postgres) answers that late
 * create with the record its reference already names, so the record is at HQ once, and the
 * local record is linked to it. The order is made by the proxy, not by timing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createContact,
  deleteContact,
  getContact,
  updateContact,
} from '../../electron/domain/contacts/index.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { remoteIdFor } from '../../electron/sync/outbox/links.ts';
import type { FaultAction } from './fault-proxy.ts';
import {
  checkHqMatchesLocal,
  startHq,
  startRig,
  syncToCompletion,
  testKeys,
  type HqSide,
  type SyncRig,
} from './rig.ts';

/** The engine's request deadline here; the first create is held until well past it. */
const DEADLINE_MS = 300;
/** Never hold for ever: past this the held create goes through anyway (and the test judges what happened). */
const HOLD_CAP_MS = 20_000;

let rig: SyncRig | undefined;
let hqSide: HqSide | undefined;
afterEach(async () => {
  await rig?.close();
  await hqSide?.close();
  rig = undefined;
  hqSide = undefined;
});

interface Held {
  /** Resolves with HQ's status for the held (first) create once HQ has answered it. */
  landed: Promise<number>;
  /** Whether the re-post had committed at HQ before the held create was let through. */
  repostFirst(): boolean;
}

/**
 * Holds the first POST carrying `gd:<ref>` until the next POST carrying it (the engine's
 * re-post) has been answered by HQ, then forwards it; everything else goes straight through.
 */
function holdFirstCreate(r: SyncRig, ref: string): Held {
  const marker = `gd:${ref}`;
  let seen = 0;
  let repostCommitted = false;
  let releaseHold!: () => void;
  const hold = new Promise<void>((resolve) => (releaseHold = resolve));
  let landed!: (status: number) => void;
  const landedP = new Promise<number>((resolve) => (landed = resolve));
  r.proxy.setRule(async (req): Promise<FaultAction> => {
    if (req.method !== 'POST' || !req.body.includes(marker)) return { kind: 'forward' };
    seen++;
    if (seen === 1) {
      const cap = new Promise<void>((resolve) => setTimeout(resolve, HOLD_CAP_MS).unref());
      await Promise.race([hold, cap]);
      return {
        kind: 'forward',
        beforeAnswer: () => {
          const rec = r.proxy.records.find((x) => x.method === 'POST' && x.body.includes(marker));
          landed(rec?.upstreamStatus ?? 0);
        },
      };
    }
    return {
      kind: 'forward',
      beforeAnswer: () => {
        repostCommitted = true;
        releaseHold();
      },
    };
  });
  return { landed: landedP, repostFirst: () => repostCommitted };
}

/**
 * Holds the first POST carrying `gd:<ref>` (running `meanwhile` first: a local edit) until the
 * engine's re-post reaches the proxy; then lets the first one reach HQ and commit, and only
 * after HQ has answered it forwards the re-post — which HQ answers with the record the first
 * one created (200), not with what the re-post carried.
 */
function landFirstJustBeforeRepost(r: SyncRig, ref: string, meanwhile: () => Promise<void>): Held {
  const marker = `gd:${ref}`;
  let seen = 0;
  let repostStatus = 0;
  let releaseHold!: () => void;
  const hold = new Promise<void>((resolve) => (releaseHold = resolve));
  let firstLanded!: () => void;
  const firstLandedP = new Promise<void>((resolve) => (firstLanded = resolve));
  let landed!: (status: number) => void;
  const landedP = new Promise<number>((resolve) => (landed = resolve));
  r.proxy.setRule(async (req): Promise<FaultAction> => {
    if (req.method !== 'POST' || !req.body.includes(marker)) return { kind: 'forward' };
    seen++;
    if (seen === 1) {
      await meanwhile();
      const cap = new Promise<void>((resolve) => setTimeout(resolve, HOLD_CAP_MS).unref());
      await Promise.race([hold, cap]);
      return { kind: 'forward', beforeAnswer: () => firstLanded() };
    }
    releaseHold();
    await firstLandedP;
    return {
      kind: 'forward',
      beforeAnswer: () => {
        const recs = r.proxy.records.filter((x) => x.method === 'POST' && x.body.includes(marker));
        repostStatus = recs.at(-1)?.upstreamStatus ?? 0;
        landed(repostStatus);
      },
    };
  });
  return { landed: landedP, repostFirst: () => seen >= 2 };
}

/**
 * As landFirstJustBeforeRepost, but HQ's answer to the re-post (200: the record the first
 * create made) never reaches the engine: the connection drops after HQ has answered, so the
 * re-post is unknown too and is looked for at HQ.
 */
function landFirstThenLoseRepostAnswer(r: SyncRig, ref: string, meanwhile: () => Promise<void>): Held {
  const marker = `gd:${ref}`;
  let seen = 0;
  let releaseHold!: () => void;
  const hold = new Promise<void>((resolve) => (releaseHold = resolve));
  let firstLanded!: () => void;
  const firstLandedP = new Promise<void>((resolve) => (firstLanded = resolve));
  let landed!: (status: number) => void;
  const landedP = new Promise<number>((resolve) => (landed = resolve));
  r.proxy.setRule(async (req): Promise<FaultAction> => {
    if (req.method !== 'POST' || !req.body.includes(marker)) return { kind: 'forward' };
    seen++;
    if (seen === 1) {
      await meanwhile();
      const cap = new Promise<void>((resolve) => setTimeout(resolve, HOLD_CAP_MS).unref());
      await Promise.race([hold, cap]);
      return { kind: 'forward', beforeAnswer: () => firstLanded() };
    }
    if (seen === 2) {
      releaseHold();
      await firstLandedP;
      landed(200);
      return { kind: 'dropAfterCommit' };
    }
    return { kind: 'forward' };
  });
  return { landed: landedP, repostFirst: () => seen >= 2 };
}

/**
 * Holds the first POST carrying `gd:<ref>` and, as it arrives, runs `meanwhile` (the contact
 * deleted here: a volunteer's undo while the create is on the wire). The create stays held until
 * the engine, having looked for it in vain, has taken the delete as done — with a GiftDesk HQ,
 * once HQ has answered the engine's `DELETE /contacts/gd:<ref>`; with HQ of the donor API alone
 * (where nothing is sent), once the engine has nothing left to send — and only then reaches HQ.
 */
function landAfterDelete(
  r: SyncRig,
  ref: string,
  meanwhile: () => Promise<void>,
): Held & { settled(): void } {
  const marker = `gd:${ref}`;
  let seen = 0;
  let retired = false;
  let releaseHold!: () => void;
  const hold = new Promise<void>((resolve) => (releaseHold = resolve));
  let landed!: (status: number) => void;
  const landedP = new Promise<number>((resolve) => (landed = resolve));
  r.proxy.setRule(async (req): Promise<FaultAction> => {
    if (req.method === 'DELETE' && decodeURIComponent(req.path).includes(marker))
      return {
        kind: 'forward',
        beforeAnswer: () => {
          retired = true;
          releaseHold();
        },
      };
    if (req.method !== 'POST' || !req.body.includes(marker)) return { kind: 'forward' };
    seen++;
    if (seen > 1) return { kind: 'forward' };
    await meanwhile();
    const cap = new Promise<void>((resolve) => setTimeout(resolve, HOLD_CAP_MS).unref());
    await Promise.race([hold, cap]);
    return {
      kind: 'forward',
      beforeAnswer: () => {
        const rec = r.proxy.records.filter((x) => x.method === 'POST' && x.body.includes(marker)).at(-1);
        landed(rec?.upstreamStatus ?? 0);
      },
    };
  });
  return { landed: landedP, repostFirst: () => retired || r.remote.specOnly, settled: releaseHold };
}

async function run(r: SyncRig, held: Held) {
  const engine = createSyncEngine({
    store: r.local.store,
    keys: testKeys,
    makeClient: r.makeClient,
    random: () => 0,
  });
  try {
    // The hold is the only fault, and it must stay on: syncToCompletion switches the proxy to
    // plain forwarding once `faultyPasses` are done.
    await syncToCompletion(engine, r, { faultyPasses: 200 });
    const status = await held.landed; // the late create has reached HQ and been answered
    expect(held.repostFirst(), 'the first create was let through only after the re-post committed').toBe(
      true,
    );
    // Another pass: nothing left to send, and nothing the late create could have stirred.
    await engine.runPass({ accountId: r.local.accountId });
    return status;
  } finally {
    await engine.stop();
  }
}

/** HQ's gifts carrying this local gift's reference. */
async function hqGiftsOf(r: SyncRig, localId: string) {
  const all = await r.remote.store.db
    .selectFrom('donations')
    .select(['id', 'notes'])
    .where('accountId', '=', r.hq.accountId)
    .execute();
  return all.filter((d) => (d.notes ?? '').split('\n').includes(`gd:${localId}`)).map((d) => d.id);
}

const gala = { donationDate: '2026-11-24T19:42:00Z', paymentMethod: 'cash' as const, donationAmount: 19.99 };

describe('a create HQ commits after the client gave up on it', () => {
  it('a gift: at HQ once, the late create answered with it, the local gift linked to it', async () => {
    rig = await startRig({ timeoutMs: DEADLINE_MS });
    const { ctx, accountId, campaignId } = rig.local;
    const donor = await createContact(ctx, { accountId, firstName: 'Robert', lastName: 'Brown' });
    const gift = await createDonation(ctx, {
      accountId,
      contactId: donor.id,
      campaignId,
      ...gala,
      notes: 'table 4',
    });
    const held = holdFirstCreate(rig, gift.id);
    const status = await run(rig, held);
    expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 1 });
    expect(status).toBe(200); // HQ answered the late create with the gift it had: nothing written
    const atHq = await hqGiftsOf(rig, gift.id);
    expect(atHq).toHaveLength(1);
    expect(await remoteIdFor(rig.local.store.db, 'donation', gift.id)).toBe(atHq[0]);
  });

  it('a contact (with its gift): at HQ once, linked, the gift on it', async () => {
    rig = await startRig({ timeoutMs: DEADLINE_MS });
    const { ctx, accountId, campaignId } = rig.local;
    const donor = await createContact(ctx, {
      accountId,
      firstName: 'Zoe',
      lastName: 'Nunez',
      primaryEmail: 'zoe.nunez@example.org',
      tags: ['gala 2026'],
    });
    const gift = await createDonation(ctx, { accountId, contactId: donor.id, campaignId, ...gala });
    const held = holdFirstCreate(rig, donor.id);
    const status = await run(rig, held);
    expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 1 });
    expect(status).toBe(200);
    const hqContacts = await rig.remote.store.db
      .selectFrom('contacts')
      .select('id')
      .where('accountId', '=', rig.hq.accountId)
      .execute();
    expect(hqContacts).toHaveLength(1);
    expect(await remoteIdFor(rig.local.store.db, 'contact', donor.id)).toBe(hqContacts[0]!.id);
    expect(await hqGiftsOf(rig, gift.id)).toHaveLength(1);
  });

  it('twins (same donor, $19.99 cash, same minute), the first one late: both at HQ, once each', async () => {
    rig = await startRig({ timeoutMs: DEADLINE_MS });
    const { ctx, accountId, campaignId } = rig.local;
    const donor = await createContact(ctx, { accountId, firstName: 'Robert', lastName: 'Brown' });
    const first = await createDonation(ctx, { accountId, contactId: donor.id, campaignId, ...gala });
    const second = await createDonation(ctx, { accountId, contactId: donor.id, campaignId, ...gala });
    const held = holdFirstCreate(rig, first.id);
    const status = await run(rig, held);
    expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 2 });
    expect(status).toBe(200);
    const [a, b] = [await hqGiftsOf(rig, first.id), await hqGiftsOf(rig, second.id)];
    expect([a.length, b.length]).toEqual([1, 1]);
    expect(await remoteIdFor(rig.local.store.db, 'donation', first.id)).toBe(a[0]);
    expect(await remoteIdFor(rig.local.store.db, 'donation', second.id)).toBe(b[0]);
  });

  it('a contact edited while its create was lost, the late create landing just before the re-post: the edit still reaches HQ', async () => {
    rig = await startRig({ timeoutMs: DEADLINE_MS });
    const { ctx, accountId } = rig.local;
    const donor = await createContact(ctx, {
      accountId,
      firstName: 'Jose',
      lastName: 'Nunez',
      primaryEmail: 'jose.nunez@example.org',
    });
    // The volunteer fixes the accents and adds the employer while the first create is on the wire.
    const held = landFirstJustBeforeRepost(rig, donor.id, async () => {
      await updateContact(ctx, accountId, donor.id, {
        firstName: 'José',
        lastName: 'Núñez',
        employer: 'Acme',
      });
    });
    const status = await run(rig, held);
    expect(status).toBe(200); // the re-post was answered with the record the late create made
    expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 0 });
    const hqId = await remoteIdFor(rig.local.store.db, 'contact', donor.id);
    const atHq = await getContact(rig.remote.ctx, rig.hq.accountId, hqId!);
    expect([atHq.firstName, atHq.lastName, atHq.employer]).toEqual(['José', 'Núñez', 'Acme']);
  });

  it("the same, and the re-post's answer lost too: found at HQ by its reference, the edit still reaches HQ", async () => {
    rig = await startRig({ timeoutMs: DEADLINE_MS });
    const { ctx, accountId } = rig.local;
    const donor = await createContact(ctx, {
      accountId,
      firstName: 'Jose',
      lastName: 'Nunez',
      primaryEmail: 'jose.nunez@example.org',
    });
    const held = landFirstThenLoseRepostAnswer(rig, donor.id, async () => {
      await updateContact(ctx, accountId, donor.id, {
        firstName: 'José',
        lastName: 'Núñez',
        employer: 'Acme',
        tags: ['donor', 'vip'],
      });
    });
    await run(rig, held);
    expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 0 });
    const hqId = await remoteIdFor(rig.local.store.db, 'contact', donor.id);
    const atHq = await getContact(rig.remote.ctx, rig.hq.accountId, hqId!);
    expect([atHq.firstName, atHq.lastName, atHq.employer]).toEqual(['José', 'Núñez', 'Acme']);
  });

  it.each([
    ['GiftDesk as HQ', false],
    ['the donor API alone', true],
  ])(
    'a contact deleted here while its create was on the wire, the create landing after the look found nothing (%s)',
    async (_name, specOnly) => {
      hqSide = await startHq({ specOnly });
      rig = await startRig({ timeoutMs: DEADLINE_MS, hqSide });
      const r = rig;
      const { ctx, accountId } = r.local;
      const donor = await createContact(ctx, {
        accountId,
        firstName: 'Łukasz',
        lastName: 'Żółć',
        primaryEmail: 'lukasz.zolc@example.org',
      });
      const held = landAfterDelete(r, donor.id, () =>
        deleteContact(ctx, accountId, donor.id).then(() => undefined),
      );
      const engine = createSyncEngine({
        store: r.local.store,
        keys: testKeys,
        makeClient: r.makeClient,
        random: () => 0,
      });
      try {
        await syncToCompletion(engine, r, { faultyPasses: 200 });
        held.settled(); // the engine is done with it: the held create goes on now, whatever HQ it is
        const status = await held.landed;
        await engine.runPass({ accountId });
        const atHq = await r.remote.store.db
          .selectFrom('contacts')
          .select('id')
          .where('accountId', '=', r.hq.accountId)
          .execute();
        if (r.remote.specOnly) {
          // The donor API alone cannot be told: the late create lands (an extra record, never a loss).
          expect(status).toBe(201);
          expect(atHq).toHaveLength(1);
        } else {
          expect(atHq).toHaveLength(0);
          expect(await checkHqMatchesLocal(r)).toEqual({ contacts: 0, donations: 0 });
        }
      } finally {
        await engine.stop();
      }
    },
  );

  it("HQ's key may not delete contacts (a volunteer's): the retirement refused, the delete is done and the pass goes on", async () => {
    rig = await startRig({ timeoutMs: DEADLINE_MS });
    const r = rig;
    const { ctx, accountId, campaignId } = r.local;
    await r.remote.store.db
      .updateTable('apiKeys')
      .set({ role: 'volunteer' })
      .where('id', '=', r.hq.keyId)
      .execute();
    const donor = await createContact(ctx, { accountId, firstName: 'Lukasz', lastName: 'Zolc' });
    const other = await createContact(ctx, { accountId, firstName: 'Robert', lastName: 'Brown' });
    const gift = await createDonation(ctx, { accountId, contactId: other.id, campaignId, ...gala });
    const held = landAfterDelete(r, donor.id, () =>
      deleteContact(ctx, accountId, donor.id).then(() => undefined),
    );
    const engine = createSyncEngine({
      store: r.local.store,
      keys: testKeys,
      makeClient: r.makeClient,
      random: () => 0,
    });
    try {
      await syncToCompletion(engine, r, { faultyPasses: 200 });
      const refused = r.proxy.records.filter(
        (x) => x.method === 'DELETE' && decodeURIComponent(x.path).includes(`gd:${donor.id}`),
      );
      expect(refused.map((x) => x.upstreamStatus)).toEqual([403]);
      held.settled();
      expect(await held.landed).toBe(201); // nothing retired: the late create lands, as with the donor API alone
      // Robert Brown and his $19.99 went on all the same.
      expect(await hqGiftsOf(r, gift.id)).toHaveLength(1);
      expect(await remoteIdFor(r.local.store.db, 'contact', other.id)).not.toBeNull();
    } finally {
      await engine.stop();
    }
  });
});
