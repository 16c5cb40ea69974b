/**
 * Twins: what HQ already holds for OTHER local records is never this record.
 *
 * Two $19.99 cash gifts from one donor at one table, in the same minute, are an everyday event
 * case: identical in every field HQ sees but their `gd:` reference. When the create of one twin
 * has an unknown outcome, reconciliation finds the other twin at HQ — it must not take it for
 * this gift, nor for a lookalike a person has to judge. The same holds for namesake contacts:
 * a contact GiftDesk created for another local record (same email, another name) is never
 * this one's match.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createContact, deleteContact, updateContact } from '../../electron/domain/contacts/index.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { listAttention } from '../../electron/sync/status/attention.ts';
import { matchContactByEmail } from '../../electron/sync/push/email-match.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { pullFromHq } from '../../electron/sync/pull/pull.ts';
import { loadRemoteConfig } from '../../electron/sync/remote/settings.ts';
import { remoteIdFor } from '../../electron/sync/outbox/links.ts';
import { getItem } from '../../electron/sync/outbox/items.ts';
import type { FaultAction } from './fault-proxy.ts';
import { checkHqMatchesLocal, startRig, syncToCompletion, testKeys, type SyncRig } from './rig.ts';
import { passWhenDue } from './until-due.ts';

let rig: SyncRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Faults the first POST carrying `ref` with `action`; everything else goes through. */
function faultPostOf(r: SyncRig, ref: string, action: FaultAction): () => boolean {
  let hit = false;
  r.proxy.setRule((req): FaultAction => {
    if (!hit && req.method === 'POST' && req.body.includes(`gd:${ref}`)) {
      hit = true;
      return action;
    }
    return { kind: 'forward' };
  });
  return () => hit;
}

async function twinGifts(r: SyncRig, n: number) {
  const { ctx, accountId, campaignId } = r.local;
  const donor = await createContact(ctx, { accountId, firstName: 'Robert', lastName: 'Brown' });
  const gifts = [];
  for (let i = 0; i < n; i++) {
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
  }
  return { donor, gifts };
}

