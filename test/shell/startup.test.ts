/**
 * The desktop shell's start-up (electron/shell/startup.ts) run in Node against a stand-in for
 * Electron's calls (./electron-stand-in.ts), with real SQLite files in a real data folder and
 * a real server on a real port: a good folder opens one window on the server, with every
 * security setting, and the session IPC answers only the app's own origin; quitting revokes
 * the window's key and frees the port. A start-up that fails (a damaged file, the port taken,
 * an update of the database that fails, a database from a newer GiftDesk) ends in an error
 * box that says what happened and what to do, no window, exit code 1, and the database closed
 * again; a second launch leaves the first one's folder alone.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { NamedMigration } from '../../electron/db/migration-types.ts';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';
import { openSqlite } from '../../electron/db/sqlite/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { verifyApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
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
      // The PDF viewer, for the letters' preview and a receipt's print frame.
      plugins: true,
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

/** Everything about the file: its schema and every row of every table. */
function fingerprint(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const schema = db
      .prepare("select type, name, sql from sqlite_master where name not like 'sqlite_%' order by type, name")
      .all() as Array<{ type: string; name: string }>;
    const rows = schema
      .filter((t) => t.type === 'table')
      .map((t) => ({ table: t.name, rows: db.prepare(`select * from "${t.name}" order by 1`).all() }));
    return JSON.stringify({ schema, rows });
  } finally {
    db.close();
  }
}

/** The database was closed again: SQLite removes the -wal file when its last connection closes. */
const closedAgain = (file: string) => !fs.existsSync(`${file}-wal`);

