/**
 * A station's gift voided or corrected at once, before its create left (the hub still "local"
 * for it, so the station changed its own copy), whose create then reached the hub with the
 * change in it and had its answer lost (the hub or the station killed just after the commit).
 * The engine's next create is answered 200 with the hub's gift (or it finds the gift by its
 * reference), links it, and lets the change go again (the copy at the hub may be an earlier
 * attempt's). The hub is GiftDesk: the change goes by
 * its routes — a void as POST /donations/{id}/void ("voided already" is done), a correction as
 * PATCH /donations/{id}. Before, it was parked as "HQ's API cannot change a gift" and the
 * station showed a "needs attention" item the hub never had (the convergence soak, seed 200).
 *
 * The engine here talks to a GiftDesk server as its hub (the remote's kind is `hub`), through
 * the fault proxy, which drops the answer to the gift's create after the commit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createDonation } from '../../electron/domain/donations/create.ts';
import { correctDonation, voidDonation } from '../../electron/domain/donations/corrections.ts';
import { getDonation } from '../../electron/domain/donations/index.ts';
import { logChange } from '../../electron/domain/change-log.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { remoteIdFor } from '../../electron/sync/outbox/links.ts';
import type { FaultRule } from './fault-proxy.ts';
import { type HqSide, startHq, startRig, syncToCompletion, testKeys, type SyncRig } from './rig.ts';

let rig: SyncRig | undefined;
let hubSide: HqSide | undefined;
afterEach(async () => {
  await rig?.close();
  await hubSide?.close();
  rig = undefined;
  hubSide = undefined;
});

/** A station's rig: its remote is its hub; the first gift create's answer is lost after the commit. */
async function stationRig(): Promise<{ r: SyncRig; dropped: () => number; rule: FaultRule }> {
  // The hub: GiftDesk with the event hub's routes and its gate on stations' keys (never spec-only).
  hubSide = await startHq({ hub: true, specOnly: false, synchronous: 'NORMAL' });
  rig = await startRig({ hqSide: hubSide, timeoutMs: 2000 });
  const r = rig;
  await r.local.store.write((trx) =>
    trx.updateTable('syncRemotes').set({ kind: 'hub' }).where('accountId', '=', r.local.accountId).execute(),
  );
  // The rig's key at the remote is a station's key there (the hub takes `enteredAt` only from one).
  const at = new Date().toISOString();
  await r.remote.ctx.store.write((trx) =>
    trx
      .insertInto('hubStations')
      .values({
        id: 'stn_B',
        accountId: r.hq.accountId,
        name: 'Table B',
        apiKeyId: r.hq.keyId,
        createdAt: at,
        confirmed: 1,
      })
      .execute(),
  );
  let dropped = 0;
  const rule: FaultRule = (req) =>
    req.method === 'POST' && req.path.startsWith('/api/v1/donations') && dropped++ === 0
      ? { kind: 'dropAfterCommit' }
      : { kind: 'forward' };
  r.proxy.setRule(rule);
  return { r, dropped: () => dropped, rule };
}

/** Tom Twin's $19.99 cash gift, typed at the station. */
async function typedGift(r: SyncRig): Promise<string> {
  const donor = await createContact(r.local.ctx, {
    accountId: r.local.accountId,
    firstName: 'Tom',
    lastName: 'Twin',
    primaryEmail: 'tom.twin@example.org',
  });
  const gift = await createDonation(r.local.ctx, {
    accountId: r.local.accountId,
    contactId: donor.id,
    donationAmount: 19.99,
    donationDate: '2026-11-27',
    paymentMethod: 'cash',
    campaignId: r.local.campaignId,
  });
  return gift.id;
}

async function pushAll(r: SyncRig, rule: FaultRule): Promise<void> {
  const engine = createSyncEngine({
    store: r.local.store,
    keys: testKeys,
    makeClient: r.makeClient,
    random: () => 0,
  });
  try {
    await syncToCompletion(engine, r, { faultyPasses: 1, afterFaults: rule });
  } finally {
    await engine.stop();
  }
}

