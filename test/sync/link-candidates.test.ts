/**
 * GET /api/v1/sync/links/candidates on a local GiftDesk server (the app's face) against a real
 * HQ (a second GiftDesk server on 127.0.0.1, behind the fault proxy): for each unlinked local
 * campaign, committee and donation account, HQ's records of its kind to choose from and a
 * suggestion where the name matches exactly one of them — case and accents aside, never an
 * HQ record another local record holds, never when two HQ (or two local) records share the
 * name. A kind HQ does not list (the spec's HQ) comes back to be typed; HQ unreachable,
 * refusing the key or failing is a 502 naming the problem, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import {
  createCampaign,
  createCommittee,
  createDonationAccount,
} from '../../electron/domain/reference/records.ts';
import { startServer, type RunningServer } from '../../electron/server/serve.ts';
import { saveRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { envKeySource } from '../../electron/sync/remote/secret-box.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { ReferenceCandidates } from '#shared/schemas/sync-pull.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { rawRequest, startTestServer, tempDir, type TestServer } from '../helpers/server.ts';
import { forwardAll, startFaultProxy, type FaultProxy } from './fault-proxy.ts';

const keys = envKeySource({ GIFTDESK_SYNC_KEY: '8'.repeat(64) })!;
let hq: TestServer;
let proxy: FaultProxy;
let local: RunningServer;
let ctx: DomainContext;
let accountId: string;
let auth: Record<string, string>;
/** HQ's ids by a label of ours. */
const at: Record<string, string> = {};
/** Local ids by a label of ours. */
const here: Record<string, string> = {};

const call = (method: string, path: string, body?: unknown) =>
  rawRequest(`${local.url}${path}`, method, body, auth);
const candidates = async () =>
  ReferenceCandidates.parse(
    expectStatus(await call('GET', `/api/v1/sync/links/candidates?accountId=${accountId}`), 200),
  );

beforeAll(async () => {
  hq = await startTestServer();
  proxy = await startFaultProxy({ target: hq.url });
  const h = { accountId: hq.accountId };
  at.gala = (await createCampaign(hq.ctx, { ...h, name: 'Spring Gala 2026' })).id;
  at.autumnA = (await createCampaign(hq.ctx, { ...h, name: 'Autumn Appeal' })).id;
  at.autumnB = (await createCampaign(hq.ctx, { ...h, name: 'autumn appeal' })).id;
  at.phonathon = (await createCampaign(hq.ctx, { ...h, name: 'Phonathon' })).id;
  at.raffle = (await createCampaign(hq.ctx, { ...h, name: 'Raffle' })).id;
  at.winter = (await createCampaign(hq.ctx, { ...h, name: 'Winter Drive' })).id;
  at.fonds = (await createDonationAccount(hq.ctx, { ...h, name: 'Fonds général' })).id;
  at.federal = (await createDonationAccount(hq.ctx, { ...h, name: 'Federal' })).id;
  at.host = (await createCommittee(hq.ctx, { ...h, name: 'Host Committee' })).id;

  const store = await openStore({ dataDir: tempDir() });
  ctx = createContext(store);
  accountId = (await createAccount(ctx, 'Event Laptop')).id;
  const key = await createApiKey(ctx, accountId, 'app');
  auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
  const l = { accountId };
  here.gala = (await createCampaign(ctx, { ...l, name: 'spring gala 2026' })).id;
  here.autumn = (await createCampaign(ctx, { ...l, name: 'Autumn Appeal' })).id;
  here.phonathonOld = (await createCampaign(ctx, { ...l, name: 'Phonathon 2025' })).id;
  here.phonathon = (await createCampaign(ctx, { ...l, name: 'PHONATHON' })).id;
  here.raffle1 = (await createCampaign(ctx, { ...l, name: 'Raffle' })).id;
  here.raffle2 = (await createCampaign(ctx, { ...l, name: 'raffle ' })).id;
  here.silent = (await createCampaign(ctx, { ...l, name: 'Silent Auction' })).id;
  here.fonds = (await createDonationAccount(ctx, { ...l, name: 'Fonds general' })).id;
  here.federal = (await createDonationAccount(ctx, { ...l, name: 'Federal' })).id;
  here.host = (await createCommittee(ctx, { ...l, name: 'host  committee' })).id;
  // Linked earlier (by hand): HQ's Phonathon and Federal are this laptop's "Phonathon 2025" and "Federal".
  const now = ctx.now();
  await store.write(async (trx) => {
    await linkRemote(trx, {
      accountId,
      entityType: 'campaign',
      localId: here.phonathonOld!,
      remoteId: at.phonathon!,
      source: 'manual',
      at: now,
    });
    await linkRemote(trx, {
      accountId,
      entityType: 'donationAccount',
      localId: here.federal!,
      remoteId: at.federal!,
      source: 'manual',
      at: now,
    });
  });
  await saveRemoteSettings(
    store,
    keys,
    {
      accountId,
      baseUrl: proxy.url,
      keyId: hq.keyId,
      secret: hq.secret,
      remoteAccountId: hq.accountId,
      ratePerSecond: 100,
    },
    now,
  );
  local = await startServer({ store, port: 0, sync: { keys, run: false } });
}, 60_000);
afterAll(async () => {
  await local?.close();
  await proxy?.close();
  await hq?.close();
});