describe('twin gifts with an unknown outcome', () => {
  const unknowns: Array<[string, FaultAction]> = [
    ['a 503 that was never forwarded', { kind: 'respond', status: 503 }],
    ['a reset before sending', { kind: 'resetBeforeForward' }],
    ['a 500 after HQ committed', { kind: 'respond', status: 500, forward: true }],
    ['an answer dropped after HQ committed', { kind: 'dropAfterCommit' }],
  ];

  it.each(unknowns)(
    'the second twin reaches HQ exactly once after %s (the first twin at HQ is not a lookalike)',
    async (_, action) => {
      rig = await startRig();
      const engine = createSyncEngine({
        store: rig.local.store,
        keys: testKeys,
        makeClient: rig.makeClient,
        random: () => 0,
      });
      try {
        const { gifts } = await twinGifts(rig, 2);
        const faulted = faultPostOf(rig, gifts[1]!.id, action);
        await syncToCompletion(engine, rig);
        expect(faulted()).toBe(true);
        expect(await listAttention(rig.local.store.db, rig.local.accountId)).toEqual([]);
        expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 2 });
        const [a, b] = [
          await remoteIdFor(rig.local.store.db, 'donation', gifts[0]!.id),
          await remoteIdFor(rig.local.store.db, 'donation', gifts[1]!.id),
        ];
        expect(a).not.toBe(b);
      } finally {
        await engine.stop();
      }
    },
  );

  it('triplets: the third twin, unknown twice over, still reaches HQ once', async () => {
    rig = await startRig();
    const engine = createSyncEngine({
      store: rig.local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0,
    });
    try {
      const { gifts } = await twinGifts(rig, 3);
      let faults = 0;
      rig.proxy.setRule((req): FaultAction => {
        if (faults < 2 && req.method === 'POST' && req.body.includes(`gd:${gifts[2]!.id}`)) {
          faults++;
          return faults === 1 ? { kind: 'respond', status: 503 } : { kind: 'resetBeforeForward' };
        }
        return { kind: 'forward' };
      });
      await syncToCompletion(engine, rig);
      expect(faults).toBe(2);
      expect(await listAttention(rig.local.store.db, rig.local.accountId)).toEqual([]);
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 3 });
    } finally {
      await engine.stop();
    }
  });

  it("a twin whose notes staff edited at HQ (its reference gone) is still the first twin's, not a lookalike of the second", async () => {
    rig = await startRig();
    const engine = createSyncEngine({
      store: rig.local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0,
    });
    try {
      const { gifts } = await twinGifts(rig, 2);
      const [first, second] = gifts as [(typeof gifts)[0], (typeof gifts)[0]];
      rig.proxy.setRule((req): FaultAction =>
        req.method === 'POST' && req.body.includes(`gd:${second.id}`)
          ? { kind: 'respond', status: 503 }
          : { kind: 'forward' },
      );
      await engine.runPass({ accountId: rig.local.accountId }); // the first twin at HQ; the second unknown
      const hqFirst = (await remoteIdFor(rig.local.store.db, 'donation', first.id))!;
      expect(hqFirst).toMatch(/^don_/);
      expect((await getItem(rig.local.store.db, 'donation', second.id))?.state).toBe('unknown');
      // Staff rewrite the first twin's notes in HQ's web application: its reference is gone.
      await rig.remote.store.db
        .updateTable('donations')
        .set({ notes: 'thank-you card sent' })
        .where('id', '=', hqFirst)
        .execute();
      rig.proxy.setRule(() => ({ kind: 'forward' }));
      await syncToCompletion(engine, rig);
      expect(await listAttention(rig.local.store.db, rig.local.accountId)).toEqual([]);
      const atHq = await rig.remote.store.db
        .selectFrom('donations')
        .select(['id', 'notes', 'amountCents'])
        .where('accountId', '=', rig.hq.accountId)
        .execute();
      expect(atHq).toHaveLength(2);
      expect(atHq.filter((d) => d.notes?.includes(`gd:${second.id}`))).toHaveLength(1);
      expect(await remoteIdFor(rig.local.store.db, 'donation', second.id)).not.toBe(hqFirst);
      // the oracle knows the first twin at HQ by its link, and staff's notes stay
      expect(
        await checkHqMatchesLocal(rig, { hqNotes: new Map([[hqFirst, 'thank-you card sent']]) }),
      ).toEqual({ contacts: 1, donations: 2 });
    } finally {
      await engine.stop();
    }
  });

  it('a gift typed at HQ by hand (no reference, linked to nothing here) is still a lookalike for a person', async () => {
    rig = await startRig();
    const engine = createSyncEngine({
      store: rig.local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0,
    });
    try {
      const { donor, gifts } = await twinGifts(rig, 1);
      rig.proxy.setRule((req): FaultAction =>
        req.method === 'POST' && req.body.includes(`gd:${gifts[0]!.id}`)
          ? { kind: 'respond', status: 503 }
          : { kind: 'forward' },
      );
      await engine.runPass({ accountId: rig.local.accountId });
      const hqDonor = (await remoteIdFor(rig.local.store.db, 'contact', donor.id))!;
      await rig.remote.request(
        'POST',
        '/api/v1/donations',
        {
          accountId: rig.hq.accountId,
          contactId: hqDonor,
          donationAmount: 19.99,
          donationDate: '2026-11-24T19:42:00Z',
          paymentMethod: 'cash',
          campaignId: rig.hq.campaignId,
        },
        { 'x-api-key': rig.hq.keyId, authorization: `Bearer ${rig.hq.secret}` },
      );
      rig.proxy.setRule(() => ({ kind: 'forward' }));
      await passWhenDue(engine, rig.local.accountId); // once the 503'd request's deadline has passed
      const attention = await listAttention(rig.local.store.db, rig.local.accountId);
      expect(attention).toMatchObject([{ code: 'possible_duplicate', entityId: gifts[0]!.id }]);
    } finally {
      await engine.stop();
    }
  });
});

describe('namesake contacts', () => {
  it('same email, another name: a contact whose create is unknown is never email-matched by its namesake', async () => {
    rig = await startRig();
    const { ctx, accountId } = rig.local;
    // Backoff drawn at its top: the unknown create waits while the namesake comes up.
    const engine = createSyncEngine({
      store: rig.local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      matchContact: matchContactByEmail,
      random: () => 0.99,
    });
    try {
      const a = await createContact(ctx, {
        accountId,
        firstName: 'Robert',
        lastName: 'Brown',
        primaryEmail: 'browns@example.org',
      });
      faultPostOf(rig, a.id, { kind: 'dropAfterCommit' }); // A is at HQ; the laptop does not know
      await engine.runPass({ accountId });
      expect((await getItem(rig.local.store.db, 'contact', a.id))?.state).toBe('unknown');
      // Robert's wife, same household email, typed at the next table.
      const b = await createContact(ctx, {
        accountId,
        firstName: 'Roberta',
        lastName: 'Brown',
        primaryEmail: 'browns@example.org',
      });
      rig.proxy.setRule(() => ({ kind: 'forward' }));
      await engine.runPass({ accountId }); // A still backed off: B must wait for it, not take A's HQ record
      expect(await remoteIdFor(rig.local.store.db, 'contact', b.id)).toBeNull();
      await syncToCompletion(engine, rig);
      const hqA = await remoteIdFor(rig.local.store.db, 'contact', a.id);
      const hqB = await remoteIdFor(rig.local.store.db, 'contact', b.id);
      expect(hqA).toMatch(/^cnt_/);
      expect(hqB).toMatch(/^cnt_/);
      expect(hqB).not.toBe(hqA);
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 2, donations: 0 });
    } finally {
      await engine.stop();
    }
  });
});

