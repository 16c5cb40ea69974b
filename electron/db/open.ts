import { databaseFile } from '../paths.ts';
import { openSqlite } from './sqlite.ts';
import type { Store } from './store.ts';

export interface OpenOptions {
  dataDir: string;
  /** postgres://… (HQ mode); when absent the embedded SQLite file in dataDir is used. */
  databaseUrl?: string;
}

/** Opens the store the options name and brings its schema up to date. */
export async function openStore(opts: OpenOptions): Promise<Store> {
  if (opts.databaseUrl) {
    throw new Error('PostgreSQL (HQ mode) is not available in this build yet; omit --database-url to use the embedded SQLite file');
  }
  return openSqlite({ file: databaseFile(opts.dataDir) });
}