describe('GET /sync/links/candidates', () => {
  it('offers HQ’s records of each kind and suggests only unambiguous, free matches (case and accents aside)', async () => {
    proxy.setRule(forwardAll);
    const before = proxy.records.length;
    const c = await candidates();
    // One list per kind read from HQ, nothing else (and nothing written there).
    expect(
      proxy.records
        .slice(before)
        .map((r) => `${r.method} ${r.path.split('?')[0]}`)
        .sort(),
    ).toEqual(['GET /api/v1/campaigns', 'GET /api/v1/committees', 'GET /api/v1/donation-accounts']);

    const campaigns = c.kinds.find((k) => k.kind === 'campaign')!;
    expect(campaigns).toMatchObject({ listed: true, note: null });
    expect(campaigns.hq.map((x) => x.name)).toEqual([
      'Autumn Appeal',
      'autumn appeal',
      'Phonathon',
      'Raffle',
      'Spring Gala 2026',
      'Winter Drive',
    ]);
    // HQ's Phonathon is shown, marked with the local record that holds it.
    expect(campaigns.hq.find((x) => x.remoteId === at.phonathon)!.linkedTo).toEqual({
      localId: here.phonathonOld,
      name: 'Phonathon 2025',
    });
    expect(campaigns.hq.filter((x) => x.linkedTo !== null)).toHaveLength(1);

    const row = (localId: string | undefined) => c.unlinked.find((u) => u.localId === localId);
    // Linked records are not offered; every unlinked one is, once.
    expect(row(here.phonathonOld)).toBeUndefined();
    expect(row(here.federal)).toBeUndefined();
    expect(c.unlinked).toHaveLength(8);

    expect(row(here.gala)).toMatchObject({
      kind: 'campaign',
      name: 'spring gala 2026',
      suggestedRemoteId: at.gala,
      reason: expect.stringContaining('case or accents'),
    });
    expect(row(here.fonds)).toMatchObject({
      kind: 'donationAccount',
      suggestedRemoteId: at.fonds,
      reason: 'Suggested: HQ’s “Fonds général” (the same name but for case or accents).',
    });
    expect(row(here.host)).toMatchObject({ kind: 'committee', suggestedRemoteId: at.host });
    // Two HQ campaigns of that name: the person chooses.
    expect(row(here.autumn)).toMatchObject({
      suggestedRemoteId: null,
      reason: 'HQ has 2 campaigns named “Autumn Appeal”: choose the one it is (their ids differ).',
    });
    // HQ's only Phonathon belongs to another local record: not suggested.
    expect(row(here.phonathon)).toMatchObject({
      suggestedRemoteId: null,
      reason: expect.stringContaining('linked already to “Phonathon 2025”'),
    });
    // Two local "Raffle"s and one at HQ: neither gets it.
    expect(row(here.raffle1)).toMatchObject({
      suggestedRemoteId: null,
      reason: '2 campaigns here are named “Raffle” and HQ has one: choose which one it is.',
    });
    expect(row(here.raffle2)!.suggestedRemoteId).toBeNull();
    expect(row(here.silent)).toMatchObject({
      suggestedRemoteId: null,
      reason: 'HQ has no campaign named “Silent Auction”: choose the one it is.',
    });
    expect(
      c.kinds.find((k) => k.kind === 'donationAccount')!.hq.find((x) => x.remoteId === at.federal)!.linkedTo,
    ).toEqual({ localId: here.federal, name: 'Federal' });
  });

  it('a suggestion linked through POST /sync/links (checked at HQ) leaves the list and marks HQ’s record taken', async () => {
    proxy.setRule(forwardAll);
    const linked = expectStatus(
      await call('POST', '/api/v1/sync/links', {
        accountId,
        kind: 'campaign',
        localId: here.gala,
        remoteId: at.gala,
      }),
      200,
    );
    expect(linked).toMatchObject({ remoteId: at.gala, remoteName: 'Spring Gala 2026', checked: true });
    const c = await candidates();
    expect(c.unlinked.find((u) => u.localId === here.gala)).toBeUndefined();
    expect(
      c.kinds.find((k) => k.kind === 'campaign')!.hq.find((x) => x.remoteId === at.gala)!.linkedTo,
    ).toEqual({ localId: here.gala, name: 'spring gala 2026' });
    // Choosing a taken record is still refused by the link path.
    const taken = expectStatus(
      await call('POST', '/api/v1/sync/links', {
        accountId,
        kind: 'campaign',
        localId: here.phonathon,
        remoteId: at.phonathon,
      }),
      409,
    );
    expect(taken.code).toBe('remote_id_linked');
  });

  it('a kind HQ does not list (the spec’s HQ: only GET /campaigns/:id) comes back to be typed, with the reason', async () => {
    proxy.setRule((req) => {
      const p = req.path.split('?')[0];
      return req.method === 'GET' &&
        (p === '/api/v1/campaigns' || p === '/api/v1/committees' || p === '/api/v1/donation-accounts')
        ? {
            kind: 'respond',
            status: 404,
            body: JSON.stringify({
              statusCode: 404,
              error: 'Not Found',
              code: 'not_found',
              message: 'Route GET not found',
            }),
            headers: { 'content-type': 'application/json' },
          }
        : { kind: 'forward' };
    });
    const c = await candidates();
    expect(c.kinds.map((k) => [k.kind, k.listed, k.hq.length])).toEqual([
      ['donationAccount', false, 0],
      ['committee', false, 0],
      ['campaign', false, 0],
    ]);
    expect(c.kinds.find((k) => k.kind === 'campaign')!.note).toBe(
      'HQ does not list campaigns (GET /api/v1/campaigns answered 404): type HQ’s id for each one; it is checked at HQ before it is kept.',
    );
    expect(
      c.unlinked.every((u) => u.suggestedRemoteId === null && u.reason.startsWith('HQ does not list')),
    ).toBe(true);
    // The typed fallback still works there: GET /campaigns/:id checks the id.
    expectStatus(
      await call('POST', '/api/v1/sync/links', {
        accountId,
        kind: 'campaign',
        localId: here.silent,
        remoteId: at.winter,
      }),
      200,
    );
  });

  it('HQ failing, refusing the key, or unreachable: a 502 that names the problem, no stack, nothing linked', async () => {
    const linksBefore = expectStatus(await call('GET', `/api/v1/sync/links?accountId=${accountId}`), 200);
    proxy.setRule(() => ({
      kind: 'respond',
      status: 500,
      body: JSON.stringify({
        statusCode: 500,
        error: 'Internal Server Error',
        code: 'internal_error',
        message: 'HQ broke',
      }),
      headers: { 'content-type': 'application/json' },
    }));
    const failed = expectStatus(
      await call('GET', `/api/v1/sync/links/candidates?accountId=${accountId}`),
      502,
    );
    expect(failed).toMatchObject({ statusCode: 502, error: 'Bad Gateway', code: 'remote_failed' });
    expect(failed.message).toMatch(
      /^HQ could not list its donation accounts \(GET \/api\/v1\/donation-accounts answered 500/,
    );

    proxy.setRule(() => ({
      kind: 'respond',
      status: 401,
      body: JSON.stringify({
        statusCode: 401,
        error: 'Unauthorized',
        code: 'invalid_api_key',
        message: 'The API key is not valid',
      }),
      headers: { 'content-type': 'application/json' },
    }));
    const refused = expectStatus(
      await call('GET', `/api/v1/sync/links/candidates?accountId=${accountId}`),
      502,
    );
    expect(refused).toMatchObject({
      code: 'remote_refused',
      message: expect.stringContaining('check the key in the sync settings'),
    });
    expect(refused.message).toContain('The API key is not valid');

    // HQ gone: its address answers nothing.
    const gone = await startFaultProxy({ target: hq.url });
    const deadUrl = gone.url;
    await gone.close();
    await saveRemoteSettings(
      ctx.store,
      keys,
      {
        accountId,
        baseUrl: deadUrl,
        keyId: hq.keyId,
        secret: hq.secret,
        remoteAccountId: hq.accountId,
        ratePerSecond: 100,
      },
      ctx.now(),
    );
    try {
      const unreachable = await call('GET', `/api/v1/sync/links/candidates?accountId=${accountId}`);
      expect(unreachable.status, unreachable.text).toBe(502);
      expect(unreachable.body).toMatchObject({
        code: 'remote_unreachable',
        message: expect.stringMatching(
          /^Could not reach HQ to read its donation accounts \(.*\): nothing was linked\. Try again when HQ answers\.$/,
        ),
      });
      expect(unreachable.text).not.toMatch(/at .*\.ts:\d+|stack/i);
    } finally {
      await saveRemoteSettings(
        ctx.store,
        keys,
        {
          accountId,
          baseUrl: proxy.url,
          keyId: hq.keyId,
          secret: hq.secret,
          remoteAccountId: hq.accountId,
          ratePerSecond: 100,
        },
        ctx.now(),
      );
    }
    expect(expectStatus(await call('GET', `/api/v1/sync/links?accountId=${accountId}`), 200)).toEqual(
      linksBefore,
    );
  });

  it('asks HQ nothing when everything is linked, and refuses bad input at its field', async () => {
    proxy.setRule(forwardAll);
    const other = (await createAccount(ctx, 'Second Laptop')).id;
    const k = await createApiKey(ctx, other, 'app');
    await saveRemoteSettings(
      ctx.store,
      keys,
      {
        accountId: other,
        baseUrl: proxy.url,
        keyId: hq.keyId,
        secret: hq.secret,
        remoteAccountId: hq.accountId,
        ratePerSecond: 100,
      },
      ctx.now(),
    );
    const before = proxy.records.length;
    const empty = await rawRequest(
      `${local.url}/api/v1/sync/links/candidates?accountId=${other}`,
      'GET',
      undefined,
      { 'x-api-key': k.keyId, authorization: `Bearer ${k.secret}` },
    );
    expect(expectStatus(empty, 200)).toEqual({ kinds: [], unlinked: [] });
    expect(proxy.records.length).toBe(before);
    const missing = expectStatus(await call('GET', '/api/v1/sync/links/candidates'), 400);
    expect(missing.details[0].field).toBe('accountId');
    const third = (await createAccount(ctx, 'Not configured')).id;
    const k3 = await createApiKey(ctx, third, 'app');
    const notSetUp = await rawRequest(
      `${local.url}/api/v1/sync/links/candidates?accountId=${third}`,
      'GET',
      undefined,
      { 'x-api-key': k3.keyId, authorization: `Bearer ${k3.secret}` },
    );
    expect(expectStatus(notSetUp, 400)).toMatchObject({ code: 'sync_not_configured' });
  });
});