async function parked(r: SyncRig): Promise<Array<{ entityId: string; attentionCode: string | null }>> {
  return r.local.store.db
    .selectFrom('syncItems')
    .select(['entityId', 'attentionCode'])
    .where('accountId', '=', r.local.accountId)
    .where('state', '=', 'attention')
    .execute();
}

describe('a station’s gift changed before it left, found at the hub after the answer was lost', () => {
  it('voided: the hub holds it voided, with the reason, and nothing is parked', async () => {
    const { r, dropped, rule } = await stationRig();
    const id = await typedGift(r);
    await voidDonation(r.local.ctx, r.local.accountId, id, 'entered twice');
    await pushAll(r, rule);
    expect(dropped()).toBeGreaterThan(0);
    expect(await parked(r)).toEqual([]);
    const hubId = await remoteIdFor(r.local.store.db, 'donation', id);
    expect(hubId).not.toBeNull();
    const atHub = await getDonation(r.remote.ctx, r.hq.accountId, hubId!);
    expect(atHub.status).toBe('voided');
    const voidedAtHub = await r.remote.ctx.store.db
      .selectFrom('donationHistory')
      .select('note')
      .where('donationId', '=', hubId!)
      .where('action', '=', 'voided')
      .execute();
    expect(voidedAtHub.map((h) => h.note)).toEqual(['entered twice']);
    const voids = r.proxy.records.filter((q) => q.path.endsWith('/void'));
    // The void went to the hub after the link, and "voided already" was taken as done (a void
    // whose answer came too late for a busy machine goes again, and is answered the same).
    expect(voids.length).toBeGreaterThan(0);
    expect(new Set(voids.map((q) => q.status))).toEqual(new Set([409]));
  });

  it('corrected: the hub holds the corrected amount, and nothing is parked', async () => {
    const { r, dropped, rule } = await stationRig();
    const id = await typedGift(r);
    await correctDonation(r.local.ctx, r.local.accountId, id, { donationAmount: 25, paymentMethod: 'check' });
    await pushAll(r, rule);
    expect(dropped()).toBeGreaterThan(0);
    expect(await parked(r)).toEqual([]);
    const hubId = await remoteIdFor(r.local.store.db, 'donation', id);
    const atHub = await getDonation(r.remote.ctx, r.hq.accountId, hubId!);
    expect([atHub.status, atHub.donationAmount, atHub.paymentMethod]).toEqual(['completed', 25, 'check']);
    const patches = r.proxy.records.filter((q) => q.method === 'PATCH');
    expect(patches.length).toBeGreaterThan(0);
    expect(
      new Set(
        patches.map(
          (q) =>
            `${q.status} ${Object.keys(JSON.parse(q.body) as object)
              .sort()
              .join(',')}`,
        ),
      ),
    ).toEqual(new Set(['200 accountId,donationAmount,paymentMethod']));
  });

  it('refunded here after it reached the hub (a flag’s review here): parked for a person, nothing sent, never dropped', async () => {
    const { r, rule } = await stationRig();
    const id = await typedGift(r);
    await pushAll(r, rule);
    expect(await remoteIdFor(r.local.store.db, 'donation', id)).not.toBeNull();
    const sentBefore = r.proxy.records.length;
    // As a flag's "refund" does (domain/limits/flags.ts): the status, and an update of it logged.
    const at = new Date().toISOString();
    await r.local.store.write(async (trx) => {
      await trx
        .updateTable('donations')
        .set({ status: 'refunded', updatedAt: at })
        .where('id', '=', id)
        .execute();
      await logChange(trx, {
        accountId: r.local.accountId,
        entityType: 'donation',
        entityId: id,
        op: 'update',
        fields: ['status'],
        at,
      });
    });
    const engine = createSyncEngine({ store: r.local.store, keys: testKeys, makeClient: r.makeClient });
    try {
      await engine.runPass({ accountId: r.local.accountId });
    } finally {
      await engine.stop();
    }
    expect(await parked(r)).toEqual([{ entityId: id, attentionCode: 'hq_has_no_donation_update' }]);
    expect(r.proxy.records.slice(sentBefore).filter((q) => q.method !== 'GET')).toEqual([]);
  });
});
