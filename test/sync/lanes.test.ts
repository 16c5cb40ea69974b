/**
 * lanes.ts through its inputs: a real local SQLite file written through the domain as the
 * app does (namesake donors, twin gifts), and the lane pool with steps that say what the
 * engine would. Which records a round works on, in which lane and order, and how many lanes
 * run at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import {
  buildLanes,
  gatherWork,
  laneIdFor,
  laneWidth,
  runLanes,
  type LaneVerdict,
} from '../../electron/sync/push/lanes.ts';
import type { PendingEntity } from '../../electron/sync/outbox/outbox.ts';
import { ensureItem, updateItem } from '../../electron/sync/outbox/items.ts';
import { tempDir } from '../helpers/server.ts';

let dataDir: string;
let store: Store;
let ctx: DomainContext;
let accountId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  dataDir = tempDir('giftdesk-lanes-');
  store = await openStore({ dataDir });
  ctx = createContext(store);
  accountId = (await createAccount(ctx, 'Gala night')).id;
  const campaignId = (await createCampaign(ctx, { accountId, name: 'Spring gala' })).id;
  // Two Robert Browns (same email), twin gifts for the first, a gift for the second, a third contact.
  ids.rob1 = (
    await createContact(ctx, {
      accountId,
      firstName: 'Robert',
      lastName: 'Brown',
      primaryEmail: 'rbrown@example.org',
    })
  ).id;
  ids.rob2 = (
    await createContact(ctx, {
      accountId,
      firstName: 'Robert',
      lastName: 'Brown',
      primaryEmail: 'rbrown@example.org',
    })
  ).id;
  const twin = {
    accountId,
    contactId: ids.rob1,
    donationAmount: 19.99,
    donationDate: '2026-11-24T19:05:00Z',
    paymentMethod: 'cash' as const,
    campaignId,
  };
  ids.twin1 = (await createDonation(ctx, twin)).id;
  ids.twin2 = (await createDonation(ctx, twin)).id;
  ids.gift2 = (await createDonation(ctx, { ...twin, contactId: ids.rob2, donationAmount: 50 })).id;
  ids.jose = (await createContact(ctx, { accountId, firstName: 'Jose', lastName: 'Nunez' })).id;
  // Robert Brown #2's create went out and its answer was lost.
  await store.write(async (trx) => {
    await ensureItem(trx, {
      entityType: 'contact',
      entityId: ids.rob2!,
      accountId,
      laneId: ids.rob2!,
      at: new Date().toISOString(),
    });
    await updateItem(trx, 'contact', ids.rob2!, { state: 'unknown' });
  });
});
afterAll(async () => {
  await store?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const names = (list: readonly PendingEntity[]) =>
  list.map((e) => Object.keys(ids).find((k) => ids[k] === e.entityId) ?? e.entityId);

describe('gatherWork and buildLanes', () => {
  it('a record of unknown outcome comes first, then every pending record once, oldest change first', async () => {
    expect(names(await gatherWork(store.db, accountId))).toEqual([
      'rob2',
      'rob1',
      'twin1',
      'twin2',
      'gift2',
      'jose',
    ]);
    expect(await gatherWork(store.db, 'acc_nobody')).toEqual([]);
  });

  it('a gift rides in its donor’s lane, behind the donor; namesakes keep their own lanes', async () => {
    const lanes = await buildLanes(store.db, await gatherWork(store.db, accountId));
    expect(
      [...lanes.entries()].map(([k, v]) => [
        names([{ entityType: 'contact', entityId: k, firstSeq: 0 }])[0],
        names(v),
      ]),
    ).toEqual([
      ['rob2', ['rob2', 'gift2']],
      ['rob1', ['rob1', 'twin1', 'twin2']],
      ['jose', ['jose']],
    ]);
  });

  it('a gift no longer here goes in the lane its item was filed in; one never filed is a lane of its own', async () => {
    await store.write((trx) =>
      ensureItem(trx, {
        entityType: 'donation',
        entityId: 'don_gone',
        accountId,
        laneId: ids.jose!,
        at: new Date().toISOString(),
      }),
    );
    const lanes = await buildLanes(store.db, [
      { entityType: 'donation', entityId: 'don_gone', firstSeq: 1 },
      { entityType: 'donation', entityId: 'don_never', firstSeq: 2 },
    ]);
    expect([...lanes.keys()]).toEqual([ids.jose, 'don_never']);
    expect(await laneIdFor(store.db, { entityType: 'donation', entityId: ids.twin2! })).toBe(ids.rob1);
    expect(await laneIdFor(store.db, { entityType: 'contact', entityId: ids.jose! })).toBe(ids.jose);
    expect(await laneIdFor(store.db, { entityType: 'donation', entityId: 'don_never' })).toBe('don_never');
  });
});

describe('laneWidth', () => {
  it.each([
    [5, 200, 100, 2],
    [5, 1000, 100, 6],
    [1000, 2000, 100, 16],
    [1000, 2000, 3, 3],
    [5, 0, 0, 1],
  ])('rate %d/s, latency %d ms, %d lanes → %d at once', (rate, latency, lanes, want) => {
    expect(laneWidth(rate, latency, lanes)).toBe(want);
  });
});

describe('runLanes', () => {
  const LANES = [['a1', 'a2', 'a3'], ['b1'], ['c1', 'c2'], ['d1']];

  /** A step that yields a few times (so lanes interleave), noting what ran and how many at once. */
  function recorder(verdict: (r: string) => LaneVerdict | 'throw' = () => 'next') {
    const ran: string[] = [];
    let inside = 0;
    let most = 0;
    const step = async (r: string): Promise<LaneVerdict> => {
      ran.push(r);
      most = Math.max(most, ++inside);
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      inside--;
      const v = verdict(r);
      if (v === 'throw') throw new Error(`step ${r} failed`);
      return v;
    };
    return { ran, step, most: () => most };
  }
  const inOrder = (ran: string[], lane: string[]) => ran.filter((r) => lane.includes(r));

  it('every record once, each lane in order, never more lanes at once than the width', async () => {
    const rec = recorder();
    await runLanes({ lanes: LANES, width: () => 2, stopped: () => false, step: rec.step });
    expect([...rec.ran].sort()).toEqual(LANES.flat().sort());
    for (const lane of LANES) expect(inOrder(rec.ran, lane)).toEqual(lane);
    expect(rec.most()).toBe(2);
  });

  it('the pool grows when the width does (HQ slower than first guessed)', async () => {
    let width = 1;
    const rec = recorder(() => {
      width = 4;
      return 'next';
    });
    await runLanes({ lanes: LANES, width: () => width, stopped: () => false, step: rec.step });
    expect(rec.most()).toBeGreaterThan(1);
    expect(rec.ran).toHaveLength(LANES.flat().length);
  });

  it('endLane leaves the rest of that lane for later; the other lanes go on', async () => {
    const rec = recorder((r) => (r === 'a1' ? 'endLane' : 'next'));
    await runLanes({ lanes: LANES, width: () => 2, stopped: () => false, step: rec.step });
    expect([...rec.ran].sort()).toEqual(['a1', 'b1', 'c1', 'c2', 'd1']);
  });

  it('once stopped, no record is started', async () => {
    let stop = false;
    const rec = recorder((r) => {
      if (r === 'a2') stop = true;
      return 'next';
    });
    await runLanes({ lanes: LANES, width: () => 1, stopped: () => stop, step: rec.step });
    expect(rec.ran).toEqual(['a1', 'a2']);
  });

  it('a step that throws stops the pool; the error comes out once the running lanes are done', async () => {
    const rec = recorder((r) => (r === 'b1' ? 'throw' : 'next'));
    await expect(
      runLanes({ lanes: LANES, width: () => 1, stopped: () => false, step: rec.step }),
    ).rejects.toThrow('step b1 failed');
    expect(rec.ran).toEqual(['a1', 'a2', 'a3', 'b1']);
  });
});
