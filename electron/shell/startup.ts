/**
 * The desktop shell's start-up and quit, with the few Electron calls it makes passed in
 * (`ShellElectron`): electron/main.ts hands over Electron's own, tests in Node a stand-in.
 * Start the server in-process on 127.0.0.1, open one window on it, hand the window its
 * session through the preload bridge, and follow Electron's security checklist (CSP,
 * permissions refused, window.open and navigation kept to the app, the session IPC answering
 * only the app's origin, context isolation, sandbox).
 *
 * A start-up that fails at any point (a damaged file, the port taken, an update of the
 * database that fails, …) closes what it opened, shows an error box saying what happened and
 * what to do (startup-failure.ts), and exits with code 1. A second launch only hands over to
 * the running one and quits: it opens nothing.
 */
import type {
  App,
  BrowserWindowConstructorOptions,
  Dialog,
  HeadersReceivedResponse,
  MenuItemConstructorOptions,
  SafeStorage,
  SaveDialogOptions,
  SaveDialogReturnValue,
  Shell,
} from 'electron';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { NamedMigration } from '../db/migration-types.ts';
import { openStore } from '../db/open.ts';
import { assertIntact, damagedMessage } from '../db/sqlite/integrity.ts';
import type { Store } from '../db/store.ts';
import { databaseFile } from '../paths.ts';
import { rendererStatic } from '../server/renderer-static.ts';
import { startServer, type RunningServer } from '../server/serve.ts';
import type { KeySource } from '../sync/index.ts';
import { exportCsvToFile } from './export-file.ts';
import { desktopPort } from './port.ts';
import { contentSecurityPolicy, externalUrlToOpen, isAppUrl } from './security.ts';
import { closeDesktopSession, openDesktopSession, type DesktopSession } from './session.ts';
import { startupFailure } from './startup-failure.ts';

/** The app's window, as far as the shell uses it (Electron's BrowserWindow fits). */
export interface ShellWindow {
  loadURL(url: string): Promise<void>;
  webContents: {
    setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
    on(event: 'will-navigate', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  };
}

/** The Electron calls the shell makes; main.ts passes Electron's own (typed against them there). */
export interface ShellElectron<W extends ShellWindow = ShellWindow> {
  app: Pick<App, 'requestSingleInstanceLock' | 'quit' | 'exit' | 'whenReady' | 'getPath' | 'getAppPath'> & {
    on(event: 'second-instance', listener: () => void): unknown;
    on(event: 'window-all-closed', listener: () => void): unknown;
    on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  };
  dialog: Pick<Dialog, 'showErrorBox'> & {
    showSaveDialog(window: W, options: SaveDialogOptions): Promise<SaveDialogReturnValue>;
  };
  ipcMain: {
    handle(channel: string, listener: (event: { senderFrame: { url: string } | null }) => unknown): void;
  };
  session: {
    defaultSession: {
      webRequest: {
        onHeadersReceived(
          listener: (
            details: { responseHeaders?: Record<string, string[]> },
            callback: (response: HeadersReceivedResponse) => void,
          ) => void,
        ): void;
      };
      setPermissionRequestHandler(
        handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void,
      ): void;
    };
  };
  safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>;
  shell: Pick<Shell, 'openExternal' | 'openPath'>;
  /** new BrowserWindow(options). */
  createWindow(options: BrowserWindowConstructorOptions): W;
  /** Brings the open window to the front (another launch asked for it). */
  focusOpenWindow(): void;
  /** Menu.setApplicationMenu(Menu.buildFromTemplate(template)). */
  setApplicationMenu(template: MenuItemConstructorOptions[]): void;
}

export interface ShellOptions {
  env: Record<string, string | undefined>;
  /** The built preload (dist/electron/preload.cjs, beside main.js). */
  preload: string;
  /** The database migrations (tests of one that fails); the app's own list by default. */
  migrations?: readonly NamedMigration[];
}

/** Wires the app's events and starts once Electron is ready; settles when start-up has ended. */
export function runShell<W extends ShellWindow>(
  electron: ShellElectron<W>,
  opts: ShellOptions,
): Promise<void> {
  const { app, dialog, ipcMain, session, shell } = electron;
  let store: Store | null = null;
  let server: RunningServer | null = null;
  let desktop: DesktopSession | null = null;
  let quitting = false;
  let port: number | null = null;

  // Another launch while this app runs: it hands over (second-instance, below) and quits.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return Promise.resolve();
  }