describe('a pull while a create is unconfirmed', () => {
  /** HQ's directory comes down through the rig's client (the proxy forwards everything). */
  async function pull(r: SyncRig) {
    const cfg = (await loadRemoteConfig(r.local.store.db, testKeys, r.local.accountId))!;
    return pullFromHq({
      ctx: r.local.ctx,
      remote: r.makeClient(cfg),
      accountId: r.local.accountId,
      remoteAccountId: r.hq.accountId,
    });
  }
  const localContacts = async (r: SyncRig) =>
    (
      await r.local.store.db
        .selectFrom('contacts')
        .select('id')
        .where('accountId', '=', r.local.accountId)
        .execute()
    ).map((c) => c.id);

  it("renamed here after its create was sent: HQ's copy (as sent) is left to the engine, not pulled as a second donor", async () => {
    rig = await startRig();
    const { ctx, accountId } = rig.local;
    const engine = createSyncEngine({
      store: rig.local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0.99,
    });
    try {
      const x = await createContact(ctx, {
        accountId,
        firstName: 'Robert',
        lastName: 'Brown',
        primaryEmail: 'rb@example.org',
      });
      faultPostOf(rig, x.id, { kind: 'dropAfterCommit' });
      await engine.runPass({ accountId });
      expect((await getItem(rig.local.store.db, 'contact', x.id))?.state).toBe('unknown');
      // The volunteer fixes the name while the create's outcome is unknown.
      await updateContact(ctx, accountId, x.id, { firstName: 'Bob', primaryEmail: 'bob.brown@example.org' });
      rig.proxy.setRule(() => ({ kind: 'forward' }));
      const run = await pull(rig);
      expect(run.counts).toMatchObject({ created: 0, deferred: 1 });
      expect(await localContacts(rig)).toEqual([x.id]);
      await syncToCompletion(engine, rig);
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 1, donations: 0 });
    } finally {
      await engine.stop();
    }
  });

  it("deleted here after its create was sent: HQ's copy is not pulled back as a ghost donor", async () => {
    rig = await startRig();
    const { ctx, accountId } = rig.local;
    const engine = createSyncEngine({
      store: rig.local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0.99,
    });
    try {
      const x = await createContact(ctx, { accountId, firstName: 'Robert', lastName: 'Brown' });
      faultPostOf(rig, x.id, { kind: 'dropAfterCommit' });
      await engine.runPass({ accountId });
      expect((await getItem(rig.local.store.db, 'contact', x.id))?.state).toBe('unknown');
      await deleteContact(ctx, accountId, x.id);
      rig.proxy.setRule(() => ({ kind: 'forward' }));
      const run = await pull(rig);
      expect(run.counts).toMatchObject({ created: 0, deferred: 1 });
      expect(await localContacts(rig)).toEqual([]);
      await syncToCompletion(engine, rig);
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 0, donations: 0 });
    } finally {
      await engine.stop();
    }
  });
});

describe('an email match never takes what HQ holds for another local contact (found by the enriched exactly-once seeds 103 and 142)', () => {
  // A's create reached HQ late (after its reconcile had looked and found nothing: a client
  // deadline on a slow HQ), so HQ holds A's contact, tagged gd:<A>, that nothing here links to
  // yet. Its namesake B (same household email) is matched to it by email before A's next
  // attempt: B takes A's record. In the random runs A's reconcile then finds its own tag on the
  // contact B holds and the pass died on UNIQUE(sync_links.remote_id).
  it('a household namesake is never linked to the HQ contact GiftDesk created for another local contact', async () => {
    rig = await startRig();
    const { ctx, accountId } = rig.local;
    const engine = createSyncEngine({
      store: rig.local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      matchContact: matchContactByEmail,
      random: () => 0,
    });
    try {
      await createContact(ctx, {
        accountId,
        firstName: 'Roberta',
        lastName: 'Brown',
        primaryEmail: 'browns@example.org',
      });
      const a = await createContact(ctx, {
        accountId,
        firstName: 'Robert',
        lastName: 'Brown',
        primaryEmail: 'browns@example.org',
      });
      // A's earlier attempt, committed at HQ after the laptop had given up on it
      await rig.remote.request(
        'POST',
        '/api/v1/contacts',
        {
          accountId: rig.hq.accountId,
          firstName: 'Robert',
          lastName: 'Brown',
          primaryEmail: 'browns@example.org',
          tags: [`gd:${a.id}`],
        },
        { 'x-api-key': rig.hq.keyId, authorization: `Bearer ${rig.hq.secret}` },
      );
      await syncToCompletion(engine, rig, { faultyPasses: 0 });
      expect(await checkHqMatchesLocal(rig)).toEqual({ contacts: 2, donations: 0 });
    } finally {
      await engine.stop();
    }
  });
});
