/**
 * Where the CLI and the desktop app keep the database: Electron's userData folder for an
 * app named GiftDesk, per platform; GIFTDESK_DATA_DIR overrides.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseFile, defaultDataDir } from '../../electron/paths.ts';

describe('defaultDataDir', () => {
  it('uses %APPDATA%\\GiftDesk on Windows', () => {
    expect(
      defaultDataDir({
        platform: 'win32',
        env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' },
        home: 'C:\\Users\\ada',
      }),
    ).toBe('C:\\Users\\ada\\AppData\\Roaming\\GiftDesk');
  });
  it('falls back to the roaming folder under home on Windows without APPDATA', () => {
    expect(defaultDataDir({ platform: 'win32', env: {}, home: 'C:\\Users\\ada' })).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\GiftDesk',
    );
  });
  it('uses ~/Library/Application Support/GiftDesk on macOS', () => {
    expect(defaultDataDir({ platform: 'darwin', env: {}, home: '/Users/ada' })).toBe(
      '/Users/ada/Library/Application Support/GiftDesk',
    );
  });
  it('uses $XDG_CONFIG_HOME/GiftDesk on Linux, else ~/.config/GiftDesk', () => {
    expect(
      defaultDataDir({ platform: 'linux', env: { XDG_CONFIG_HOME: '/home/ada/cfg' }, home: '/home/ada' }),
    ).toBe('/home/ada/cfg/GiftDesk');
    expect(defaultDataDir({ platform: 'linux', env: {}, home: '/home/ada' })).toBe(
      '/home/ada/.config/GiftDesk',
    );
    expect(defaultDataDir({ platform: 'linux', env: { XDG_CONFIG_HOME: '' }, home: '/home/ada' })).toBe(
      '/home/ada/.config/GiftDesk',
    );
    expect(defaultDataDir({ platform: 'freebsd', env: {}, home: '/home/ada' })).toBe(
      '/home/ada/.config/GiftDesk',
    );
  });
  it('lets GIFTDESK_DATA_DIR override on every platform, as an absolute path', () => {
    for (const platform of ['win32', 'darwin', 'linux'] as const) {
      expect(
        defaultDataDir({
          platform,
          env: { GIFTDESK_DATA_DIR: '/srv/giftdesk', APPDATA: 'C:\\x' },
          home: '/home/ada',
        }),
      ).toBe(path.resolve('/srv/giftdesk'));
    }
    expect(
      defaultDataDir({ platform: 'linux', env: { GIFTDESK_DATA_DIR: 'relative/dir' }, home: '/home/ada' }),
    ).toBe(path.resolve('relative/dir'));
  });
  it('names one database file inside the folder', () => {
    expect(databaseFile('/data')).toBe(path.join('/data', 'giftdesk.sqlite'));
  });
});