async function listening(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/`).then(
    () => true,
    () => false,
  );
}

/** A migration that fails halfway (the column it sets does not exist), after writing a table. */
const broken: NamedMigration = {
  name: '2999-01-01T0000-contact-nickname',
  migration: () => ({
    async up(db) {
      await sql`create table nicknames (contact_id text primary key)`.execute(db);
      await sql`insert into nicknames select id from contacts`.execute(db);
      await sql`update contacts set nickname = first_name`.execute(db); // no such column
    },
  }),
};

/** A migration that works, dated before `broken`. */
const addedStep: NamedMigration = {
  name: '2998-12-31T0000-gift-receipt-numbers',
  migration: () => ({
    async up(db) {
      await sql`create table receipt_numbers (donation_id text primary key, number integer not null)`.execute(
        db,
      );
    },
  }),
};

describe('a start-up that fails ends in an error box and exit code 1, with nothing left open', () => {
  it('a damaged database file: the box says so and how to restore from the newest backup', async () => {
    const { userData, file, accountId } = await dataFolder();
    const store = await openSqlite({ file, synchronous: 'NORMAL' });
    const ctx = createContext(store);
    for (let i = 0; i < 600; i++)
      await createContact(ctx, {
        accountId,
        firstName: `Donor${i}`,
        lastName: 'Lopez',
        primaryEmail: `d${i}@example.org`,
      });
    await store.close();
    const backup = `${file}.before-2026-11-25T1510-api-key-sessions.2026-11-25T14-00-00-000Z.bak`;
    fs.copyFileSync(file, backup);
    // Garbage over one page in the middle of the file (a disk or copy gone wrong).
    const pageSize = 4096;
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(
      fd,
      Buffer.alloc(pageSize, 0x5a),
      0,
      pageSize,
      Math.floor(fs.statSync(file).size / pageSize / 2) * pageSize,
    );
    fs.closeSync(fd);
    const port = await freePort();

    const fake = electronStandIn({ userData, appPath: appFolder() });
    await runShell(fake.electron, { env: { GIFTDESK_PORT: String(port) }, preload: PRELOAD });

    expect(fake.errorBoxes).toHaveLength(1);
    const box = fake.errorBoxes[0]!;
    expect(box.title).toBe('GiftDesk: the database is damaged');
    expect(box.content).toContain(`The database file ${file} is damaged: SQLite's check found`);
    expect(box.content).toContain(`cp "${backup}" "${file}"`);
    expect(box.content).toMatch(/Start GiftDesk again/);
    expect(fake.windows).toEqual([]);
    expect(fake.exitCode).toBe(1);
    expect(await listening(port)).toBe(false);
    expect(fs.readdirSync(userData).filter((f) => f.endsWith('.bak'))).toEqual([path.basename(backup)]);
  });

  it('the port taken by another program: the box names the port and what to do', async () => {
    const { userData, file } = await dataFolder();
    const other = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as net.AddressInfo;
    try {
      const fake = electronStandIn({ userData, appPath: appFolder() });
      await runShell(fake.electron, { env: { GIFTDESK_PORT: String(port) }, preload: PRELOAD });

      expect(fake.errorBoxes).toHaveLength(1);
      const box = fake.errorBoxes[0]!;
      expect(box.title).toBe(`GiftDesk: port ${port} is in use`);
      expect(box.content).toContain(`port ${port}`);
      expect(box.content).toContain('GIFTDESK_PORT');
      expect(box.content).toMatch(/close (it|that program)/i);
      expect(box.content).toMatch(/your data is as it was/i);
      expect(fake.windows).toEqual([]);
      expect(fake.exitCode).toBe(1);
      expect(closedAgain(file)).toBe(true);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('a GIFTDESK_PORT that is no port: the box names the setting, and the database is not opened', async () => {
    const userData = tempDir('giftdesk-shell-data-');
    dirs.push(userData);
    const fake = electronStandIn({ userData, appPath: appFolder() });
    await runShell(fake.electron, { env: { GIFTDESK_PORT: '80' }, preload: PRELOAD });

    expect(fake.errorBoxes).toEqual([
      {
        title: 'GiftDesk could not start',
        content: expect.stringContaining('GIFTDESK_PORT must be a port number from 1024 to 65535, not 80'),
      },
    ]);
    expect(fake.windows).toEqual([]);
    expect(fake.exitCode).toBe(1);
    expect(fs.readdirSync(userData)).toEqual([]);
  });

  it('an update of the database that fails: the box names the step and its error; the file is as it was, a copy kept', async () => {
    const { userData, file } = await dataFolder();
    const before = fingerprint(file);
    const port = await freePort();
    const fake = electronStandIn({ userData, appPath: appFolder() });
    await runShell(fake.electron, {
      env: { GIFTDESK_PORT: String(port) },
      preload: PRELOAD,
      migrations: [...MIGRATIONS, broken],
    });

    expect(fake.errorBoxes).toHaveLength(1);
    const box = fake.errorBoxes[0]!;
    expect(box.title).toBe('GiftDesk could not update its database');
    expect(box.content).toContain(`${file}`);
    expect(box.content).toContain('2999-01-01T0000-contact-nickname');
    expect(box.content).toContain('no such column: nickname');
    expect(box.content).toMatch(/undone: the database is as it was/);
    const backups = fs.readdirSync(userData).filter((f) => f.endsWith('.bak'));
    expect(backups).toHaveLength(1);
    expect(box.content).toContain(path.join(userData, backups[0]!));
    expect(box.content).toContain(
      'start the GiftDesk version you used before: it opens the database as it is',
    );
    expect(fake.windows).toEqual([]);
    expect(fake.exitCode).toBe(1);
    expect(await listening(port)).toBe(false);
    expect(closedAgain(file)).toBe(true);
    expect(fingerprint(file)).toBe(before);
  });

  it('an update that fails after an earlier step of it was applied: the box says how to go back to the copy for the version used before', async () => {
    const { userData, file } = await dataFolder();
    const before = fingerprint(file);
    const fake = electronStandIn({ userData, appPath: appFolder() });
    await runShell(fake.electron, {
      env: { GIFTDESK_PORT: String(await freePort()) },
      preload: PRELOAD,
      migrations: [...MIGRATIONS, addedStep, broken],
    });

    expect(fake.errorBoxes).toHaveLength(1);
    const box = fake.errorBoxes[0]!;
    expect(box.title).toBe('GiftDesk could not update its database');
    expect(box.content).toContain(`The update steps before it were applied: ${addedStep.name}.`);
    const [backup] = fs.readdirSync(userData).filter((f) => f.endsWith('.bak'));
    const copy = path.join(userData, backup!);
    const restore = `cp "${copy}" "${file}"`;
    expect(box.content).toContain(restore);
    expect(fake.exitCode).toBe(1);

    // As the box says: the version used before refuses the file as it is, and opens the copy put in its place.
    await expect(openSqlite({ file })).rejects.toMatchObject({ code: 'database_newer' });
    fs.copyFileSync(copy, file);
    expect(fingerprint(file)).toBe(before);
    const reopened = await openSqlite({ file });
    const browns = await reopened.db
      .selectFrom('contacts')
      .select('lastName')
      .where('lastName', '=', 'Brown')
      .execute();
    expect(browns).toHaveLength(3);
    await reopened.close();
  });
});

describe('a start-up that fails after the server and the session were opened', () => {
  it('revokes the session key, stops the server and closes the file; the box says what failed; exit 1', async () => {
    const { userData, file } = await dataFolder();
    const port = await freePort();
    const failure = `ERR_FAILED (-2) loading 'http://127.0.0.1:${port}/'`;
    const fake = electronStandIn({ userData, appPath: appFolder(), loadFails: failure });
    await runShell(fake.electron, { env: { GIFTDESK_PORT: String(port) }, preload: PRELOAD });

    expect(fake.errorBoxes).toEqual([
      { title: 'GiftDesk could not start', content: `${failure}\n\nThe data folder is ${userData}.` },
    ]);
    expect(fake.windows).toHaveLength(1); // made, then closed by the exit
    expect(fake.exitCode).toBe(1);
    expect(await listening(port)).toBe(false);
    expect(closedAgain(file)).toBe(true);
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      const keys = db
        .prepare("select revoked_at from api_keys where session_kind = 'desktop'")
        .all() as Array<{
        revoked_at: string | null;
      }>;
      expect(keys).toHaveLength(1);
      expect(keys[0]!.revoked_at).not.toBeNull();
    } finally {
      db.close();
    }
  });
});

