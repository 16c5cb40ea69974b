/**
 * A join says what it is doing while it works: connecting to the hub (checking its certificate),
 * then bringing the event's donors and gifts — as many as the hub said it holds when it answered
 * — then finishing, then done. Real hub over HTTPS, a real data folder; the steps are read in
 * order as the join reports them (what GET /event/join/progress answers at each moment).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createContact } from '../../electron/domain/contacts/create.ts';
import { createContext } from '../../electron/domain/context.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { createCampaign } from '../../electron/domain/reference/index.ts';
import { joinProgressOf, onJoinProgress, type JoinProgress } from '../../electron/sync/index.ts';
import { joinHub } from '../../electron/sync/station/join.ts';
import { keyFileSource } from '../../electron/sync/remote/secret-box.ts';
import { tempDir } from '../helpers/server.ts';
import { type Hub, startHub } from '../hub/hub-rig.ts';

let hub: Hub;
let station: Store;
let stationDir: string;
const DONORS = 40;

beforeAll(async () => {
  hub = await startHub();
  const campaign = await createCampaign(hub.ctx, { accountId: hub.accountId, name: 'Gala' });
  // Three Robert Browns, Łukasz Żółć, and the rest; each with twin $19.99 cash gifts.
  const names: Array<[string, string]> = [
    ['Robert', 'Brown'],
    ['Robert', 'Brown'],
    ['Robert', 'Brown'],
    ['Łukasz', 'Żółć'],
  ];
  for (let i = names.length; i < DONORS; i++) names.push([`Donor${i}`, 'Lima']);
  for (const [firstName, lastName] of names) {
    const c = await createContact(hub.ctx, { accountId: hub.accountId, firstName, lastName });
    for (let i = 0; i < 2; i++)
      await createDonation(hub.ctx, {
        accountId: hub.accountId,
        contactId: c.id,
        donationAmount: 19.99,
        donationDate: '2026-12-01',
        paymentMethod: 'cash',
        campaignId: campaign.id,
      });
  }
  stationDir = tempDir('giftdesk-station-');
  station = await openStore({ dataDir: stationDir });
}, 120_000);
afterAll(async () => {
  await station?.close();
  await hub?.close();
});

describe('a join’s progress', () => {
  it('connecting, then bringing so many of what the hub holds, finishing, done', async () => {
    const ctx = createContext(station);
    expect(joinProgressOf(station)).toBeNull();
    const steps: JoinProgress[] = [];
    const stop = onJoinProgress(station, (p) => steps.push(p));
    try {
      await joinHub(ctx, keyFileSource(stationDir), {
        url: hub.url,
        code: await hub.code(),
        fingerprint: hub.fingerprint,
        name: 'Table B',
      });
    } finally {
      stop();
    }
    const phases = steps.map((s) => s.phase).filter((p, i, all) => i === 0 || all[i - 1] !== p);
    expect(phases).toEqual(['connecting', 'bringing', 'finishing', 'done']);
    const bringing = steps.filter((s) => s.phase === 'bringing');
    // The hub's whole is known from its answer on, and the counts only grow toward it.
    expect(bringing[0]).toMatchObject({ donors: 0, gifts: 0, donorsAtHub: DONORS, giftsAtHub: 2 * DONORS });
    for (let i = 1; i < bringing.length; i++) {
      expect(bringing[i]!.donors).toBeGreaterThanOrEqual(bringing[i - 1]!.donors);
      expect(bringing[i]!.gifts).toBeGreaterThanOrEqual(bringing[i - 1]!.gifts);
    }
    expect(joinProgressOf(station)).toMatchObject({
      phase: 'done',
      donors: DONORS,
      gifts: 2 * DONORS,
      donorsAtHub: DONORS,
      giftsAtHub: 2 * DONORS,
    });
  });
});
