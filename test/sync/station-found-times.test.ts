/**
 * A station's new donor whose create reached the hub but whose answer was lost (the hub killed
 * after its commit, or the network): the engine finds the donor at the hub by its reference.
 * The record here must then be the hub's donor, its values and times, as when the answer comes
 * back (feed-contacts.ts, takeHubDonor): the hub's feed skipped the donor while it was not
 * linked here, and never brings it again. Without it, the donor's page at the station kept the
 * station's own times and differed from the hub's (the convergence soak, seeds 55 and 77).
 *
 * The engine here talks to a GiftDesk server as its hub (the remote's kind is `hub`), through
 * the fault proxy, which drops the answer to the donor's create after the commit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createContact, getContact } from '../../electron/domain/contacts/index.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { remoteIdFor } from '../../electron/sync/outbox/links.ts';
import type { FaultRule } from './fault-proxy.ts';
import { startRig, syncToCompletion, testKeys, type SyncRig } from './rig.ts';

let rig: SyncRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('a station’s donor found at the hub after the answer was lost', () => {
  it('takes the hub’s times, as an answer would have', async () => {
    rig = await startRig({ timeoutMs: 400 });
    const r = rig;
    await r.local.store.write((trx) =>
      trx
        .updateTable('syncRemotes')
        .set({ kind: 'hub' })
        .where('accountId', '=', r.local.accountId)
        .execute(),
    );
    let dropped = 0;
    const dropFirstCreate: FaultRule = (req) =>
      req.method === 'POST' && req.path.startsWith('/api/v1/contacts') && dropped++ === 0
        ? { kind: 'dropAfterCommit' }
        : { kind: 'forward' };
    r.proxy.setRule(dropFirstCreate);
    const donor = await createContact(r.local.ctx, {
      accountId: r.local.accountId,
      firstName: 'Tom',
      lastName: 'Twin',
      primaryEmail: 'tom.twin@example.org',
    });
    // The hub's clock is ahead of the station's by the time the create took: make it plain.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const engine = createSyncEngine({
      store: r.local.store,
      keys: testKeys,
      makeClient: r.makeClient,
      random: () => 0,
    });
    try {
      await syncToCompletion(engine, r, { faultyPasses: 1, afterFaults: dropFirstCreate });
    } finally {
      await engine.stop();
    }
    expect(dropped).toBeGreaterThan(0);
    const hubId = await remoteIdFor(r.local.store.db, 'contact', donor.id);
    expect(hubId).not.toBeNull();
    const atHub = await getContact(r.remote.ctx, r.hq.accountId, hubId!);
    const here = await getContact(r.local.ctx, r.local.accountId, donor.id);
    expect([here.createdAt, here.updatedAt]).toEqual([atHub.createdAt, atHub.updatedAt]);
    expect(here.createdAt).not.toBe(donor.createdAt);
  });
});
