/**
 * The desktop window's key dies with its process; a browser window's outlives it. A server
 * process hands out a browser-session key (one-time link) and the desktop window's key, then
 * is killed with SIGKILL, so its shutdown never revokes them. Started again on the same
 * folder, the desktop key opens nothing and is no longer listed, while the browser tab's key
 * carries on (the volunteer's tab keeps working through a restart). A browser-session key
 * cannot create permanent keys, before the restart or after.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, tempDir } from '../helpers/server.ts';

const CHILD = path.resolve('test/shell/session-child.ts');
const dataDir = tempDir('giftdesk-session-crash-');
const dist = tempDir('giftdesk-dist-');
const children: ChildProcess[] = [];

interface Started {
  child: ChildProcess;
  url: string;
  token: string;
  desktop: { keyId: string; secret: string };
}

function start(): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, dist], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ child, ...(JSON.parse(out.slice(0, nl)) as Omit<Started, 'child'>) });
    });
    child.on('exit', (code, signal) =>
      reject(new Error(`session child exited (${code ?? signal}) before starting\n${err}`)),
    );
  });
}

async function kill9(child: ChildProcess): Promise<void> {
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

const headers = (k: { keyId: string; secret: string }) => ({
  'x-api-key': k.keyId,
  authorization: `Bearer ${k.secret}`,
});

beforeAll(() => {
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>GiftDesk</title>');
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('session keys and a killed process', () => {
  it('a browser-session key cannot create API keys (403 naming the key), and nothing is created', async () => {
    const s = await start();
    try {
      const session = await rawRequest(`${s.url}/api/v1/browser-session`, 'POST', { token: s.token });
      expect(session.status).toBe(201);
      const browser = { keyId: session.body.keyId as string, secret: session.body.secret as string };
      const before = await rawRequest(
        `${s.url}/api/v1/api-keys?accountId=${session.body.accountId}`,
        'GET',
        undefined,
        headers(browser),
      );
      expect(before.status).toBe(200);
      const mint = await rawRequest(
        `${s.url}/api/v1/api-keys`,
        'POST',
        { accountId: session.body.accountId, label: 'from a browser tab' },
        headers(browser),
      );
      expect(mint.status).toBe(403);
      expect(mint.body.code).toBe('session_cannot_create_keys');
      expect(mint.body.details[0].field).toBe('X-API-Key');
      expect(mint.text).not.toContain('gds_');
      const after = await rawRequest(
        `${s.url}/api/v1/api-keys?accountId=${session.body.accountId}`,
        'GET',
        undefined,
        headers(browser),
      );
      expect(after.body.data).toHaveLength(before.body.data.length);
      // The desktop window's key may (the Settings → API keys screen of the desktop app).
      const desktopMint = await rawRequest(
        `${s.url}/api/v1/api-keys`,
        'POST',
        { accountId: session.body.accountId, label: 'reporting script' },
        headers(s.desktop),
      );
      expect(desktopMint.status).toBe(201);
    } finally {
      await kill9(s.child);
    }
  });

  it('after kill -9 and a restart, the desktop key answers 401 and is gone; the browser tab’s key carries on', async () => {
    const first = await start();
    const session = await rawRequest(`${first.url}/api/v1/browser-session`, 'POST', { token: first.token });
    expect(session.status).toBe(201);
    const accountId = session.body.accountId as string;
    const browser = { keyId: session.body.keyId as string, secret: session.body.secret as string };
    expect(
      (
        await rawRequest(
          `${first.url}/api/v1/contacts?accountId=${accountId}`,
          'GET',
          undefined,
          headers(browser),
        )
      ).status,
    ).toBe(200);
    await kill9(first.child);

    const second = await start();
    try {
      const browserAfter = await rawRequest(
        `${second.url}/api/v1/contacts?accountId=${accountId}`,
        'GET',
        undefined,
        headers(browser),
      );
      expect(browserAfter.status).toBe(200);
      const mintAfter = await rawRequest(
        `${second.url}/api/v1/api-keys`,
        'POST',
        { accountId, label: 'after the crash' },
        headers(browser),
      );
      expect(mintAfter.status).toBe(403);
      const desktopAfter = await rawRequest(
        `${second.url}/api/v1/contacts?accountId=${accountId}`,
        'GET',
        undefined,
        headers(first.desktop),
      );
      expect(desktopAfter.status).toBe(401);
      // The new process's own desktop key works; the dead desktop session ended with its process
      // and is no longer listed (nor kept): only keys people made, and the live sessions.
      const keys = await rawRequest(
        `${second.url}/api/v1/api-keys?accountId=${accountId}`,
        'GET',
        undefined,
        headers(second.desktop),
      );
      expect(keys.status).toBe(200);
      const byId = new Map(
        (keys.body.data as Array<{ keyId: string; revokedAt: string | null }>).map((k) => [k.keyId, k]),
      );
      expect(byId.get(browser.keyId)?.revokedAt).toBeNull();
      expect(byId.has(first.desktop.keyId)).toBe(false);
      expect(byId.get(second.desktop.keyId)?.revokedAt).toBeNull();
    } finally {
      await kill9(second.child);
    }
  });
});
