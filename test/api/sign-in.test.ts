/**
 * People signing in to a shared server: the one-time set-password link, POST /sign-in and its
 * throttle (per source address, never a lock-out by email), the session ending at sign-out,
 * after 12 hours unused, and at the person's next request once disabled; a new role read at
 * the next request. Real HTTP on 127.0.0.1 from several loopback source addresses
 * (127.0.0.x), the server's clock moved by the test (no sleeping).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, issuePasswordToken } from '../../electron/domain/accounts/index.ts';
import { cliJson, isolatedEnv, runCli } from '../helpers/cli.ts';
import { expectError, expectStatus } from '../helpers/api-fixtures.ts';
import { type ApiResponse, startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let clock = Date.now();
const now = () => new Date(clock).toISOString();
const env = isolatedEnv().env;
const PASSWORD = 'correct horse battery';

/** A request from the loopback source address 127.0.0.`host` (a person at another desk). */
const from = (
  host: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => fromTo(s.url, host, method, path, body, headers);

function fromTo(
  base: string,
  host: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const url = new URL(`${base}${path}`);
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: `127.0.0.${host}`,
        headers: { ...(data ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          const hs = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') hs.set(k, v);
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: hs, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const signIn = (host: number, email: string, password: string) =>
  from(host, 'POST', '/api/v1/sign-in', { email, password });

const as = (session: { keyId: string; secret: string }) => ({
  'x-api-key': session.keyId,
  authorization: `Bearer ${session.secret}`,
});

/** Where a `giftdesk` command finds this server's database (its data folder, or PostgreSQL). */
const where = (): string[] => (s.databaseUrl ? ['--database-url', s.databaseUrl] : ['--data-dir', s.dataDir]);

async function person(email: string, name = 'Robert Brown', role = 'volunteer') {
  return addUser(s.ctx, { accountId: s.accountId, email, name, role, password: PASSWORD });
}

beforeAll(async () => {
  s = await startTestServer({ now });
});
afterAll(async () => {
  await s?.close();
});

describe('the set-password link', () => {
  it('is printed once by `user add`, sets the password once, and the person signs in with any case of their email', async () => {
    const added = await cliJson(
      [
        'user',
        'add',
        ...where(),
        '--account',
        s.accountId,
        '--email',
        ' Lukasz.Zolc@Example.org ',
        '--name',
        'Łukasz Żółć',
        '--role',
        'treasurer',
      ],
      env,
    );
    expect(added).toMatchObject({
      email: 'Lukasz.Zolc@Example.org',
      name: 'Łukasz Żółć',
      role: 'treasurer',
      passwordSet: false,
    });
    const token = new URL(String(added.setPasswordLink)).hash.replace('#set-password=', '');
    expect(token).toMatch(/^gdp_/);
    // Before a password is set, nothing signs in.
    expectError(await signIn(30, 'lukasz.zolc@example.org', ''), 400, { field: 'password' });
    // Too short: refused naming the field, and the link still works after.
    expectError(await from(30, 'POST', '/api/v1/set-password', { token, password: 'short' }), 400, {
      field: 'password',
    });
    expectStatus(await from(30, 'POST', '/api/v1/set-password', { token, password: PASSWORD }), 200);
    // Once only.
    expectError(
      await from(30, 'POST', '/api/v1/set-password', { token, password: 'another long one' }),
      400,
      {
        code: 'token_not_valid',
        field: 'token',
      },
    );
    const session = expectStatus(await signIn(30, '  LUKASZ.ZOLC@example.org ', PASSWORD), 201);
    expect(session).toMatchObject({
      accountId: s.accountId,
      role: 'treasurer',
      user: { name: 'Łukasz Żółć' },
    });
    expect(session.secret).not.toBe(PASSWORD);
    const me = expectStatus(await from(30, 'GET', '/api/v1/me', undefined, as(session)), 200);
    expect(me).toMatchObject({
      session: 'sign-in',
      role: 'treasurer',
      user: { id: added.id, name: 'Łukasz Żółć' },
    });
  });

  it('`user password-link` makes a new link (the older one stops working); `user list` shows the people, never a hash', async () => {
    const u = await addUser(s.ctx, {
      accountId: s.accountId,
      email: 'forgot@example.org',
      name: 'Robert Brown',
      role: 'volunteer',
    });
    const { token: first } = await issuePasswordToken(s.ctx, s.accountId, u.id);
    const fresh = await cliJson(
      ['user', 'password-link', ...where(), '--account', s.accountId, '--email', 'FORGOT@example.org'],
      env,
    );
    const token = new URL(String(fresh.setPasswordLink)).hash.replace('#set-password=', '');
    expectError(await from(32, 'POST', '/api/v1/set-password', { token: first, password: PASSWORD }), 400, {
      field: 'token',
    });
    expectStatus(await from(32, 'POST', '/api/v1/set-password', { token, password: PASSWORD }), 200);
    const list = await cliJson(['user', 'list', ...where(), '--account', s.accountId], env);
    const rows = list.data as Array<{ email: string; passwordSet: boolean }>;
    expect(rows.find((r) => r.email === 'forgot@example.org')).toMatchObject({ passwordSet: true });
    expect(JSON.stringify(list)).not.toMatch(/scrypt|passwordHash|gdp_/);
  });

  it('expires after 24 hours', async () => {
    const u = await addUser(s.ctx, {
      accountId: s.accountId,
      email: 'late@example.org',
      name: 'Late',
      role: 'volunteer',
    });
    const { token } = await issuePasswordToken(s.ctx, s.accountId, u.id);
    clock += 24 * 60 * 60 * 1000;
    expectError(await from(31, 'POST', '/api/v1/set-password', { token, password: PASSWORD }), 400, {
      field: 'token',
    });
  });
});

describe('wrong passwords', () => {
  it('20 wrong from one address: that address waits the time it was told, another address signs in at once', async () => {
    await person('robert.brown@example.org');
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 20; i++)
      answers.push(await signIn(2, 'robert.brown@example.org', `wrong guess ${i}`));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    for (const a of answers.slice(5)) expectError(a, 429, { code: 'sign_in_throttled' });
    const last = answers[19]!;
    const wait = Number(last.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(last.body.retryAfter).toBe(wait);

    // The right password from another address works at once.
    expectStatus(await signIn(3, 'robert.brown@example.org', PASSWORD), 201);
    // From the same address, not even the right password before the wait is over…
    const early = await signIn(2, 'robert.brown@example.org', PASSWORD);
    expectError(early, 429);
    clock += (wait - 1) * 1000;
    expectError(await signIn(2, 'robert.brown@example.org', PASSWORD), 429);
    // …and at once when it is.
    clock += 1000;
    expectStatus(await signIn(2, 'robert.brown@example.org', PASSWORD), 201);
  });

  it('ten wrong guesses sent at once from one address: no more than five are heard', async () => {
    await person('burst@example.org');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signIn(8, 'burst@example.org', `burst guess ${i}`)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((st) => st === 401)).toHaveLength(5);
    expect(statuses.filter((st) => st === 429)).toHaveLength(5);
  });

  it('the count survives a restart: another server on the same database refuses the same address', async () => {
    await person('robert.brown2@example.org');
    for (let i = 0; i < 5; i++)
      expectError(await signIn(4, 'robert.brown2@example.org', 'nope nope nope'), 401);
    expectError(await signIn(4, 'robert.brown2@example.org', PASSWORD), 429);
    const { startServer } = await import('../../electron/server/serve.ts');
    const second = await startServer({ store: s.store, port: 0, now });
    try {
      const res = await fromTo(second.url, 4, 'POST', '/api/v1/sign-in', {
        email: 'robert.brown2@example.org',
        password: PASSWORD,
      });
      expectError(res, 429, { code: 'sign_in_throttled' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await second.app.close();
    }
  });

  it('behind a trusted reverse proxy, each caller is counted by the address the proxy names', async () => {
    await person('robert.brown5@example.org');
    const { startServer } = await import('../../electron/server/serve.ts');
    const behind = await startServer({ store: s.store, port: 0, now, trustProxy: ['127.0.0.1'] });
    const via = (client: string, password: string) =>
      fromTo(
        behind.url,
        1,
        'POST',
        '/api/v1/sign-in',
        { email: 'robert.brown5@example.org', password },
        { 'x-forwarded-for': client },
      );
    try {
      for (let i = 0; i < 5; i++) expectError(await via('203.0.113.7', 'wrong wrong wrong'), 401);
      expectError(await via('203.0.113.7', PASSWORD), 429, { code: 'sign_in_throttled' });
      // Another person behind the same proxy is not held up by the first one's mistakes.
      expectStatus(await via('198.51.100.20', PASSWORD), 201);
    } finally {
      await behind.app.close();
    }
  });

  it('guesses at one email from many addresses never lock its person out', async () => {
    await person('robert.brown3@example.org');
    // 12 addresses, one wrong guess each: each is answered (401), none is refused unheard.
    for (let h = 100; h < 112; h++)
      expectError(await signIn(h, 'robert.brown3@example.org', `guess from ${h}`), 401, {
        code: 'sign_in_failed',
      });
    // An address that guessed wrong waits a little before its next try at this email…
    const again = await signIn(100, 'robert.brown3@example.org', 'another guess');
    expectError(again, 429);
    const wait = Number(again.headers.get('retry-after'));
    expect(wait).toBeLessThanOrEqual(60);
    // …while the person, from their own desk, signs in at once.
    expectStatus(await signIn(120, 'robert.brown3@example.org', PASSWORD), 201);
    // And the address that waited gets its try once the wait is over.
    clock += wait * 1000;
    expectStatus(await signIn(100, 'robert.brown3@example.org', PASSWORD), 201);
  });

  it('an unknown email and a wrong password get the same answer', async () => {
    const unknown = await signIn(5, 'nobody@example.org', PASSWORD);
    const wrong = await signIn(6, 'robert.brown@example.org', 'not the password');
    expectError(unknown, 401, { code: 'sign_in_failed' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses a malformed sign-in naming the field', async () => {
    expectError(await from(7, 'POST', '/api/v1/sign-in', { password: PASSWORD }), 400, { field: 'email' });
    expectError(await from(7, 'POST', '/api/v1/sign-in', { email: 'a@example.org', password: 12 }), 400, {
      field: 'password',
    });
  });
});

describe('a session', () => {
  it('ends at sign-out', async () => {
    await person('signout@example.org');
    const session = expectStatus(await signIn(40, 'signout@example.org', PASSWORD), 201);
    expectStatus(
      await from(40, 'GET', `/api/v1/contacts?accountId=${s.accountId}`, undefined, as(session)),
      200,
    );
    expectStatus(await from(40, 'POST', '/api/v1/sign-out', undefined, as(session)), 200);
    expectError(
      await from(40, 'GET', `/api/v1/contacts?accountId=${s.accountId}`, undefined, as(session)),
      401,
    );
  });

  it('ends after 12 hours unused', async () => {
    await person('idle@example.org');
    const session = expectStatus(await signIn(41, 'idle@example.org', PASSWORD), 201);
    expectStatus(await from(41, 'GET', '/api/v1/me', undefined, as(session)), 200);
    clock += 12 * 60 * 60 * 1000;
    expectError(await from(41, 'GET', '/api/v1/me', undefined, as(session)), 401);
  });

  it('is refused at its next request once its person is disabled, and they cannot sign in again', async () => {
    await person('gone@example.org', 'Robert Brown', 'coordinator');
    const session = expectStatus(await signIn(42, 'gone@example.org', PASSWORD), 201);
    expectStatus(await from(42, 'GET', '/api/v1/me', undefined, as(session)), 200);
    const r = await runCli(
      ['user', 'disable', ...where(), '--account', s.accountId, '--email', 'GONE@example.org'],
      env,
    );
    expect(r.status, r.stderr).toBe(0);
    expectError(await from(42, 'GET', '/api/v1/me', undefined, as(session)), 401);
    // Signing in again is refused as a wrong password is: the answer does not say the password was right.
    const again = await signIn(42, 'gone@example.org', PASSWORD);
    const wrong = await signIn(42, 'gone@example.org', 'not the password');
    expectError(again, 401, { code: 'sign_in_failed' });
    expect(again.body).toEqual(wrong.body);
  });

  it('acts in the role its person has at each request', async () => {
    await person('promoted@example.org');
    const session = expectStatus(await signIn(43, 'promoted@example.org', PASSWORD), 201);
    expect(session.role).toBe('volunteer');
    const r = await runCli(
      [
        'user',
        'set-role',
        ...where(),
        '--account',
        s.accountId,
        '--email',
        'promoted@example.org',
        '--role',
        'coordinator',
      ],
      env,
    );
    expect(r.status, r.stderr).toBe(0);
    const me = expectStatus(await from(43, 'GET', '/api/v1/me', undefined, as(session)), 200);
    expect(me.role).toBe('coordinator');
  });

  it('cannot make API keys, even an administrator’s', async () => {
    await person('nokeys@example.org', 'Robert Brown', 'administrator');
    const session = expectStatus(await signIn(44, 'nokeys@example.org', PASSWORD), 201);
    expectError(
      await from(44, 'POST', '/api/v1/api-keys', { accountId: s.accountId, label: 'mine' }, as(session)),
      403,
      { code: 'session_cannot_create_keys' },
    );
  });
});

describe('the people of an account (the API)', () => {
  it('adds, lists, changes and disables people; an email is one person whatever its case', async () => {
    const made = expectStatus(
      await s.request('POST', '/api/v1/users', {
        accountId: s.accountId,
        email: 'Robert.Brown4@Example.org',
        name: 'Robert Brown',
        role: 'volunteer',
      }),
      201,
    );
    expect(made.setPasswordToken).toMatch(/^gdp_/);
    expectError(
      await s.request('POST', '/api/v1/users', {
        accountId: s.accountId,
        email: ' robert.brown4@example.org',
        name: 'Robert Brown',
        role: 'coordinator',
      }),
      409,
      { field: 'email' },
    );
    expectError(
      await s.request('POST', '/api/v1/users', {
        accountId: s.accountId,
        email: 'x@example.org',
        name: 'X',
        role: 'boss',
      }),
      400,
      { field: 'role' },
    );
    const changed = expectStatus(
      await s.request('PATCH', `/api/v1/users/${made.id}`, { role: 'treasurer', disabled: true }),
      200,
    );
    expect(changed).toMatchObject({ role: 'treasurer' });
    expect(changed.disabledAt).not.toBeNull();
    const list = expectStatus(await s.request('GET', `/api/v1/users?accountId=${s.accountId}`), 200);
    expect(
      list.data.filter((u: { email: string }) => u.email.toLowerCase() === 'robert.brown4@example.org'),
    ).toHaveLength(1);
    expect(JSON.stringify(list)).not.toMatch(/scrypt|passwordHash/);
    const other = await s.otherAccount();
    expectError(await s.request('GET', `/api/v1/users?accountId=${other.accountId}`), 403);
  });
});
