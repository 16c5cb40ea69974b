/**
 * The feed's pace at the hub, over real HTTPS: a long poll woken by a change gathers for a
 * moment, so one answer carries the changes written meanwhile (at event pace a station asks
 * a few times a second, not once per gift); a full page is not held; every answer names the
 * event's stations; a station's key has a limit sized for a station, another key keeps the
 * plain one. The gathering's clock and wait are the test's (hub services' `pace`), so what is
 * written "while it gathers" is decided here, not by how fast this machine is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubChanges } from '#shared/schemas/hub.ts';
import { expectStatus, giftBody, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { type Hub, type Station, startHub } from './hub-rig.ts';

let hub: Hub;
let st: Station;
let campaignId: string;
let donorId: string;
/** The gatherings asked for and not ended yet. */
const gathering: Array<() => void> = [];

beforeAll(async () => {
  hub = await startHub({ rateLimit: { ratePerSecond: 20, burst: 40 } });
  st = await hub.join('Table A');
  await hub.join('Table B');
  campaignId = (await makeCampaign(hub, 'Gala 2026')).id;
  donorId = (await makeContact(hub, { firstName: 'Maria', lastName: 'Lopez' })).id;
  // The hub's clock stands still and a gathering ends when this test says so.
  hub.running.hub!.pace = {
    gatherMs: 250,
    now: () => 0,
    pause: (_ms, signal) =>
      new Promise<void>((resolve) => {
        gathering.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      }),
  };
});
afterAll(async () => {
  for (const end of gathering.splice(0)) end();
  await hub?.close();
});

async function readToEnd(after: string): Promise<HubChanges> {
  let page: HubChanges;
  do {
    page = HubChanges.parse(
      expectStatus(
        await st.request('GET', `/api/v1/hub/changes?after=${encodeURIComponent(after)}&limit=500`),
        200,
      ),
    );
    after = page.cursor;
  } while (page.more);
  return page;
}

const gift = async (amount: number) =>
  expectStatus(
    await hub.request(
      'POST',
      '/api/v1/donations',
      giftBody(hub, donorId, { campaignId, donationAmount: amount }),
    ),
    201,
  ).id as string;

describe('the feed at event pace', () => {
  it('a woken long poll gathers: its one answer carries every gift written while it gathers', async () => {
    const { cursor } = await readToEnd('');
    const held = st.request('GET', `/api/v1/hub/changes?after=${cursor}&wait=30`);
    await expect.poll(() => hub.running.hub!.feed.waiting).toBe(1);
    const first = await gift(10); // wakes the long poll
    await expect.poll(() => gathering.length).toBe(1);
    const more = [await gift(11), await gift(12), await gift(13)];
    gathering.shift()!();
    const page = HubChanges.parse(expectStatus(await held, 200));
    expect(page.donations.map((d) => d.id)).toEqual([first, ...more]);
    expect(page.more).toBe(false);
  });

  it('gathers too when changes were already there, and holds no full page', async () => {
    const { cursor } = await readToEnd('');
    const a = await gift(20);
    const held = st.request('GET', `/api/v1/hub/changes?after=${cursor}&wait=30`);
    await expect.poll(() => gathering.length).toBe(1);
    const b = await gift(21);
    gathering.shift()!();
    expect(HubChanges.parse(expectStatus(await held, 200)).donations.map((d) => d.id)).toEqual([a, b]);

    // Two changes waiting and a page of one: `more`, answered at once, nothing gathered.
    const full = HubChanges.parse(
      expectStatus(await st.request('GET', `/api/v1/hub/changes?after=${cursor}&wait=30&limit=1`), 200),
    );
    expect(full).toMatchObject({ more: true, donations: [{ id: a }] });
    expect(gathering).toHaveLength(0);
  });

  it('names the event’s stations on every answer', async () => {
    const page = await readToEnd('');
    expect(page.stations?.map((s) => s.name)).toEqual(['Table A', 'Table B']);
    expect(page.stations?.[0]?.id).toBe(st.stationId);
  });

  it('a station’s key has a station’s limit; the host’s key the plain one', async () => {
    const asStation = await st.request('GET', `/api/v1/campaigns?accountId=${hub.accountId}`);
    expect(asStation.headers.get('x-ratelimit-limit')).toBe('80');
    const asHost = await hub.request('GET', `/api/v1/campaigns?accountId=${hub.accountId}`);
    expect(asHost.headers.get('x-ratelimit-limit')).toBe('40');
  });
});
