/**
 * The last administrator stays: demoting or disabling the account's last enabled
 * administrator is refused (409 last_administrator, the field it would change), over the API
 * and by `giftdesk user set-role|disable` (the sentence, a non-zero exit), and nothing changes.
 * Only people count: the administrator's key the request is made with does not. Two
 * administrators demoted at the same moment leave one. Also the administrator's other tools
 * for the People screen: a new set-password link, and when a person last signed in. Real HTTP,
 * SQLite here and PostgreSQL in the suite's PostgreSQL half.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson, isolatedEnv, runCli } from '../helpers/cli.ts';
import { asNewAccount, expectError, expectStatus } from '../helpers/api-fixtures.ts';
import { rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
const env = isolatedEnv().env;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

/** Where a `giftdesk` command finds this server's database. */
const where = (): string[] => (s.databaseUrl ? ['--database-url', s.databaseUrl] : ['--data-dir', s.dataDir]);

interface Person {
  id: string;
  email: string;
  role: string;
  disabledAt: string | null;
  lastSignInAt: string | null;
}

async function add(a: TestServer, email: string, name: string, role: string): Promise<Person> {
  return expectStatus(
    await a.request('POST', '/api/v1/users', { accountId: a.accountId, email, name, role }),
    201,
  ) as Person;
}

async function people(a: TestServer): Promise<Person[]> {
  return (
    expectStatus(await a.request('GET', `/api/v1/users?accountId=${a.accountId}`), 200) as { data: Person[] }
  ).data;
}

const enabledAdmins = async (a: TestServer) =>
  (await people(a)).filter((p) => p.role === 'administrator' && p.disabledAt === null);

const patch = (a: TestServer, id: string, body: object) =>
  a.request('PATCH', `/api/v1/users/${id}`, { accountId: a.accountId, ...body });

/** Public routes, asked with no key. */
const open = (path: string, body: object) => rawRequest(`${s.url}${path}`, 'POST', body);

async function signIn(email: string, password: string) {
  return expectStatus(await open('/api/v1/sign-in', { email, password }), 201) as {
    keyId: string;
    secret: string;
  };
}

const as = (session: { keyId: string; secret: string }) => ({
  'x-api-key': session.keyId,
  authorization: `Bearer ${session.secret}`,
});

async function setPassword(token: string) {
  expectStatus(await open('/api/v1/set-password', { token, password: PASSWORD }), 200);
}

