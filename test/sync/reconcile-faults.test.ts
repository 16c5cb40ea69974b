/**
 * Reconciliation itself meets faults: the reads that look for an unknown create at HQ can fail
 * too, and a failed read must leave the record unknown (looked for again later) — never
 * "found" under a made-up id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createContact } from '../../electron/domain/contacts.ts';
import { createSyncEngine } from '../../electron/sync/engine.ts';
import { getItem, remoteIdFor } from '../../electron/sync/state.ts';
import type { FaultAction } from './fault-proxy.ts';
import { checkHqMatchesLocal, startRig, syncToCompletion, testKeys, type SyncRig } from './rig.ts';

let rig: SyncRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('reconciling an unknown contact create when HQ reads fail', () => {
  it('a failed GET of a candidate leaves it unknown; later it is posted once and linked to its real HQ id', async () => {
    rig = await startRig();
    const { local } = rig;
    const engine = createSyncEngine({ store: local.store, keys: testKeys, makeClient: rig.makeClient, random: () => 0 });
    try {
      // A namesake already at HQ: the identity search by name finds it first.
      const a = await createContact(local.ctx, { accountId: local.accountId, firstName: 'Ada', lastName: 'Lovelace' });
      await engine.runPass({ accountId: local.accountId });
      const hqA = await remoteIdFor(local.store.db, 'contact', a.id);
      expect(hqA).toMatch(/^cnt_/);

      const b = await createContact(local.ctx, { accountId: local.accountId, firstName: 'Ada', lastName: 'Lovelace' });
      let resetOnce = false;
      let failReadOnce = false;
      rig.proxy.setRule((r): FaultAction => {
        if (!resetOnce && r.method === 'POST' && r.body.includes(`gd:${b.id}`)) {
          resetOnce = true;
          return { kind: 'resetBeforeForward' }; // B never reached HQ, but the engine cannot know
        }
        if (resetOnce && !failReadOnce && r.method === 'GET' && r.path.startsWith(`/api/v1/contacts/${hqA}`)) {
          failReadOnce = true;
          return { kind: 'respond', status: 503 }; // the read of the namesake fails
        }
        return { kind: 'forward' };
      });
      await engine.runPass({ accountId: local.accountId }); // POST B: reset → unknown
      expect((await getItem(local.store.db, 'contact', b.id))?.state).toBe('unknown');
      await engine.runPass({ accountId: local.accountId }); // reconcile: the namesake's read fails
      expect(failReadOnce).toBe(true);
      expect(await remoteIdFor(local.store.db, 'contact', b.id)).toBeNull();
      expect((await getItem(local.store.db, 'contact', b.id))?.state).toBe('unknown');

      await syncToCompletion(engine, rig);
      const hqB = await remoteIdFor(local.store.db, 'contact', b.id);
      expect(hqB).toMatch(/^cnt_/);
      expect(hqB).not.toBe(hqA);
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 2, donations: 0 });
    } finally {
      await engine.stop();
    }
  });
});
