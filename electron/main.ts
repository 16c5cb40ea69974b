/**
 * The Electron shell, kept thin: hands Electron's own calls to the start-up in
 * shell/startup.ts (proven in Node against a stand-in: test/shell/startup.test.ts). This file
 * only wires them, and typechecks against Electron's types (tsconfig.electron.json).
 */
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session, shell } from 'electron';
import { runShell } from './shell/startup.ts';

void runShell<BrowserWindow>(
  {
    app,
    dialog,
    ipcMain,
    session,
    safeStorage,
    shell,
    createWindow: (options) => new BrowserWindow(options),
    focusOpenWindow: () => BrowserWindow.getAllWindows()[0]?.focus(),
    setApplicationMenu: (template) => Menu.setApplicationMenu(Menu.buildFromTemplate(template)),
  },
  { env: process.env, preload: path.join(import.meta.dirname, 'preload.cjs') },
);
