/**
 * A station mirrors the event's ledger: what the person hosting changes at the hub after a
 * station joined is what the station answers, through the station's own API, on loopback with a
 * real hub over HTTPS and a station served from its own data folder.
 *
 * - the election calendar and the default election: GET /elections answers as the hub does;
 * - the letters' settings (the organisation's kind, name, signer, a template): GET
 *   /letters/settings answers as the hub does;
 * - a donor's address, phone and tags added at the hub: GET /contacts/{id} answers as the hub
 *   does, field for field;
 * - a gift typed at the station counts toward the same election as at the hub: with Primary 2028
 *   the default, a donor who gave $2,000 at the hub and $1,500 at the station is over the $3,300
 *   per-election limit, and the gift is flagged at both ends under Primary 2028.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext } from '../../electron/domain/context.ts';
import { startServer, type RunningServer } from '../../electron/server/serve.ts';
import { defaultKeySource } from '../../electron/sync/remote/secret-box.ts';
import { expectStatus, makeCampaign, makeContact, makeDonationAccount } from '../helpers/api-fixtures.ts';
import { isolatedEnv } from '../helpers/cli.ts';
import { type ApiResponse, rawRequest, tempDir } from '../helpers/server.ts';
import { type Hub, startHub } from '../hub/hub-rig.ts';

const { env } = isolatedEnv();
let hub: Hub;
let running: RunningServer;
let station: { accountId: string; request(method: string, p: string, body?: unknown): Promise<ApiResponse> };
let pacId: string;
let campaignId: string;
let maria: { id: string };

/** A fresh data folder joined to the hub by its own route, then served with its scheduler (push and feed). */
async function joinStation(): Promise<void> {
  const dir = tempDir('giftdesk-station-');
  let store = await openStore({ dataDir: dir });
  let ctx = createContext(store);
  const local = await createAccount(ctx, 'Table A');
  let key = await createApiKey(ctx, local.id, 'script');
  const first = await startServer({
    store,
    port: 0,
    rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
    sync: { keys: defaultKeySource(dir, env), run: true },
  });
  const joined = await rawRequest(
    `${first.url}/api/v1/event/join`,
    'POST',
    { url: `${hub.url}/join#code=${await hub.code()}&fingerprint=${hub.fingerprint}`, name: 'Table A' },
    { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` },
  );
  expect(joined.status, joined.text).toBe(200);
  await first.close();
  store = await openStore({ dataDir: dir });
  ctx = createContext(store);
  key = await createApiKey(ctx, hub.accountId, 'tests');
  running = await startServer({
    store,
    port: 0,
    rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
    sync: { keys: defaultKeySource(dir, env), run: true },
  });
  const auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
  station = {
    accountId: hub.accountId,
    request: (method, p, body) => rawRequest(`${running.url}${p}`, method, body, auth),
  };
}

const at = (s: { accountId: string }, p: string) =>
  `${p}${p.includes('?') ? '&' : '?'}accountId=${s.accountId}`;

async function read(s: typeof station | Hub, p: string) {
  return expectStatus(await s.request('GET', at(s, p)), 200);
}

beforeAll(async () => {
  hub = await startHub();
  const pac = await makeDonationAccount(hub, { perElection: 3300 }, 'PAC');
  pacId = pac.id;
  campaignId = (await makeCampaign(hub, 'Gala 2026', [pac.id])).id;
  maria = await makeContact(hub, {
    firstName: 'Maria',
    lastName: 'Lopez',
    primaryEmail: 'maria@example.org',
  });
  await joinStation();
});

afterAll(async () => {
  await running?.close();
  await hub?.close();
});

describe('a station mirrors the event’s ledger', () => {
  it('the election calendar and the default election set at the hub after the join', async () => {
    for (const e of [
      { electionType: 'primary', electionYear: 2028, electionDate: '2028-03-07' },
      { electionType: 'general', electionYear: 2028, electionDate: '2028-11-07' },
    ])
      expectStatus(await hub.request('POST', '/api/v1/elections', { accountId: hub.accountId, ...e }), 201);
    expectStatus(
      await hub.request('PUT', '/api/v1/elections/default', {
        accountId: hub.accountId,
        electionType: 'primary',
        electionYear: 2028,
      }),
      200,
    );
    const atHub = await read(hub, '/api/v1/elections');
    expect(atHub.data).toHaveLength(2);
    await expect.poll(async () => (await read(station, '/api/v1/elections')).data).toEqual(atHub.data);
  });

  it('the letters’ settings: the organisation’s kind, name and signer, and a template', async () => {
    expectStatus(
      await hub.request('PUT', '/api/v1/letters/settings', {
        accountId: hub.accountId,
        orgKind: 'political',
        organizationName: 'Friends of Ana Ruiz',
        organizationAddress: '1 Main St, Springfield',
        signerName: 'Łukasz Żółć',
        signerTitle: 'Treasurer',
        templates: [{ kind: 'thank-you', heading: 'Thank you for standing with Ana' }],
      }),
      200,
    );
    const atHub = await read(hub, '/api/v1/letters/settings');
    expect(atHub).toMatchObject({ orgKind: 'political', signerName: 'Łukasz Żółć' });
    await expect.poll(async () => read(station, '/api/v1/letters/settings')).toEqual(atHub);
  });

  it('a donor’s address, phone and tags added at the hub', async () => {
    expectStatus(
      await hub.request('PUT', `/api/v1/contacts/${maria.id}`, {
        accountId: hub.accountId,
        addresses: [
          { street1: '12 Elm St', city: 'Springfield', state: 'IL', postalCode: '62701', isPrimary: true },
        ],
        phoneNumbers: [{ phoneNumber: '555-0100', phoneType: 'mobile', isPrimary: true }],
        tags: ['volunteer', 'host committee'],
      }),
      200,
    );
    const atHub = await read(hub, `/api/v1/contacts/${maria.id}`);
    expect(atHub.addresses).toHaveLength(1);
    await expect.poll(async () => read(station, `/api/v1/contacts/${maria.id}`)).toEqual(atHub);
  });

  it('a gift typed at the station counts toward the hub’s default election, and is flagged at both ends', async () => {
    const gift = { contactId: maria.id, donationDate: '2026-11-27', paymentMethod: 'check', campaignId };
    expectStatus(
      await hub.request('POST', '/api/v1/donations', {
        accountId: hub.accountId,
        ...gift,
        donationAmount: 2000,
        donationAccountId: pacId,
      }),
      201,
    );
    // The hub's $2,000 is at the station.
    await expect
      .poll(async () => (await read(station, `/api/v1/contacts/${maria.id}`)).totalDonations)
      .toBe(2000);
    const mine = expectStatus(
      await station.request('POST', '/api/v1/donations', {
        accountId: station.accountId,
        ...gift,
        donationAmount: 1500,
        donationAccountId: pacId,
      }),
      201,
    );
    const flagOf = (list: { flagged: Array<Record<string, unknown>> }) =>
      list.flagged
        .filter((f) => f.contactId === maria.id && f.limitKind === 'per_election')
        .map((f) => ({
          electionType: f.electionType,
          electionYear: f.electionYear,
          donorTotal: f.donorTotal,
        }));
    const expected = [{ electionType: 'primary', electionYear: 2028, donorTotal: 3500 }];
    expect(flagOf(await read(station, '/api/v1/flags'))).toEqual(expected);
    // The station's gift reaches the hub under its reference and is flagged there the same way.
    await expect
      .poll(async () =>
        (await read(hub, '/api/v1/donations?limit=100')).donations.some((d: { notes: string | null }) =>
          d.notes?.endsWith(`gd:${mine.id}`),
        ),
      )
      .toBe(true);
    expect(flagOf(await read(hub, '/api/v1/flags'))).toEqual(expected);
  });
});