describe('the last administrator', () => {
  it('cannot be demoted or disabled over the API, though the key asking is an administrator’s', async () => {
    const a = await asNewAccount(s);
    const lukasz = await add(a, 'lukasz@example.org', 'Łukasz Żółć', 'administrator');
    await add(a, 'robert.brown@example.org', 'Robert Brown', 'volunteer');
    await add(a, 'robert.brown@example.com', 'Robert Brown', 'treasurer');

    const demoted = await patch(a, lukasz.id, { role: 'treasurer' });
    expectError(demoted, 409, { code: 'last_administrator', field: 'role' });
    expect(demoted.body.message).toMatch(/^Łukasz Żółć is the last administrator of this account/);
    const disabled = await patch(a, lukasz.id, { disabled: true });
    expectError(disabled, 409, { code: 'last_administrator', field: 'disabled' });
    expect(disabled.body.message).toContain('disabling them');
    expectError(await patch(a, lukasz.id, { role: 'administrator', disabled: true }), 409, {
      code: 'last_administrator',
    });

    const after = (await people(a)).find((p) => p.id === lukasz.id)!;
    expect(after).toMatchObject({ role: 'administrator', disabledAt: null });
  });

  it('keeps a disabled administrator from counting, and lets one go once another is enabled', async () => {
    const a = await asNewAccount(s);
    const first = await add(a, 'robert.brown@example.org', 'Robert Brown', 'administrator');
    const second = await add(a, 'robert.brown@example.net', 'Robert Brown', 'administrator');
    expect((await patch(a, second.id, { disabled: true })).status).toBe(200);
    // The disabled one is no administrator to leave behind.
    expectError(await patch(a, first.id, { role: 'volunteer' }), 409, { code: 'last_administrator' });
    // Enabled again, they are: the first may now go.
    expect((await patch(a, second.id, { disabled: false })).status).toBe(200);
    expect(expectStatus(await patch(a, first.id, { role: 'volunteer' }), 200)).toMatchObject({
      role: 'volunteer',
    });
    expectError(await patch(a, second.id, { disabled: true }), 409, { code: 'last_administrator' });
    expect((await enabledAdmins(a)).map((p) => p.id)).toEqual([second.id]);
    // A change that leaves their administration alone is not refused.
    expect((await patch(a, second.id, { role: 'administrator' })).status).toBe(200);
  });

  it('is refused by `giftdesk user set-role` and `user disable` with the sentence and a non-zero exit', async () => {
    const a = await asNewAccount(s);
    await add(a, 'Lukasz.Zolc@example.org', 'Łukasz Żółć', 'administrator');
    const account = ['--account', a.accountId, '--email', 'lukasz.zolc@example.org'];
    const demote = await runCli(['user', 'set-role', ...where(), ...account, '--role', 'coordinator'], env);
    expect(demote.status).not.toBe(0);
    expect(demote.stderr).toContain(
      'Łukasz Żółć is the last administrator of this account: demoting them would leave no one to manage its people.',
    );
    const disable = await runCli(['user', 'disable', ...where(), ...account], env);
    expect(disable.status).not.toBe(0);
    expect(disable.stderr).toContain('disabling them would leave no one to manage its people');
    expect(await enabledAdmins(a)).toHaveLength(1);

    await add(a, 'robert.brown@example.org', 'Robert Brown', 'administrator');
    const ok = await cliJson(
      ['user', 'set-role', ...where(), ...account, '--role', 'coordinator', '--json'],
      env,
    );
    expect(ok).toMatchObject({ role: 'coordinator' });
  });

  it('two administrators demoted at the same moment: one is refused, one administrator is left', async () => {
    const a = await asNewAccount(s);
    let kept = await add(a, 'robert.brown@example.org', 'Robert Brown', 'administrator');
    for (let round = 0; round < 12; round++) {
      const fresh = await add(a, `robert.brown+${round}@example.org`, 'Robert Brown', 'administrator');
      const both = [kept, fresh];
      // Each round alternates between disabling and demoting, and which one is asked first.
      const body = round % 2 === 0 ? { role: 'volunteer' } : { disabled: true };
      const answers = await Promise.all(
        (round % 4 < 2 ? both : [...both].reverse()).map((p) => patch(a, p.id, body)),
      );
      expect(answers.map((r) => r.status).sort(), answers.map((r) => r.text).join('\n')).toEqual([200, 409]);
      const left = await enabledAdmins(a);
      expect(left).toHaveLength(1);
      kept = left[0]!;
    }
  });
});

describe("the administrator's other tools", () => {
  it('a new set-password link works once and ends the one before; the list shows when a person last signed in', async () => {
    const a = await asNewAccount(s);
    const made = expectStatus(
      await a.request('POST', '/api/v1/users', {
        accountId: a.accountId,
        email: 'Robert.Brown@example.org',
        name: 'Robert Brown',
        role: 'treasurer',
      }),
      201,
    );
    expect(made.lastSignInAt).toBeNull();
    const again = await a.request('POST', `/api/v1/users/${made.id}/password-link`, {});
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('cache-control')).toBe('no-store');
    expect(again.body).toMatchObject({ id: made.id, email: 'Robert.Brown@example.org' });
    expect(again.body.setPasswordToken).toMatch(/^gdp_/);
    expect(again.body.setPasswordToken).not.toBe(made.setPasswordToken);
    expectError(
      await open('/api/v1/set-password', { token: made.setPasswordToken, password: PASSWORD }),
      400,
      { field: 'token' },
    );
    await setPassword(again.body.setPasswordToken);
    const session = await signIn('robert.brown@example.org', PASSWORD);
    const listed = (await people(a)).find((p) => p.id === made.id)!;
    expect(listed.lastSignInAt).not.toBeNull();

    // A treasurer's session may not make links (nor see the people).
    expectError(await a.request('POST', `/api/v1/users/${made.id}/password-link`, {}, as(session)), 403, {
      code: 'role_forbidden',
    });
    expectError(await a.request('POST', '/api/v1/users/user_nobody/password-link', {}), 404, { field: 'id' });
  });
});
