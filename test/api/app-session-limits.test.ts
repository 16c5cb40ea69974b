/**
 * The app's own sessions are never refused by their own server: the browser window's key
 * (redeemed from the one-time link of `serve --ui`) and the desktop window's key pass the
 * per-key script rate limit, while a script's key keeps it, and a wrong secret sent with a
 * session's key id is still charged to the caller's address.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOneTimeTokens } from '../../electron/server/one-time-tokens.ts';
import { rendererStatic } from '../../electron/server/renderer-static.ts';
import { closeDesktopSession, openDesktopSession } from '../../electron/shell/session.ts';
import { rawRequest, startTestServer, tempDir, type TestServer } from '../helpers/server.ts';

let server: TestServer;
const tokens = createOneTimeTokens();
const dist = tempDir('giftdesk-dist-');

beforeAll(async () => {
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>GiftDesk</title>');
  // A limit a script meets at its fourth request.
  server = await startTestServer({
    rateLimit: { ratePerSecond: 0.01, burst: 3 },
    plugins: [rendererStatic({ dir: dist, browserSessions: { tokens } })],
  });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const list = (keyId: string, secret: string) =>
  rawRequest(`${server.url}/api/v1/contacts?accountId=${server.accountId}`, 'GET', undefined, {
    'x-api-key': keyId,
    authorization: `Bearer ${secret}`,
  });

async function statuses(n: number, send: () => Promise<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await send()).status);
  return out;
}

describe('rate limits and the app’s own sessions', () => {
  it('the browser window’s session passes 30 requests where a script’s key is refused at the fourth; a wrong secret with its key id is still limited', async () => {
    const session = await rawRequest(`${server.url}/api/v1/browser-session`, 'POST', {
      token: tokens.issue(),
    });
    expect(session.status).toBe(201);
    const { keyId, secret } = session.body as { keyId: string; secret: string };
    expect(new Set(await statuses(30, () => list(keyId, secret)))).toEqual(new Set([200]));

    const script = await statuses(5, () =>
      server.request('GET', `/api/v1/contacts?accountId=${server.accountId}`),
    );
    expect(script).toEqual([200, 200, 200, 429, 429]);

    // Guessing the session's secret is charged to the guesser's address: refused soon.
    const guesses = await statuses(6, () => list(keyId, 'gds_wrong'));
    expect(guesses.slice(0, 2)).toEqual([401, 401]);
    expect(guesses.at(-1)).toBe(429);
    // The session itself is not affected.
    expect((await list(keyId, secret)).status).toBe(200);
  });

  it('the desktop window’s session passes too, and once closed its key is refused (401), never exempt', async () => {
    const desktop = await openDesktopSession(server.ctx, server.url);
    expect(new Set(await statuses(30, () => list(desktop.keyId, desktop.secret)))).toEqual(new Set([200]));
    await closeDesktopSession(server.ctx, desktop);
    expect((await list(desktop.keyId, desktop.secret)).status).not.toBe(200);
  });
});
