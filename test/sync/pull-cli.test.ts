/**
 * `giftdesk sync pull`, `sync link` and `sync links` as people and scripts run them: a child
 * process over a temp data folder whose account syncs to a real HQ (a second GiftDesk server
 * on 127.0.0.1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createContext } from '../../electron/domain/context.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { saveRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { keyFileSource } from '../../electron/sync/remote/secret-box.ts';
import { makeCampaign } from '../helpers/api-fixtures.ts';
import { cliJson, isolatedEnv, oneJsonObject, runCli } from '../helpers/cli.ts';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.ts';

let hq: TestServer;
let dataDir: string;
let accountId: string;
let localCampaign: string;
let hqCampaign: string;
const { env } = isolatedEnv();

beforeAll(async () => {
  hq = await startTestServer();
  hqCampaign = (await makeCampaign(hq, 'Spring Gala')).id;
  for (let i = 0; i < 120; i++)
    await createContact(hq.ctx, {
      accountId: hq.accountId,
      firstName: `Hq${i}`,
      lastName: 'Donor',
      primaryEmail: `hq${i}@hq.example`,
    });
  dataDir = tempDir();
  const store = await openStore({ dataDir });
  const ctx = createContext(store);
  accountId = (await createAccount(ctx, 'Event Laptop')).id;
  localCampaign = (await createCampaign(ctx, { accountId, name: 'Gala (typed at the event)' })).id;
  await saveRemoteSettings(
    store,
    keyFileSource(dataDir),
    {
      accountId,
      baseUrl: hq.url,
      keyId: hq.keyId,
      secret: hq.secret,
      remoteAccountId: hq.accountId,
      ratePerSecond: 50,
    },
    ctx.now(),
  );
  await store.close();
}, 60_000);
afterAll(async () => {
  await hq?.close();
});

describe('giftdesk sync pull', () => {
  it("prints the run: HQ's contacts added, pages done of pages total", async () => {
    const run = await cliJson(['sync', 'pull', '--data-dir', dataDir], env);
    expect(run).toMatchObject({
      status: 'done',
      pagesDone: 2,
      pagesTotal: 2,
      counts: { created: 120, reference: 1 },
    });
    const again = await cliJson(['sync', 'pull', '--data-dir', dataDir, '--account', accountId], env);
    expect(again).toMatchObject({ status: 'done', counts: { created: 0, unchanged: 120 } });
  }, 60_000);

  it('says what to do when the account does not sync', async () => {
    // A folder with an account that has no HQ settings (a folder with no database at all is
    // refused before that: test/cli/data-folder.test.ts).
    const folder = tempDir();
    const made = await runCli(['account', 'create', '--name', 'Not syncing', '--data-dir', folder], env);
    expect(made.status, made.stderr).toBe(0);
    const r = await runCli(['sync', 'pull', '--data-dir', folder, '--json'], env);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stderr).error).toMatchObject({
      code: 'sync_not_configured',
      message: expect.stringContaining('giftdesk sync configure'),
    });
  });
});

describe('giftdesk sync link', () => {
  it('refuses an HQ id that HQ does not have, and links one it has', async () => {
    const wrong = await runCli(
      [
        'sync',
        'link',
        '--data-dir',
        dataDir,
        '--campaign',
        localCampaign,
        '--remote',
        'cmp_01WRONG',
        '--json',
      ],
      env,
    );
    expect(wrong.status).toBe(1);
    expect(wrong.stdout).toBe('');
    expect(JSON.parse(wrong.stderr).error).toMatchObject({
      code: 'remote_not_found',
      message: expect.stringContaining('HQ has no campaign cmp_01WRONG'),
    });

    // The pull linked HQ's "Spring Gala" to a campaign of its own; this local one takes
    // HQ's id only if that link is removed first.
    const taken = await runCli(
      ['sync', 'link', '--data-dir', dataDir, '--campaign', localCampaign, '--remote', hqCampaign, '--json'],
      env,
    );
    expect(JSON.parse(taken.stderr).error.code).toBe('remote_id_linked');
    const links = await cliJson(['sync', 'links', '--data-dir', dataDir], env);
    const pulled = (links.data as Array<{ localId: string; name: string; remoteId: string | null }>).find(
      (l) => l.remoteId === hqCampaign,
    )!;
    expect(pulled.name).toBe('Spring Gala');
    expect(
      await cliJson(['sync', 'link', '--data-dir', dataDir, '--campaign', pulled.localId, '--unlink'], env),
    ).toMatchObject({ unlinked: true });

    const ok = await runCli(
      ['sync', 'link', '--data-dir', dataDir, '--campaign', localCampaign, '--remote', hqCampaign, '--json'],
      env,
    );
    expect(ok.status, ok.stderr).toBe(0);
    expect(oneJsonObject(ok)).toEqual({
      kind: 'campaign',
      localId: localCampaign,
      remoteId: hqCampaign,
      remoteName: 'Spring Gala',
      replaced: null,
      checked: true,
    });
    const human = await runCli(['sync', 'links', '--data-dir', dataDir], env);
    expect(human.stdout).toContain(`${localCampaign}  Gala (typed at the event)  →  ${hqCampaign}`);
  });

  it('asks for exactly one kind of record', async () => {
    const r = await runCli(['sync', 'link', '--data-dir', dataDir, '--remote', hqCampaign, '--json'], env);
    expect(r.status).toBe(64);
    expect(JSON.parse(r.stderr).error.message).toContain(
      'exactly one of --campaign, --committee or --donation-account',
    );
  });
});
