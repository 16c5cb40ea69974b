/**
 * The desktop shell's start-up (electron/shell/startup.ts) run in Node against a stand-in for
 * Electron's calls (./electron-stand-in.ts), with real SQLite files in a real data folder and
 * a real server on a real port: a good folder opens one window on the server, with every
 * security setting, and the session IPC answers only the app's own origin; quitting revokes
 * the window's key and frees the port.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../electron/db/sqlite.ts';
import { createAccount, verifyApiKey } from '../../electron/domain/accounts.ts';
import { createContact } from '../../electron/domain/contacts.ts';
import { createContext } from '../../electron/domain/context.ts';
import { runShell } from '../../electron/shell/startup.ts';
import { rawRequest, tempDir } from '../helpers/server.ts';
import { electronStandIn } from './electron-stand-in.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A data folder with a database that has an organisation and donors, as after an event day. */
async function dataFolder(): Promise<{ userData: string; file: string; accountId: string }> {
  const userData = tempDir('giftdesk-shell-data-');
  dirs.push(userData);
  const file = path.join(userData, 'giftdesk.sqlite');
  const store = await openSqlite({ file, synchronous: 'NORMAL' }); // the subject is not durability
  const ctx = createContext(store);
  const { id: accountId } = await createAccount(ctx, 'Friends of the Library');
  for (const [firstName, lastName] of [
    ['Robert', 'Brown'],
    ['Robert', 'Brown'],
    ['Robert', 'Brown'],
    ['Łukasz', 'Żółć'],
  ] as const)
    await createContact(ctx, { accountId, firstName, lastName });
  await store.close();
  return { userData, file, accountId };
}

/** The app's folder with a built screen (dist/renderer/index.html) the window can load. */
function appFolder(): string {
  const appPath = tempDir('giftdesk-shell-app-');
  dirs.push(appPath);
  fs.mkdirSync(path.join(appPath, 'dist', 'renderer'), { recursive: true });
  fs.writeFileSync(
    path.join(appPath, 'dist', 'renderer', 'index.html'),
    '<!doctype html><title>GiftDesk</title><div id="root">giftdesk-screens</div>',
  );
  return appPath;
}

/** A port nothing listens on right now (the OS's choice). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const PRELOAD = '/opt/GiftDesk/resources/app.asar/dist/electron/preload.cjs';

describe('the desktop shell on a good data folder', () => {
  it('opens one window on the server with every security setting; the session answers only the app', async () => {
    const { userData, file, accountId } = await dataFolder();
    const port = await freePort();
    const fake = electronStandIn({ userData, appPath: appFolder() });
    await runShell(fake.electron, { env: { GIFTDESK_PORT: String(port) }, preload: PRELOAD });

    expect(fake.errorBoxes).toEqual([]);
    expect(fake.exitCode).toBeUndefined();
    expect(fake.windows).toHaveLength(1);
    const win = fake.windows[0]!;
    expect(win.options.webPreferences).toEqual({
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    const origin = `http://127.0.0.1:${port}`;
    expect(win.loaded).toEqual([
      { url: `${origin}/`, status: 200, body: expect.stringContaining('giftdesk-screens') },
    ]);

    // Every response the window gets carries the CSP; no permission (camera, notifications…) is given.
    let headers: Record<string, string | string[]> | undefined;
    fake.hooks.headers!(
      { responseHeaders: { 'Content-Type': ['text/html'] } },
      (r) => (headers = r.responseHeaders),
    );
    expect(headers).toMatchObject({ 'Content-Type': ['text/html'] });
    expect(headers!['Content-Security-Policy']).toEqual([expect.stringContaining("default-src 'self'")]);
    let granted: boolean | undefined;
    fake.hooks.permission!(null, 'media', (g) => (granted = g));
    expect(granted).toBe(false);

    // Links leave for the system browser (web and mail only), never in a window of the app; the window stays on the app.
    expect(win.windowOpen('https://example.org/help')).toEqual({ action: 'deny' });
    expect(win.windowOpen('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(fake.openedExternally).toEqual(['https://example.org/help']);
    expect(win.navigationPrevented(`${origin}/contacts`)).toBe(false);
    expect(win.navigationPrevented('https://evil.example/')).toBe(true);
    expect(win.navigationPrevented(`http://127.0.0.1:${port}.evil.example/`)).toBe(true);

    // The session goes to the app's own frames only; its key reads this data folder's donors.
    for (const frame of [
      null,
      'https://evil.example/',
      `http://127.0.0.1:${port + 1}/`,
      `http://localhost:${port}/`,
    ])
      await expect(fake.invoke('giftdesk:session', frame)).rejects.toThrow(/refused: not the app window/);
    const session = (await fake.invoke('giftdesk:session', `${origin}/contacts`)) as {
      apiBase: string;
      accountId: string;
      keyId: string;
      secret: string;
    };
    expect(session).toMatchObject({ apiBase: origin, accountId });
    const auth = { 'x-api-key': session.keyId, authorization: `Bearer ${session.secret}` };
    const browns = await rawRequest(
      `${origin}/api/v1/contacts?accountId=${accountId}&search=robert%20brown`,
      'GET',
      undefined,
      auth,
    );
    expect(browns.status).toBe(200);
    expect(browns.body.data.map((c: { lastName: string }) => c.lastName)).toEqual([
      'Brown',
      'Brown',
      'Brown',
    ]);
    const lukasz = await rawRequest(
      `${origin}/api/v1/contacts?accountId=${accountId}&search=lukasz%20zolc`,
      'GET',
      undefined,
      auth,
    );
    expect(lukasz.body.data.map((c: { firstName: string }) => c.firstName)).toEqual(['Łukasz']);

    // Another launch brings this window forward; quitting finishes, revokes the key and frees the port.
    fake.emit('second-instance');
    expect(win.focused).toBe(1);
    expect(fake.emit('before-quit')).toBe(true);
    expect(await fake.exited).toBe(0);
    await expect(fetch(`${origin}/`)).rejects.toThrow();
    const after = await openSqlite({ file });
    try {
      expect(await verifyApiKey(createContext(after), session.keyId, session.secret)).toBeNull();
    } finally {
      await after.close();
    }
  });
});