  async function start(dataDir: string): Promise<void> {
    port = desktopPort(opts.env); // a bad GIFTDESK_PORT is refused before anything is opened
    if (!opts.env.DATABASE_URL) {
      // A damaged file is refused (the error box says how to restore); a late finding is shown too.
      const file = databaseFile(dataDir);
      await assertIntact(file, {
        onLate: (r) =>
          r.status === 'damaged' &&
          dialog.showErrorBox('GiftDesk: the database is damaged', damagedMessage(file, r.problems)),
      });
    }
    const opened = await openStore({
      dataDir,
      databaseUrl: opts.env.DATABASE_URL,
      ...(opts.migrations ? { migrations: opts.migrations } : {}),
    });
    store = opened;
    // The same UI a browser gets from `npm start` (dist/renderer, built by vite; packaged in the app).
    const ui = rendererStatic({ dir: path.join(app.getAppPath(), 'dist', 'renderer') });
    server = await startServer({
      store: opened,
      port,
      host: '127.0.0.1',
      plugins: [ui],
      sync: { keys: safeStorageKeys(electron.safeStorage, dataDir), run: true },
      // Settings → Event → "Host this event" serves the event's hub beside the window's server.
      hub: { dataDir },
      dataDir,
    });
    desktop = await openDesktopSession(server.ctx, server.url);
    const appOrigin = server.url;

    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({
        responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy()] },
      });
    });
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));

    ipcMain.handle('giftdesk:session', (event) => {
      if (!event.senderFrame || !isAppUrl(event.senderFrame.url, appOrigin))
        throw new Error('refused: not the app window');
      return desktop;
    });

    const win = electron.createWindow({
      width: 1280,
      height: 860,
      title: 'GiftDesk',
      webPreferences: {
        preload: opts.preload,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        // Chromium's PDF viewer (the only plugin Electron has): the Letters screen's preview
        // and a receipt's print frame show the PDF the local server made.
        plugins: true,
      },
    });
    win.webContents.setWindowOpenHandler(({ url }) => {
      const external = externalUrlToOpen(url);
      if (external) void shell.openExternal(external);
      return { action: 'deny' };
    });
    win.webContents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url, appOrigin)) event.preventDefault();
    });

    electron.setApplicationMenu([
      {
        label: 'File',
        submenu: [
          {
            label: 'Back up database…',
            click: async () => {
              const r = await dialog.showSaveDialog(win, {
                defaultPath: `giftdesk-backup-${new Date().toISOString().slice(0, 10)}.sqlite`,
              });
              if (!r.canceled && r.filePath) await opened.backupTo(r.filePath);
            },
          },
          ...(['contacts', 'donations'] as const).map((kind) => ({
            label: `Export ${kind} CSV…`,
            click: async () => {
              const r = await dialog.showSaveDialog(win, {
                defaultPath: `${kind}-${new Date().toISOString().slice(0, 10)}.csv`,
              });
              if (!r.canceled && r.filePath && server && desktop)
                await exportCsvToFile(server.ctx, kind, desktop.accountId, r.filePath);
            },
          })),
          { label: 'Open data folder', click: () => void shell.openPath(dataDir) },
          { type: 'separator' },
          { role: 'quit' },
        ],
      },
      { role: 'editMenu' },
      { role: 'viewMenu' },
    ]);
    await win.loadURL(`${appOrigin}/`);
  }

  app.on('second-instance', () => electron.focusOpenWindow());
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (quitting || !server) return;
    event.preventDefault(); // finish writes first, then quit
    quitting = true;
    const running = server;
    void (async () => {
      if (desktop) await closeDesktopSession(running.ctx, desktop).catch(() => undefined);
      await running.close();
      app.exit(0);
    })();
  });

  /** What start-up opened, closed again (the session key revoked, the server stopped, the file closed). */
  async function release(): Promise<void> {
    const running = server;
    if (running && desktop) await closeDesktopSession(running.ctx, desktop).catch(() => undefined);
    if (running) await running.close().catch(() => undefined);
    else await store?.close().catch(() => undefined);
    server = null;
    desktop = null;
    store = null;
  }

  let dataDir = '';
  return app
    .whenReady()
    .then(() => {
      dataDir = app.getPath('userData'); // the same folder the CLI uses by default
      return start(dataDir);
    })
    .catch(async (err: unknown) => {
      await release();
      const { title, message } = startupFailure(err, {
        dataDir,
        port,
        portFromEnv: Boolean(opts.env.GIFTDESK_PORT?.trim()),
      });
      dialog.showErrorBox(title, message);
      app.exit(1);
    });
}

/**
 * The key of the stored HQ secret, sealed by the OS keychain (safeStorage) in
 * `sync-key.safestorage` beside the database; created on first use. See sync/remote/secret-box.ts.
 */
function safeStorageKeys(safeStorage: ShellElectron['safeStorage'], dataDir: string): KeySource {
  const file = path.join(dataDir, 'sync-key.safestorage');
  return {
    describe: "the desktop app's key (sealed by the system keychain)",
    async key() {
      if (!safeStorage.isEncryptionAvailable())
        throw new Error('The system keychain is not available: the HQ secret cannot be stored');
      if (!fs.existsSync(file))
        fs.writeFileSync(file, safeStorage.encryptString(crypto.randomBytes(32).toString('hex')), {
          mode: 0o600,
          flag: 'wx',
        });
      return Buffer.from(safeStorage.decryptString(fs.readFileSync(file)), 'hex');
    },
  };
}