describe('a database from a newer GiftDesk', () => {
  it('is refused before anything is written: the box says so and to use that version; no window', async () => {
    const { userData, file } = await dataFolder();
    const raw = new BetterSqlite3(file);
    raw
      .prepare('insert into giftdesk_migrations (name, applied_at) values (?, ?)')
      .run('2999-06-01T0900-gift-aid-declarations', '2999-06-02T10:00:00.000Z');
    raw.close();
    const before = fingerprint(file);
    const port = await freePort();
    const fake = electronStandIn({ userData, appPath: appFolder() });
    await runShell(fake.electron, { env: { GIFTDESK_PORT: String(port) }, preload: PRELOAD });

    expect(fake.errorBoxes).toHaveLength(1);
    const box = fake.errorBoxes[0]!;
    expect(box.title).toBe('GiftDesk: the database is from a newer version');
    expect(box.content).toContain(userData);
    expect(box.content).toContain('2999-06-01T0900-gift-aid-declarations');
    expect(box.content).toContain(MIGRATIONS.at(-1)!.name);
    expect(box.content).toMatch(/nothing was changed/);
    expect(fake.windows).toEqual([]);
    expect(fake.exitCode).toBe(1);
    expect(await listening(port)).toBe(false);
    expect(closedAgain(file)).toBe(true);
    expect(fingerprint(file)).toBe(before);
    expect(fs.readdirSync(userData).filter((f) => f.endsWith('.bak'))).toEqual([]);
  });
});

describe('Electron failing to get ready', () => {
  it('shows what it said and exits 1; nothing is opened', async () => {
    const userData = tempDir('giftdesk-shell-data-');
    dirs.push(userData);
    const fake = electronStandIn({
      userData,
      appPath: appFolder(),
      readyFails: 'GPU process could not start',
    });
    await runShell(fake.electron, { env: {}, preload: PRELOAD });

    expect(fake.errorBoxes).toEqual([
      { title: 'GiftDesk could not start', content: 'GPU process could not start' },
    ]);
    expect(fake.windows).toEqual([]);
    expect(fake.exitCode).toBe(1);
    expect(fs.readdirSync(userData)).toEqual([]);
  });
});

describe('a second launch', () => {
  it('quits, leaving the running app its folder and port: no window, no error box, nothing opened', async () => {
    const userData = tempDir('giftdesk-shell-data-');
    dirs.push(userData);
    const fake = electronStandIn({ userData, appPath: appFolder(), singleInstanceLock: false });
    await runShell(fake.electron, { env: { GIFTDESK_PORT: String(await freePort()) }, preload: PRELOAD });

    expect(fake.quitCalls).toBe(1);
    expect(fake.windows).toEqual([]);
    expect(fake.errorBoxes).toEqual([]);
    expect(fs.readdirSync(userData)).toEqual([]);
  });
});
