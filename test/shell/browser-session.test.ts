/**
 * The browser link over real HTTP: the renderer-static plugin serves the app with a strict
 * CSP, and POST /api/v1/browser-session trades a one-time token for a working API session
 * exactly once; that session outlives a server stop and ends after 12 hours unused.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOneTimeTokens } from '../../electron/server/one-time-tokens.ts';
import { rendererStatic } from '../../electron/server/renderer-static.ts';
import { rawRequest, startTestServer, tempDir, type TestServer } from '../helpers/server.ts';

let server: TestServer;
const tokens = createOneTimeTokens();
let redeemed = 0;
const dist = tempDir('giftdesk-dist-');

beforeAll(async () => {
  // A stand-in build: the plugin serves whatever vite wrote, so a tiny one proves the serving.
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><title>GiftDesk</title><script type="module" src="/assets/app-1.js"></script>',
  );
  fs.writeFileSync(path.join(dist, 'assets', 'app-1.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dist, '.build-hash'), 'x');
  server = await startTestServer({
    plugins: [rendererStatic({ dir: dist, browserSessions: { tokens, onRedeemed: () => redeemed++ } })],
  });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('serving the app', () => {
  it('serves index.html and assets with a strict CSP; hidden files are not served', async () => {
    const index = await rawRequest(`${server.url}/`, 'GET');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(index.headers.get('cache-control')).toBe('no-store');
    const js = await rawRequest(`${server.url}/assets/app-1.js`, 'GET');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('cache-control')).toMatch(/immutable/);
    expect((await rawRequest(`${server.url}/.build-hash`, 'GET')).status).toBe(404);
    expect((await rawRequest(`${server.url}/assets/../../package.json`, 'GET')).status).toBe(404);
  });

  it('refuses a page request addressed to a non-loopback host (DNS rebinding)', async () => {
    const url = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: '/', headers: { host: 'evil.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('POST /api/v1/browser-session', () => {
  it('trades a token once for a session whose key works; the second try is refused', async () => {
    const token = tokens.issue();
    const first = await rawRequest(`${server.url}/api/v1/browser-session`, 'POST', { token });
    expect(first.status).toBe(201);
    expect(first.body.accountId).toBe(server.accountId);
    expect(first.body.keyId).toMatch(/^gdk_/);
    expect(redeemed).toBe(1);
    const list = await rawRequest(
      `${server.url}/api/v1/contacts?accountId=${server.accountId}`,
      'GET',
      undefined,
      { 'x-api-key': first.body.keyId, authorization: `Bearer ${first.body.secret}` },
    );
    expect(list.status).toBe(200);

    const again = await rawRequest(`${server.url}/api/v1/browser-session`, 'POST', { token });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('token_not_valid');
    expect(again.body.details).toEqual([{ field: 'token', issue: 'has been used or has expired' }]);
    expect(again.text).not.toContain('gds_');
  });

  it('refuses a made-up token and a missing one with the field named', async () => {
    const made = await rawRequest(`${server.url}/api/v1/browser-session`, 'POST', { token: 'gdt_nope' });
    expect(made.status).toBe(401);
    const missing = await rawRequest(`${server.url}/api/v1/browser-session`, 'POST', {});
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].field).toBe('token');
  });

  it('the session key outlives a stop of the server, and ends after 12 hours unused', async () => {
    const other = await startTestServer({
      plugins: [rendererStatic({ dir: dist, browserSessions: { tokens } })],
    });
    const s = await rawRequest(`${other.url}/api/v1/browser-session`, 'POST', { token: tokens.issue() });
    expect(s.status).toBe(201);
    const { createContext } = await import('../../electron/domain/context.ts');
    const { verifyApiKey } = await import('../../electron/domain/accounts/api-keys.ts');
    const { revokeOrphanedSessionKeys } = await import('../../electron/domain/accounts/sessions.ts');
    expect(await verifyApiKey(other.ctx, s.body.keyId, s.body.secret)).toBe(other.accountId);
    await other.running.app.close(); // runs the plugin's onClose; the store stays open to check
    // A restart of the server on this database finds the window's key still good (the tab carries on).
    expect(await verifyApiKey(other.ctx, s.body.keyId, s.body.secret)).toBe(other.accountId);
    expect(await revokeOrphanedSessionKeys(other.ctx)).toBe(0);
    // The next morning, after a night unused: refused, and revoked at the next start.
    const morning = createContext(other.store, () =>
      new Date(Date.now() + 12 * 3600_000 + 60_000).toISOString(),
    );
    expect(await verifyApiKey(morning, s.body.keyId, s.body.secret)).toBeNull();
    expect(await revokeOrphanedSessionKeys(morning)).toBe(1);
    expect(await verifyApiKey(other.ctx, s.body.keyId, s.body.secret)).toBeNull();
    await other.close();
  });
});
