/**
 * The giftdesk command line, as scripts rely on it: every command in the table of docs/scripts.md
 * works as listed; with --json it prints exactly one JSON object on stdout; failures go to
 * stderr with a non-zero exit and a clear message; every command honours --data-dir and
 * GIFTDESK_DATA_DIR; and commands are safe to run while `serve` has the same file open.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type CliResult,
  cliJson,
  filesUnder,
  isolatedEnv,
  oneJsonObject,
  runCli,
  type ServeChild,
  startServe,
} from '../helpers/cli.ts';
import { rawRequest, tempDir } from '../helpers/server.ts';

const cleanup: string[] = [];
const children: ServeChild[] = [];
afterAll(() => {
  for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  for (const d of cleanup) fs.rmSync(d, { recursive: true, force: true });
});
function dir(): string {
  const d = tempDir('giftdesk-cli-');
  cleanup.push(d);
  return d;
}
function env(extra: Record<string, string> = {}) {
  const e = isolatedEnv(extra);
  cleanup.push(e.home);
  return e;
}
const STACK = /\n\s+at .+[:(]/;

describe('every command, with GIFTDESK_DATA_DIR and --json', () => {
  it('works as listed and prints exactly one JSON object', async () => {
    const data = dir();
    const { env: e, home } = env({ GIFTDESK_DATA_DIR: data });
    const run = (...args: string[]) => cliJson(args, e);

    const account = await run('account', 'create', '--name', 'Friends of the Library');
    expect(account).toEqual({ id: expect.stringMatching(/^acct_/) });
    const accountId = account.id as string;

    const key = await run('key', 'create', '--account', accountId);
    expect(key).toEqual({
      keyId: expect.stringMatching(/^gdk_/),
      secret: expect.stringMatching(/^gds_/),
      accountId,
      role: 'administrator',
    });
    const desk = await run(
      'key',
      'create',
      '--account',
      accountId,
      '--role',
      'volunteer',
      '--label',
      'front desk',
    );
    expect(desk).toMatchObject({ accountId, role: 'volunteer' });
    const keyList = (await run('key', 'list', '--account', accountId)) as {
      data: Array<{ keyId: string; role: string; label: string | null }>;
    };
    expect(keyList.data.map((k) => [k.keyId, k.role, k.label]).sort()).toEqual(
      [
        [key.keyId, 'administrator', null],
        [desk.keyId, 'volunteer', 'front desk'],
      ].sort(),
    );

    const dac = await run(
      'donation-account',
      'create',
      '--account',
      accountId,
      '--name',
      'Federal',
      '--per-election',
      '3300',
      '--per-cycle',
      '6600.50',
      '--per-year',
      '10000.00',
      '--per-donor',
      '25000',
    );
    expect(dac).toEqual({ id: expect.stringMatching(/^dac_/) });
    const campaign = await run(
      'campaign',
      'create',
      '--account',
      accountId,
      '--name',
      'Gala 2026',
      '--donation-account',
      dac.id as string,
    );
    expect(campaign).toEqual({ id: expect.stringMatching(/^cmp_/) });
    const committee = await run('committee', 'create', '--account', accountId, '--name', 'Friends PAC');
    expect(committee).toEqual({ id: expect.stringMatching(/^cmt_/) });
    const field = await run(
      'field',
      'create',
      '--account',
      accountId,
      '--name',
      'Tier',
      '--type',
      'picklist',
      '--option',
      'Gold',
      '--option',
      'Silver',
    );
    expect(field).toEqual({ id: expect.stringMatching(/^cf_/) });
    const retired = await run(
      'field',
      'retire-option',
      '--account',
      accountId,
      '--name',
      'tier',
      '--option',
      'silver',
    );
    expect(retired).toMatchObject({
      id: field.id,
      name: 'Tier',
      type: 'picklist',
      archived: false,
      options: [
        { name: 'Gold', retired: false },
        { name: 'Silver', retired: true },
      ],
    });
    const archived = await run('field', 'archive', '--account', accountId, '--name', 'Tier');
    expect(archived).toMatchObject({ id: field.id, archived: true });
    expect(await run('flags', '--account', accountId)).toEqual({ flagged: [] });
    expect(await run('key', 'revoke', '--key', key.keyId as string)).toEqual({
      keyId: key.keyId,
      revoked: true,
    });

    // All of it went to GIFTDESK_DATA_DIR, nothing to the per-user default folder.
    expect(fs.existsSync(path.join(data, 'giftdesk.sqlite'))).toBe(true);
    expect(filesUnder(home)).toEqual([]);
  });

  it('prints words for people without --json', async () => {
    const data = dir();
    const { env: e } = env({ GIFTDESK_DATA_DIR: data });
    const r = await runCli(['account', 'create', '--name', 'Plain'], e);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Created account acct_\w+\n$/);
  });

  it('prefers --data-dir over GIFTDESK_DATA_DIR', async () => {
    const chosen = dir();
    const ignored = dir();
    const { env: e } = env({ GIFTDESK_DATA_DIR: ignored });
    const { id } = await cliJson(['account', 'create', '--name', 'Here', '--data-dir', chosen], e);
    const found = await runCli(
      ['committee', 'create', '--account', id as string, '--name', 'C', '--data-dir', chosen, '--json'],
      e,
    );
    expect(found.status).toBe(0);
    const missing = await runCli(
      ['committee', 'create', '--account', id as string, '--name', 'C', '--json'],
      e,
    );
    expect(missing.status).not.toBe(0); // the env's folder has no such account
  });
});

describe('while `serve` has the same database open', () => {
  it('creates keys, reference data and fields the running server uses at once, and revokes keys', async () => {
    const data = dir();
    const { env: e, home } = env({ GIFTDESK_DATA_DIR: data }); // serve finds the folder through the env
    const { env: cliEnv } = env(); // the commands through --data-dir
    const run = (...args: string[]) => cliJson([...args, '--data-dir', data], cliEnv);
    const { id: accountId } = (await run('account', 'create', '--name', 'Live Org')) as { id: string };

    const server = await startServe([], e);
    children.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const key = (await run('key', 'create', '--account', accountId)) as { keyId: string; secret: string };
    const auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
    const api = (method: string, p: string, body?: unknown) =>
      rawRequest(`${server.url}/api/v1${p}`, method, body, auth);
    const account = await api('GET', `/account?accountId=${accountId}`);
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ id: accountId, name: 'Live Org' });

    const { id: dacId } = (await run(
      'donation-account',
      'create',
      '--account',
      accountId,
      '--name',
      'Federal',
      '--per-donor',
      '100',
    )) as { id: string };
    const { id: campaignId } = (await run(
      'campaign',
      'create',
      '--account',
      accountId,
      '--name',
      'Gala',
      '--donation-account',
      dacId,
    )) as { id: string };
    const { id: committeeId } = (await run(
      'committee',
      'create',
      '--account',
      accountId,
      '--name',
      'PAC',
    )) as { id: string };
    await run(
      'field',
      'create',
      '--account',
      accountId,
      '--name',
      'Shirt',
      '--type',
      'picklist',
      '--option',
      'S',
      '--option',
      'M',
    );
    await run('field', 'retire-option', '--account', accountId, '--name', 'Shirt', '--option', 'S');

    const campaign = await api('GET', `/campaigns/${campaignId}?accountId=${accountId}`);
    expect(campaign.body).toMatchObject({
      id: campaignId,
      name: 'Gala',
      donationAccounts: [{ id: dacId, name: 'Federal' }],
    });
    expect((await api('GET', `/committees?accountId=${accountId}`)).body.data).toEqual([
      expect.objectContaining({ id: committeeId, name: 'PAC' }),
    ]);
    expect((await api('GET', `/donation-accounts?accountId=${accountId}`)).body.data).toEqual([
      expect.objectContaining({
        id: dacId,
        limits: { perElection: null, perCycle: null, perYear: null, perDonor: 100 },
      }),
    ]);

    // The field's rules apply to the API at once: a retired option is refused, an active one saved.
    const contact = await api('POST', '/contacts', {
      accountId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      customFields: { shirt: 'M' },
    });
    expect(contact.status).toBe(201);
    expect(contact.body.customFields).toEqual({ Shirt: 'M' });
    const retired = await api('PUT', `/contacts/${contact.body.id}`, { customFields: { Shirt: 'S' } });
    expect(retired.status).toBe(400);

    // A gift over the donation account's limit is flagged, and `flags` shows it.
    const gift = await api('POST', '/donations', {
      accountId,
      contactId: contact.body.id,
      donationAmount: 150,
      donationDate: '2026-03-01',
      paymentMethod: 'check',
      campaignId,
      donationAccountId: dacId,
    });
    expect(gift.status).toBe(201);
    const flags = (await run('flags', '--account', accountId)) as { flagged: Array<Record<string, unknown>> };
    expect(flags.flagged).toEqual([
      expect.objectContaining({
        donationId: gift.body.id,
        limitKind: 'per_donor',
        limit: 100,
        donorTotal: 150,
        state: 'open',
      }),
    ]);

    await run('key', 'revoke', '--key', key.keyId);
    expect((await api('GET', `/account?accountId=${accountId}`)).status).toBe(401);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(filesUnder(home)).toEqual([]);
  });
});

describe('failures', () => {
  /** Runs every case side by side (each is its own process). */
  async function all(cases: Array<{ args: string[]; env: NodeJS.ProcessEnv }>): Promise<CliResult[]> {
    const out: CliResult[] = [];
    for (let i = 0; i < cases.length; i += 3)
      out.push(...(await Promise.all(cases.slice(i, i + 3).map((c) => runCli(c.args, c.env)))));
    return out;
  }

  it('go to stderr with a non-zero exit and a message that says what is wrong', async () => {
    const data = dir();
    const { env: e } = env({ GIFTDESK_DATA_DIR: data });
    const { id: accountId } = (await cliJson(['account', 'create', '--name', 'Err Org'], e)) as {
      id: string;
    };
    await cliJson(
      ['field', 'create', '--account', accountId, '--name', 'Tier', '--type', 'picklist', '--option', 'Gold'],
      e,
    );

    // `human`: also run without --json (the words people read); the rest only with --json.
    const cases: Array<{ args: string[]; exit: number; code: string; says: RegExp; human?: boolean }> = [
      { args: ['account', 'create'], exit: 64, code: 'usage', says: /--name/, human: true },
      {
        args: ['account', 'create', '--name', '   '],
        exit: 1,
        code: 'validation_failed',
        says: /name must not be empty/,
      },
      {
        args: ['key', 'create', '--account', accountId, '--role', 'boss'],
        exit: 64,
        code: 'usage',
        says: /"boss" is not a role \(one of: volunteer, coordinator, treasurer, administrator\)/,
        human: true,
      },
      {
        args: ['key', 'create', '--account', 'acct_nope'],
        exit: 1,
        code: 'account_not_found',
        says: /Account acct_nope was not found/,
      },
      {
        args: ['key', 'revoke', '--key', 'gdk_nope'],
        exit: 1,
        code: 'api_key_not_found',
        says: /gdk_nope was not found/,
      },
      {
        args: ['campaign', 'create', '--account', 'acct_nope', '--name', 'X'],
        exit: 1,
        code: 'account_not_found',
        says: /Account acct_nope was not found/,
        human: true,
      },
      {
        args: ['campaign', 'create', '--account', accountId, '--name', 'X', '--donation-account', 'dac_nope'],
        exit: 1,
        code: 'donation_account_not_found',
        says: /dac_nope was not found/,
      },
      {
        args: ['committee', 'create', '--account', 'acct_nope', '--name', 'X'],
        exit: 1,
        code: 'account_not_found',
        says: /Account acct_nope was not found/,
      },
      {
        args: ['donation-account', 'create', '--account', 'acct_nope', '--name', 'X'],
        exit: 1,
        code: 'account_not_found',
        says: /Account acct_nope was not found/,
      },
      {
        args: ['donation-account', 'create', '--account', accountId, '--name', 'X', '--per-election', 'abc'],
        exit: 64,
        code: 'usage',
        says: /--per-election.*"abc" is not an amount in dollars/,
        human: true,
      },
      {
        args: ['donation-account', 'create', '--account', accountId, '--name', 'X', '--per-cycle', '12.345'],
        exit: 64,
        code: 'usage',
        says: /"12.345" is not an amount in dollars/,
      },
      {
        args: ['field', 'create', '--account', accountId, '--name', 'Color', '--type', 'colour'],
        exit: 1,
        code: 'validation_failed',
        says: /type must be one of: text, number, date, picklist/,
      },
      {
        args: ['field', 'create', '--account', accountId, '--name', 'Size', '--type', 'picklist'],
        exit: 1,
        code: 'validation_failed',
        says: /options/,
      },
      {
        args: ['field', 'create', '--account', accountId, '--name', 'tier', '--type', 'text'],
        exit: 1,
        code: 'custom_field_exists',
        says: /already exists/,
      },
      {
        args: ['field', 'create', '--account', 'acct_nope', '--name', 'X', '--type', 'text'],
        exit: 1,
        code: 'account_not_found',
        says: /Account acct_nope was not found/,
      },
      {
        args: ['field', 'retire-option', '--account', accountId, '--name', 'Tier', '--option', 'Platinum'],
        exit: 1,
        code: 'option_not_found',
        says: /no option "Platinum"/,
      },
      {
        args: ['field', 'retire-option', '--account', accountId, '--name', 'Nope', '--option', 'Gold'],
        exit: 1,
        code: 'custom_field_not_found',
        says: /"Nope" was not found/,
      },
      {
        args: ['field', 'archive', '--account', 'acct_nope', '--name', 'Tier'],
        exit: 1,
        code: 'account_not_found',
        says: /Account acct_nope was not found/,
      },
      {
        args: ['flags', '--account', 'acct_nope'],
        exit: 1,
        code: 'account_not_found',
        says: /Account acct_nope was not found/,
      },
      {
        args: ['serve', '--port', '99999'],
        exit: 64,
        code: 'usage',
        says: /--port must be a whole number from 0 to 65535/,
        human: true,
      },
      { args: ['frobnicate'], exit: 64, code: 'usage', says: /unknown command 'frobnicate'/, human: true },
      {
        args: ['account', 'create', '--name', 'X', '--colour', 'blue'],
        exit: 64,
        code: 'usage',
        says: /unknown option '--colour'/,
      },
    ];
    const json = await all(cases.map((c) => ({ args: [...c.args, '--json'], env: e })));
    const humanCases = cases.filter((c) => c.human);
    const human = new Map(
      (await all(humanCases.map((c) => ({ args: c.args, env: e })))).map((r, i) => [humanCases[i]!, r]),
    );
    cases.forEach((c, i) => {
      const what = `giftdesk ${c.args.join(' ')}`;
      const j = json[i]!;
      expect(j.status, `${what} --json\n${j.stderr}`).toBe(c.exit);
      expect(j.stdout, what).toBe('');
      const err = oneJsonObject({ ...j, stdout: j.stderr }) as { error: { code: string; message: string } };
      expect(err.error.code, what).toBe(c.code);
      expect(err.error.message, what).toMatch(c.says);
      const h = human.get(c);
      if (!h) return;
      expect(h.status, `${what}\n${h.stderr}`).toBe(c.exit);
      expect(h.stdout, what).toBe('');
      expect(h.stderr, what).toMatch(/^giftdesk: /m);
      expect(h.stderr, what).toMatch(c.says);
      expect(h.stderr, what).not.toMatch(STACK);
      expect(h.stderr, what).not.toMatch(/FOREIGN KEY|SQLITE_/);
    });

    // Nothing any failing command tried was saved.
    const db = new BetterSqlite3(path.join(data, 'giftdesk.sqlite'), { readonly: true });
    try {
      const count = (table: string) =>
        (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
      expect({
        accounts: count('accounts'),
        apiKeys: count('api_keys'),
        campaigns: count('campaigns'),
        committees: count('committees'),
        donationAccounts: count('donation_accounts'),
        customFields: count('custom_fields'),
      }).toEqual({
        accounts: 1,
        apiKeys: 0,
        campaigns: 0,
        committees: 0,
        donationAccounts: 0,
        customFields: 1,
      });
    } finally {
      db.close();
    }
  }, 240_000); // many CLI processes, each a Node start: slow on a loaded 2-core machine

  it('a missing subcommand shows the commands and exits non-zero; --help exits 0', async () => {
    const { env: e } = env({ GIFTDESK_DATA_DIR: dir() });
    const [missing, help] = await Promise.all([runCli(['account'], e), runCli(['--help'], e)]);
    expect(missing.status).toBe(64);
    expect(missing.stderr).toMatch(/create/);
    expect(missing.stderr).toMatch(/a command is missing/);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: giftdesk/);
  });
});

describe.runIf(fs.existsSync(path.resolve('electron/cli/demo/demo.ts')))('serve --demo', () => {
  it('seeds a demo organisation into an empty folder and prints its key on stderr', async () => {
    const { env: e } = env({ GIFTDESK_DATA_DIR: dir() });
    const server = await startServe(['--demo'], e);
    children.push(server);
    await server.waitForLog(/Authorization: Bearer/);
    const m = /Demo organisation (acct_\w+)\s+X-API-Key: (gdk_\w+)\s+Authorization: Bearer (\S+)/.exec(
      server.stderr(),
    );
    expect(m).not.toBeNull();
    const [, accountId, keyId, secret] = m!;
    const r = await rawRequest(`${server.url}/api/v1/contacts?accountId=${accountId}`, 'GET', undefined, {
      'x-api-key': keyId!,
      authorization: `Bearer ${secret}`,
    });
    expect(r.status).toBe(200);
    expect(r.body.total).toBeGreaterThan(0);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
