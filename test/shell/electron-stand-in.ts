/**
 * A stand-in for the Electron calls the desktop shell makes (electron/shell/startup.ts's
 * `ShellElectron`), for running the shell's start-up in Node: it records the error boxes, the
 * windows and what they loaded, the IPC handlers, the session hooks, the menu and the exit
 * code, and lets a test play Electron's part (another launch, quitting, a frame asking for the
 * session). A window's loadURL fetches the URL over real HTTP, as Electron would: a server that
 * is not there makes it fail.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { ShellElectron, ShellWindow } from '../../electron/shell/startup.ts';

export interface StandInWindow extends ShellWindow {
  options: Parameters<ShellElectron['createWindow']>[0];
  loaded: Array<{ url: string; status: number; body: string }>;
  focused: number;
  /** What the app does when a page asks to open `url` in a new window. */
  windowOpen(url: string): { action: 'deny' };
  /** Whether the app stops the window from navigating to `url`. */
  navigationPrevented(url: string): boolean;
}

type Listener = (event: { preventDefault(): void }) => void;
type IpcListener = Parameters<ShellElectron['ipcMain']['handle']>[1];
type HeadersListener = Parameters<
  ShellElectron['session']['defaultSession']['webRequest']['onHeadersReceived']
>[0];
type PermissionHandler = Parameters<
  ShellElectron['session']['defaultSession']['setPermissionRequestHandler']
>[0];

export function electronStandIn(opts: {
  userData: string;
  appPath: string;
  singleInstanceLock?: boolean;
  /** The window's loadURL fails with this (as Electron's does, e.g. "ERR_FAILED (-2) loading …"). */
  loadFails?: string;
  /** app.whenReady() fails with this (Electron itself could not start). */
  readyFails?: string;
}) {
  const errorBoxes: Array<{ title: string; content: string }> = [];
  const windows: StandInWindow[] = [];
  const ipc = new Map<string, IpcListener>();
  const appListeners = new Map<string, Listener[]>();
  const openedExternally: string[] = [];
  const menus: MenuItemConstructorOptions[][] = [];
  const hooks: { headers: HeadersListener | null; permission: PermissionHandler | null } = {
    headers: null,
    permission: null,
  };
  let quitCalls = 0;
  let exitCode: number | undefined;
  let exited!: (code: number) => void;
  const exitedPromise = new Promise<number>((resolve) => (exited = resolve));

  const createWindow = (options: StandInWindow['options']): StandInWindow => {
    let openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
    const navigate: Array<(event: { preventDefault(): void }, url: string) => void> = [];
    const win: StandInWindow = {
      options,
      loaded: [],
      focused: 0,
      async loadURL(url) {
        if (opts.loadFails) throw new Error(opts.loadFails);
        const res = await fetch(url);
        win.loaded.push({ url, status: res.status, body: await res.text() });
      },
      webContents: {
        setWindowOpenHandler: (handler) => void (openHandler = handler),
        on: (_event, listener) => void navigate.push(listener),
      },
      windowOpen(url) {
        if (!openHandler) throw new Error('no window-open handler was set');
        return openHandler({ url });
      },
      navigationPrevented(url) {
        let prevented = false;
        for (const l of navigate) l({ preventDefault: () => void (prevented = true) }, url);
        return prevented;
      },
    };
    windows.push(win);
    return win;
  };

  const electron = {
    app: {
      requestSingleInstanceLock: () => opts.singleInstanceLock ?? true,
      quit: () => void quitCalls++,
      exit: (code?: number) => {
        exitCode = code ?? 0;
        exited(exitCode);
      },
      whenReady: () => (opts.readyFails ? Promise.reject(new Error(opts.readyFails)) : Promise.resolve()),
      getPath: () => opts.userData,
      getAppPath: () => opts.appPath,
      on(event: string, listener: Listener) {
        appListeners.set(event, [...(appListeners.get(event) ?? []), listener]);
      },
    },
    dialog: {
      showErrorBox: (title: string, content: string) => void errorBoxes.push({ title, content }),
      showSaveDialog: async () => ({ canceled: true, filePath: '' }),
    },
    ipcMain: { handle: (channel: string, listener: IpcListener) => void ipc.set(channel, listener) },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: (listener: HeadersListener) => void (hooks.headers = listener) },
        setPermissionRequestHandler: (handler: PermissionHandler) => void (hooks.permission = handler),
      },
    },
    safeStorage: {
      isEncryptionAvailable: () => false, // no keychain here: the HQ secret cannot be stored
      encryptString: (text: string) => Buffer.from(text),
      decryptString: (data: Buffer) => data.toString(),
    },
    shell: {
      openExternal: async (url: string) => void openedExternally.push(url),
      openPath: async () => '',
    },
    createWindow,
    focusOpenWindow: () => {
      const first = windows[0];
      if (first) first.focused++;
    },
    setApplicationMenu: (template: MenuItemConstructorOptions[]) => void menus.push(template),
  } satisfies ShellElectron<StandInWindow>;

  return {
    electron,
    errorBoxes,
    windows,
    openedExternally,
    menus,
    hooks,
    get quitCalls() {
      return quitCalls;
    },
    get exitCode() {
      return exitCode;
    },
    /** Resolves with the code the app exits with. */
    exited: exitedPromise,
    /** Electron emitting an app event; returns whether a listener called preventDefault. */
    emit(event: 'second-instance' | 'window-all-closed' | 'before-quit'): boolean {
      let prevented = false;
      for (const l of appListeners.get(event) ?? []) l({ preventDefault: () => void (prevented = true) });
      return prevented;
    },
    /** The renderer's `giftdesk.session()` from a frame at `frameUrl` (null: no frame). */
    async invoke(channel: string, frameUrl: string | null): Promise<unknown> {
      const handler = ipc.get(channel);
      if (!handler) throw new Error(`no IPC handler for ${channel}`);
      return handler({ senderFrame: frameUrl === null ? null : { url: frameUrl } });
    },
  };
}
