/**
 * The same new donor at two stations, the second create coming after the hub's feed already
 * brought the first one to that station (a script, or a volunteer who did not look first, types
 * her again seconds later). A hub and two stations as processes (event-rig.ts). The hub answers
 * the second station's create with the donor it has (same name and email); the station must
 * take that answer — its two local records of her are one donor — and its gift to her must
 * reach the hub, once, for that one donor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.ts';
import {
  type HubSide,
  type StationSide,
  foundBy,
  joinStation,
  listOf,
  startHub,
  until,
} from './event-rig.ts';

const { env } = isolatedEnv();
const TODAY = new Date().toISOString().slice(0, 10);
let hub: HubSide;
let a: StationSide;
let b: StationSide;

beforeAll(async () => {
  hub = await startHub(env);
  [a, b] = await Promise.all([joinStation(env, hub, 'Table A'), joinStation(env, hub, 'Table B')]);
}, 240_000);

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await hub?.close();
});

async function donorWithGift(st: StationSide, dollars: number): Promise<void> {
  const c = await st.request('POST', '/api/v1/contacts', {
    accountId: st.accountId,
    firstName: 'Chen',
    lastName: 'Wei',
    primaryEmail: 'chen.wei@example.org',
  });
  expect(c.status, c.text).toBe(201);
  const g = await st.request('POST', '/api/v1/donations', {
    accountId: st.accountId,
    contactId: c.body.id,
    donationAmount: dollars,
    donationDate: TODAY,
    paymentMethod: 'cash',
    campaignId: st.campaignId,
  });
  expect(g.status, g.text).toBe(201);
}

describe('the same new donor typed at a second station after the feed brought her there', () => {
  it('is one donor at the hub, and the second station’s gift reaches the hub', async () => {
    await donorWithGift(a, 30);
    // Table B has her from the hub's feed before it types her again.
    await until('Chen Wei from table A at table B', () => foundBy(b, 'Chen Wei', 'chen.wei@example.org'), {
      timeoutMs: 60_000,
    });
    await donorWithGift(b, 40);

    let last = '';
    await until(
      'table B to have nothing waiting for the hub',
      async () => {
        const s = await b.watch('GET', `/api/v1/sync/status?accountId=${b.accountId}`);
        last = `waiting ${s.body?.waiting}, in flight ${s.body?.inFlight}, last error ${s.body?.lastError}`;
        return s.body?.waiting === 0 && s.body?.needsAttention === 0;
      },
      { timeoutMs: 90_000 },
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${last}`);
    });

    const at = await hub.request(
      'GET',
      `/api/v1/contacts?accountId=${hub.accountId}&search=${encodeURIComponent('chen.wei@example.org')}`,
    );
    expect(listOf(at.body)).toHaveLength(1);
    const gifts = await hub.request(
      'GET',
      `/api/v1/contacts/${listOf(at.body)[0]!.id}/donations?accountId=${hub.accountId}`,
    );
    const amounts = ((gifts.body?.donations ?? []) as Array<{ donationAmount: number }>).map(
      (d) => d.donationAmount,
    );
    expect(amounts.sort((x, y) => x - y)).toEqual([30, 40]);
  }, 300_000);
});
