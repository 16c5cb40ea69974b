/**
 * Two HQ servers on one PostgreSQL, in this process, each over a pool of its own (as two
 * machines behind a load balancer): a person's session made on one works on the other and
 * ends on both at sign-out; the app's one-time link and a set-password link open on either
 * server, once. PostgreSQL only (on SQLite one process serves a data folder).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { addUser } from '../../electron/domain/accounts/users.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext } from '../../electron/domain/context.ts';
import type { AppLinkTokens } from '../../electron/server/one-time-tokens.ts';
import { rendererStatic } from '../../electron/server/renderer-static.ts';
import { type RunningServer, startServer } from '../../electron/server/serve.ts';
import { appLinkTokens } from '../../electron/server/stored-one-time-tokens.ts';
import { TEST_ENGINE, freshDatabase, rawRequest, tempDir } from '../helpers/server.ts';

interface Hq {
  url: string;
  links: AppLinkTokens;
  running: RunningServer;
}

async function startHq(databaseUrl: string): Promise<Hq> {
  const store: Store = await openStore({ dataDir: tempDir(), databaseUrl });
  const links = appLinkTokens(store);
  const running = await startServer({
    store,
    port: 0,
    rateLimit: { ratePerSecond: 1000, burst: 1000 },
    // No built screens needed: only the link's exchange (POST /api/v1/browser-session).
    plugins: [rendererStatic({ dir: tempDir(), browserSessions: { tokens: links } })],
  });
  return { url: running.url, links, running };
}

const as = (k: { keyId: string; secret: string }) => ({
  'X-API-Key': k.keyId,
  Authorization: `Bearer ${k.secret}`,
});

describe.skipIf(TEST_ENGINE !== 'postgres')('two HQ servers on one PostgreSQL: sessions and links', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let a: Hq;
  let b: Hq;
  let accountId: string;
  let admin: { keyId: string; secret: string };
  let userId: string;
  const email = 'lukasz.zolc@example.org';
  const password = 'Łukasz Żółć counts the cash';
  beforeAll(async () => {
    db = await freshDatabase('postgres');
    a = await startHq(db.databaseUrl!);
    b = await startHq(db.databaseUrl!);
    const ctx = createContext(a.running.ctx.store);
    accountId = (await createAccount(ctx, 'Three Robert Browns Fund')).id;
    admin = await createApiKey(ctx, accountId, 'admin');
    userId = (await addUser(ctx, { accountId, email, name: 'Łukasz Żółć', role: 'volunteer', password })).id;
  }, 60_000);
  afterAll(async () => {
    await a?.running.close();
    await b?.running.close();
    await db?.drop();
  });

  it('a sign-in made on A works on B; signing out on B ends it on A', async () => {
    const signIn = await rawRequest(`${a.url}/api/v1/sign-in`, 'POST', { email, password });
    expect(signIn.status).toBe(201);
    const session = { keyId: signIn.body.keyId as string, secret: signIn.body.secret as string };
    const me = await rawRequest(`${b.url}/api/v1/me`, 'GET', undefined, as(session));
    expect(me.status).toBe(200);
    expect(me.body.user).toEqual({ id: userId, name: 'Łukasz Żółć' });
    const out = await rawRequest(`${b.url}/api/v1/sign-out`, 'POST', undefined, as(session));
    expect(out.status).toBe(200);
    for (const s of [a, b])
      expect((await rawRequest(`${s.url}/api/v1/me`, 'GET', undefined, as(session))).status).toBe(401);
  });

  it("the app's one-time link minted on A opens on B once, and not again on A", async () => {
    const token = await a.links.issue();
    const opened = await rawRequest(`${b.url}/api/v1/browser-session`, 'POST', { token });
    expect(opened.status).toBe(201);
    // The window's session works on both servers.
    const window = { keyId: opened.body.keyId as string, secret: opened.body.secret as string };
    for (const s of [a, b])
      expect((await rawRequest(`${s.url}/api/v1/me`, 'GET', undefined, as(window))).status).toBe(200);
    const again = await rawRequest(`${a.url}/api/v1/browser-session`, 'POST', { token });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('token_not_valid');
    // One link sent to both servers at the same moment opens one window.
    const twice = await b.links.issue();
    const both = await Promise.all(
      [a, b, a, b].map((s) => rawRequest(`${s.url}/api/v1/browser-session`, 'POST', { token: twice })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 401, 401, 401]);
  });

  it('a set-password link issued on A sets the password once, on whichever server gets it first', async () => {
    const issued = await rawRequest(
      `${a.url}/api/v1/users/${userId}/password-link`,
      'POST',
      { accountId },
      as(admin),
    );
    expect(issued.status).toBe(201);
    const token = issued.body.setPasswordToken as string;
    const tries = [
      'Robert Brown no. 1 password',
      'Robert Brown no. 2 password',
      'Robert Brown no. 3 password',
    ];
    const answers = await Promise.all(
      tries.map((pw, i) =>
        rawRequest(`${[a, b, a][i]!.url}/api/v1/set-password`, 'POST', { token, password: pw }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    const winner = tries[answers.findIndex((r) => r.status === 200)]!;
    // Only the password of the request that spent the link opens a session, on either server.
    for (const pw of tries) {
      const r = await rawRequest(`${b.url}/api/v1/sign-in`, 'POST', { email, password: pw });
      expect(r.status).toBe(pw === winner ? 201 : 401);
    }
    const late = await rawRequest(`${a.url}/api/v1/set-password`, 'POST', {
      token,
      password: 'too late now!',
    });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('token_not_valid');
  });
});
