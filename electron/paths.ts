/**
 * Where GiftDesk keeps its data: the per-user app-data folder Electron's
 * app.getPath('userData') gives for an app named GiftDesk, so the CLI and the desktop app
 * share one database. `GIFTDESK_DATA_DIR` or `--data-dir` overrides. Pure: no I/O.
 */
import path from 'node:path';

export const APP_NAME = 'GiftDesk';
export const DB_FILE = 'giftdesk.sqlite';

export interface PathEnv {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  home: string;
}

export function defaultDataDir({ platform, env, home }: PathEnv): string {
  if (env.GIFTDESK_DATA_DIR) return path.resolve(env.GIFTDESK_DATA_DIR);
  if (platform === 'win32')
    return path.win32.join(env.APPDATA ?? path.win32.join(home, 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', APP_NAME);
  return path.posix.join(env.XDG_CONFIG_HOME || path.posix.join(home, '.config'), APP_NAME);
}

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, DB_FILE);
}
