/**
 * The pull and link routes of a local GiftDesk server (the app's face): POST /sync/pull runs
 * in the background and GET /sync/pull shows pages done of pages total; POST /sync/links
 * checks the HQ id at HQ (a second GiftDesk server on 127.0.0.1) before it stores it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createContext } from '../../electron/domain/context.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { startServer, type RunningServer } from '../../electron/server/serve.ts';
import { saveRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { envKeySource } from '../../electron/sync/remote/secret-box.ts';
import { expectStatus, makeCampaign } from '../helpers/api-fixtures.ts';
import { rawRequest, startTestServer, tempDir, type TestServer } from '../helpers/server.ts';

const keys = envKeySource({ GIFTDESK_SYNC_KEY: '9'.repeat(64) })!;
let hq: TestServer;
let local: RunningServer;
let accountId: string;
let auth: Record<string, string>;
let localCampaign: string;
let hqCampaign: string;

const call = (method: string, path: string, body?: unknown) =>
  rawRequest(`${local.url}${path}`, method, body, auth);

beforeAll(async () => {
  hq = await startTestServer();
  hqCampaign = (await makeCampaign(hq, 'Spring Gala')).id;
  for (let i = 0; i < 150; i++)
    await createContact(hq.ctx, { accountId: hq.accountId, firstName: `Hq${i}`, lastName: 'Donor' });
  const store = await openStore({ dataDir: tempDir() });
  const ctx = createContext(store);
  accountId = (await createAccount(ctx, 'Event Laptop')).id;
  const key = await createApiKey(ctx, accountId, 'app');
  auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
  localCampaign = (await createCampaign(ctx, { accountId, name: 'Gala' })).id;
  await saveRemoteSettings(
    store,
    keys,
    {
      accountId,
      baseUrl: hq.url,
      keyId: hq.keyId,
      secret: hq.secret,
      remoteAccountId: hq.accountId,
      ratePerSecond: 100,
    },
    ctx.now(),
  );
  local = await startServer({ store, port: 0, sync: { keys, run: false } });
}, 60_000);
afterAll(async () => {
  await local?.close();
  await hq?.close();
});

describe('POST and GET /sync/pull', () => {
  it('starts a pull in the background and shows its progress until it is done', async () => {
    expect(expectStatus(await call('GET', `/api/v1/sync/pull?accountId=${accountId}`), 200)).toEqual({
      run: null,
    });
    const started = expectStatus(await call('POST', '/api/v1/sync/pull', { accountId }), 202);
    expect(started).toMatchObject({ status: 'running', pagesDone: 0 });
    let run = started;
    // Until it is no longer running, however long a loaded machine takes (the test's timeout bounds it).
    while (run.status === 'running') {
      await new Promise((r) => setTimeout(r, 100));
      run = expectStatus(await call('GET', `/api/v1/sync/pull?accountId=${accountId}`), 200).run;
    }
    expect(run).toMatchObject({
      id: started.id,
      status: 'done',
      pagesDone: 2,
      pagesTotal: 2,
      counts: { created: 150 },
    });
    const list = expectStatus(await call('GET', `/api/v1/contacts?accountId=${accountId}&limit=1`), 200);
    expect(list.total).toBe(150);
  });
});

describe('GET and POST /sync/links', () => {
  it("refuses an HQ id HQ does not have (400 with HQ's answer) and links one it has", async () => {
    // The pull linked HQ's Spring Gala to a local copy; "Gala" (typed here) is not linked.
    const links = expectStatus(await call('GET', `/api/v1/sync/links?accountId=${accountId}`), 200)
      .data as Array<{ localId: string; name: string; remoteId: string | null }>;
    expect(links.find((l) => l.localId === localCampaign)).toMatchObject({ name: 'Gala', remoteId: null });
    const wrong = expectStatus(
      await call('POST', '/api/v1/sync/links', {
        accountId,
        kind: 'campaign',
        localId: localCampaign,
        remoteId: 'cmp_01WRONG',
      }),
      400,
    );
    expect(wrong).toMatchObject({
      code: 'remote_not_found',
      message: expect.stringContaining('HQ has no campaign cmp_01WRONG'),
    });
    const taken = expectStatus(
      await call('POST', '/api/v1/sync/links', {
        accountId,
        kind: 'campaign',
        localId: localCampaign,
        remoteId: hqCampaign,
      }),
      409,
    );
    expect(taken.code).toBe('remote_id_linked');
    const bad = expectStatus(
      await call('POST', '/api/v1/sync/links', {
        accountId,
        kind: 'region',
        localId: localCampaign,
        remoteId: 'x',
      }),
      400,
    );
    expect(bad.details[0].field).toBe('kind');
  });
});
