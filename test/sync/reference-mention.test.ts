/**
 * A `gd:` reference a person typed (pasted into a gift's notes, or as a contact's tag) is a
 * mention, not the record's reference. When the record that carries it and the record it
 * names both reach HQ with an unknown outcome and are looked for in the same sweep, each is
 * found by its own reference (the notes' last line, the last `gd:` tag): the sweep never takes
 * the other's HQ record, and never links one HQ record to two local ones.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { linkRemote, remoteIdFor } from '../../electron/sync/outbox/links.ts';
import { getItem } from '../../electron/sync/outbox/items.ts';
import { donationReferenceOf } from '#shared/sync-reference.ts';
import type { FaultAction } from './fault-proxy.ts';
import { startRig, syncToCompletion, testKeys, type SyncRig } from './rig.ts';
import { passWhenDue } from './until-due.ts';

let rig: SyncRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('a pasted `gd:` reference, reconciled in the same sweep as the record it names', () => {
  it('each unknown create is found as its own HQ record, by its reference, never by the mention', async () => {
    rig = await startRig();
    const { local } = rig;
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0,
    });
    try {
      const donor = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Dana',
        lastName: 'Donor',
      });
      await syncToCompletion(engine, rig);

      // Named first, so HQ creates its records first: the pasted ones are HQ's newest, the
      // first the sweep reads.
      const named = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Ana',
        lastName: 'Ruiz',
      });
      const pasted = await createContact(
        local.ctx,
        { accountId: local.accountId, firstName: 'Ana', lastName: 'Ruiz', tags: [`gd:${named.id}`] },
        { syncReference: false },
      );
      const gift = (over: { notes: string }) => ({
        accountId: local.accountId,
        contactId: donor.id,
        donationAmount: 250,
        donationDate: '2026-11-27T19:42:00Z',
        paymentMethod: 'check' as const,
        campaignId: rig!.local.campaignId,
        ...over,
      });
      const namedGift = await createDonation(local.ctx, gift({ notes: 'table 4' }));
      const pastedGift = await createDonation(local.ctx, gift({ notes: `table 4\ngd:${namedGift.id}` }), {
        syncReference: false,
      });

      // Every create lands at HQ and its answer is lost: all four are unknown.
      const own = (body: string, id: string) => body.includes(`gd:${id}"`) || body.endsWith(`gd:${id}`);
      rig.proxy.setRule((r): FaultAction => {
        if (r.method !== 'POST') return { kind: 'forward' };
        if (own(r.body, pasted.id) || own(r.body, pastedGift.id))
          return { kind: 'dropAfterCommit', delayMs: 150 };
        if (own(r.body, named.id) || own(r.body, namedGift.id)) return { kind: 'dropAfterCommit' };
        return { kind: 'forward' };
      });
      const states = async () =>
        Promise.all([
          getItem(local.store.db, 'contact', named.id),
          getItem(local.store.db, 'contact', pasted.id),
          getItem(local.store.db, 'donation', namedGift.id),
          getItem(local.store.db, 'donation', pastedGift.id),
        ]).then((xs) => xs.map((x) => x?.state));
      await engine.runPass({ accountId: local.accountId }); // the contacts and the named gift
      await engine.runPass({ accountId: local.accountId }); // the pasted gift
      expect(await states()).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);

      // One sweep of each kind looks for them all.
      rig.proxy.setRule(() => ({ kind: 'forward' }));
      const from = rig.proxy.records.length;
      for (let i = 0; i < 10 && (await states()).includes('unknown'); i++)
        await passWhenDue(engine, local.accountId);
      expect(await states()).toEqual(['idle', 'idle', 'idle', 'idle']);
      const reads = rig.proxy.records.slice(from).map((r) => `${r.method} ${r.path.split('?')[0]}`);
      expect(reads.filter((x) => x === 'GET /api/v1/contacts')).toHaveLength(1);
      expect(reads.filter((x) => x === 'GET /api/v1/donations')).toHaveLength(1);

      const db = rig.remote.store.db;
      const hqContact = async (localId: string) => {
        const id = await remoteIdFor(local.store.db, 'contact', localId);
        const row = await db
          .selectFrom('contacts')
          .select('tags')
          .where('id', '=', id!)
          .executeTakeFirstOrThrow();
        return JSON.parse(row.tags) as string[];
      };
      const hqGiftNotes = async (localId: string) => {
        const id = await remoteIdFor(local.store.db, 'donation', localId);
        const row = await db
          .selectFrom('donations')
          .select('notes')
          .where('id', '=', id!)
          .executeTakeFirstOrThrow();
        return row.notes;
      };
      expect(await hqContact(named.id)).toEqual([`gd:${named.id}`]);
      expect(await hqContact(pasted.id)).toEqual([`gd:${named.id}`, `gd:${pasted.id}`]);
      expect(donationReferenceOf(await hqGiftNotes(namedGift.id))).toBe(`gd:${namedGift.id}`);
      expect(await hqGiftNotes(pastedGift.id)).toBe(`table 4\ngd:${namedGift.id}\ngd:${pastedGift.id}`);

      // Nothing posted again: HQ holds each record once.
      await syncToCompletion(engine, rig);
      expect(rig.proxy.records.slice(from).filter((r) => r.method === 'POST')).toEqual([]);
      const count = async (table: 'contacts' | 'donations') =>
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('accountId', '=', rig!.hq.accountId)
            .executeTakeFirstOrThrow()
        ).n;
      expect([await count('contacts'), await count('donations')]).toEqual([3, 2]);
    } finally {
      await engine.stop();
    }
  });

  it('an HQ record linked to another local record by now is never a find: skipped, never linked twice', async () => {
    rig = await startRig();
    const { local } = rig;
    const engine = createSyncEngine({
      store: local.store,
      keys: testKeys,
      makeClient: rig.makeClient,
      random: () => 0,
    });
    try {
      const other = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Bo',
        lastName: 'Other',
      });
      await syncToCompletion(engine, rig);
      const lost = await createContact(local.ctx, {
        accountId: local.accountId,
        firstName: 'Cy',
        lastName: 'Lost',
      });
      rig.proxy.setRule((r): FaultAction =>
        r.method === 'POST' && r.body.includes(`gd:${lost.id}`)
          ? { kind: 'dropAfterCommit' }
          : { kind: 'forward' },
      );
      await engine.runPass({ accountId: local.accountId });
      expect((await getItem(local.store.db, 'contact', lost.id))?.state).toBe('unknown');
      const hqLost = (
        await rig.remote.store.db
          .selectFrom('contacts')
          .select('id')
          .where('accountId', '=', rig.hq.accountId)
          .where('lastName', '=', 'Lost')
          .executeTakeFirstOrThrow()
      ).id;
      // Meanwhile that HQ record is linked to the other local contact (as a match would).
      await local.store.write((trx) =>
        linkRemote(trx, {
          accountId: local.accountId,
          entityType: 'contact',
          localId: other.id,
          remoteId: hqLost,
          source: 'email',
          at: new Date().toISOString(),
        }),
      );
      rig.proxy.setRule(() => ({ kind: 'forward' }));
      for (let i = 0; i < 5 && (await getItem(local.store.db, 'contact', lost.id))?.state === 'unknown'; i++)
        await passWhenDue(engine, local.accountId);
      await engine.runPass({ accountId: local.accountId });
      expect(await remoteIdFor(local.store.db, 'contact', other.id)).toBe(hqLost);
      expect(await remoteIdFor(local.store.db, 'contact', lost.id)).toBeNull();
      expect((await getItem(local.store.db, 'contact', lost.id))?.state).toBe('attention');
    } finally {
      await engine.stop();
    }
  });
});
