/**
 * Reconciliation itself meets faults: the reads that look for an unknown create at HQ can fail
 * too, and a failed read must leave the record unknown (looked for again later) — never
 * "found" under a made-up id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createContact, deleteContact } from '../../electron/domain/contacts/index.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { remoteIdFor } from '../../electron/sync/outbox/links.ts';
import { getItem } from '../../electron/sync/outbox/items.ts';
import { forwardAll, type FaultAction } from './fault-proxy.ts';
import { checkHqMatchesLocal, startRig, syncToCompletion, testKeys, type SyncRig } from './rig.ts';
import { passWhenDue } from './until-due.ts';

let rig: SyncRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('reconciling an unknown contact create when HQ reads fail', () => {
  it('a failed GET of a candidate leaves it unknown; later it is posted once and linked to its real HQ id', async () => {
    rig = await startRig();
    const { local } = rig;
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0,
    });
    try {
      // A namesake entered at HQ by staff: the identity search by name finds it first.
      const hqA = (
        await createContact(rig.remote.ctx, {
          accountId: rig.hq.accountId,
          firstName: 'Ada',
          lastName: 'Lovelace',
        })
      ).id;

      const b = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Ada',
        lastName: 'Lovelace',
      });
      let resetOnce = false;
      let readsFail = true;
      let failedReads = 0;
      rig.proxy.setRule((r): FaultAction => {
        if (!resetOnce && r.method === 'POST' && r.body.includes(`gd:${b.id}`)) {
          resetOnce = true;
          return { kind: 'resetBeforeForward' }; // B never reached HQ, but the engine cannot know
        }
        if (resetOnce && readsFail && r.method === 'GET' && r.path.startsWith(`/api/v1/contacts/${hqA}`)) {
          failedReads++;
          return { kind: 'respond', status: 503 }; // the read of the namesake fails, retries too
        }
        return { kind: 'forward' };
      });
      await engine.runPass({ accountId: local.accountId }); // POST B: reset → unknown
      expect((await getItem(local.store.db, 'contact', b.id))?.state).toBe('unknown');
      await passWhenDue(engine, local.accountId); // reconcile (once the POST's deadline passed): the namesake's read fails
      expect(failedReads).toBeGreaterThan(0);
      expect(await remoteIdFor(local.store.db, 'contact', b.id)).toBeNull();
      expect((await getItem(local.store.db, 'contact', b.id))?.state).toBe('unknown');
      readsFail = false;

      await syncToCompletion(engine, rig);
      const hqB = await remoteIdFor(local.store.db, 'contact', b.id);
      expect(hqB).toMatch(/^cnt_/);
      expect(hqB).not.toBe(hqA);
      await deleteContact(rig.remote.ctx, rig.hq.accountId, hqA); // staff's own record, not ours to compare
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 0 });
    } finally {
      await engine.stop();
    }
  });

  it('looking for an absent create costs a few reads, not one per contact HQ has (records already linked are skipped)', async () => {
    rig = await startRig();
    const { local } = rig;
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0,
    });
    try {
      for (let i = 0; i < 25; i++)
        await createContact(local.ctx, {
          accountId: local.accountId,
          firstName: 'Donor',
          lastName: `Number${i}`,
        });
      await syncToCompletion(engine, rig);
      const lost = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Grace',
        lastName: 'Hopper',
      });
      let reset = false;
      rig.proxy.setRule((r): FaultAction => {
        if (!reset && r.method === 'POST' && r.body.includes(`gd:${lost.id}`)) {
          reset = true;
          return { kind: 'resetBeforeForward' };
        }
        return { kind: 'forward' };
      });
      await engine.runPass({ accountId: local.accountId });
      expect((await getItem(local.store.db, 'contact', lost.id))?.state).toBe('unknown');
      const from = rig.proxy.records.length;
      await syncToCompletion(engine, rig);
      const after = rig.proxy.records.slice(from).map((r) => `${r.method} ${r.path.split('?')[0]}`);
      const reads = after.filter((x) => x.startsWith('GET'));
      expect(reads.filter((x) => /\/contacts\/cnt_/.test(x))).toEqual([]); // no contact read one by one
      expect(reads.length).toBeLessThanOrEqual(3); // the identity search and one page of the newest contacts
      expect(after.filter((x) => x === 'POST /api/v1/contacts')).toHaveLength(1);
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 26, donations: 0 });
    } finally {
      await engine.stop();
    }
  });

  it("a record whose backoff is spent does not hide another's still running: the next retry is named in the future", async () => {
    rig = await startRig();
    const { local } = rig;
    // Full jitter drawn at its middle: the first retry waits half a second.
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0.5,
    });
    try {
      const gone = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Gone',
        lastName: 'Before',
      });
      rig.proxy.setRule((r): FaultAction =>
        r.method === 'POST' && r.body.includes(`gd:${gone.id}`)
          ? { kind: 'resetBeforeForward' }
          : { kind: 'forward' },
      );
      await engine.runPass({ accountId: local.accountId }); // its POST is reset: unknown, backed off
      expect((await getItem(local.store.db, 'contact', gone.id))?.state).toBe('unknown');
      // Deleted here before it ever reached HQ: once looked for and found absent, nothing is left to send.
      await deleteContact(local.ctx, local.accountId, gone.id);
      const later = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Later',
        lastName: 'Donor',
      });
      rig.proxy.setRule((r): FaultAction =>
        r.method === 'POST' && r.body.includes(`gd:${later.id}`)
          ? { kind: 'resetBeforeForward' }
          : { kind: 'forward' },
      );
      await expect.poll(async () => ((await engine.nextRetryAt()) ?? Infinity) <= Date.now()).toBe(true); // its backoff runs out
      const passStarted = Date.now(); // the spent backoff ran out before this
      await engine.runPass({ accountId: local.accountId }); // the first is settled; the second's POST is reset
      expect((await getItem(local.store.db, 'contact', later.id))?.state).toBe('unknown');
      // The next retry is the second record's, set ahead of the pass (a spent backoff left
      // behind would be at or before passStarted), whatever time the checks took since.
      const next = await engine.nextRetryAt();
      expect(next).not.toBeNull();
      expect(next!).toBeGreaterThan(passStarted);
      rig.proxy.setRule(forwardAll);
      await syncToCompletion(engine, rig);
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 0 });
    } finally {
      await engine.stop();
    }
  });
});
