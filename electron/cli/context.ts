/**
 * What every command shares: its common options, where its data is (the data folder or
 * PostgreSQL), and opening the store for one command. A command that only reads, or needs an
 * account that is already there, never creates a database as a side effect: pointed at a
 * folder with none it says which folder it looked in and how to point at the right one.
 * Only the commands meant to create one (`account create`, `demo`, `serve`) may.
 */
import { type Command, InvalidArgumentError } from 'commander';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type OpenOptions, openStore } from '../db/open.ts';
import { requireAccount } from '../domain/accounts/index.ts';
import { createContext, type DomainContext, DomainError, isDomainError } from '../domain/index.ts';
import { databaseFile, defaultDataDir } from '../paths.ts';
import { CliError } from './output.ts';

export interface CommonOptions {
  dataDir?: string;
  databaseUrl?: string;
  json?: boolean;
}

/** Adds the options every command takes. */
export function common(cmd: Command): Command {
  return cmd
    .option('--data-dir <dir>', 'data folder (default: the per-user app-data folder; env GIFTDESK_DATA_DIR)')
    .option('--database-url <url>', 'PostgreSQL URL (HQ mode) instead of the SQLite file; env DATABASE_URL')
    .option('--json', 'print exactly one JSON object on stdout');
}

export function resolveDataDir(opts: CommonOptions): string {
  return opts.dataDir ?? defaultDataDir({ platform: process.platform, env: process.env, home: os.homedir() });
}

/** The per-user data folder, as a command run without --data-dir or GIFTDESK_DATA_DIR uses. */
export function plainDefaultDataDir(): string {
  const { GIFTDESK_DATA_DIR: _set, ...env } = process.env;
  return defaultDataDir({ platform: process.platform, env, home: os.homedir() });
}

/**
 * The folder another `giftdesk` command must be given (`--data-dir`) to reach this command's
 * data, or null when it is the per-user default (a command run with no option reaches it).
 * An env GIFTDESK_DATA_DIR counts as not the default: another terminal may not have it.
 */
export function cliDataDirOption(opts: CommonOptions): string | null {
  const dir = path.resolve(resolveDataDir(opts));
  return dir === path.resolve(plainDefaultDataDir()) ? null : dir;
}

/** Where this command looks for its data, in words (never a database URL: it may hold a password). */
export function whereLooked(opts: CommonOptions): string {
  if (opts.databaseUrl ?? process.env.DATABASE_URL)
    return 'the PostgreSQL database of --database-url (or DATABASE_URL)';
  const dir = resolveDataDir(opts);
  return `the data folder ${dir} (database ${databaseFile(dir)})`;
}

const POINT_AT_IT =
  'If GiftDesk runs with another data folder (`npm start` prints it as "Data folder: …"), point at it: --data-dir <folder>, or the environment variable GIFTDESK_DATA_DIR=<folder>.';

/**
 * Opens the store for one command and closes it afterwards, whatever happens. `create`: the
 * command is meant to make a database where there is none (otherwise a folder without one
 * is refused, and nothing is written there). An account that is not there is said with the
 * place it was looked for.
 */
export async function withContext<T>(
  opts: CommonOptions,
  fn: (ctx: DomainContext) => Promise<T>,
  open: Pick<OpenOptions, 'cacheMiB' | 'walCheckpointMiB'> & { create?: boolean } = {},
): Promise<T> {
  const { create = false, ...storeOptions } = open;
  const dataDir = resolveDataDir(opts);
  const databaseUrl = opts.databaseUrl ?? process.env.DATABASE_URL;
  if (!databaseUrl && !create) {
    const file = databaseFile(dataDir);
    if (!fs.existsSync(file) || fs.statSync(file).size === 0)
      throw new CliError(
        `There is no GiftDesk database in ${whereLooked(opts)}; nothing was created there. ${POINT_AT_IT}`,
        66,
        'database_not_found',
      );
  }
  const store = await openStore({ dataDir, databaseUrl, ...storeOptions });
  try {
    return await fn(createContext(store));
  } catch (err) {
    if (isDomainError(err) && err.code === 'account_not_found')
      throw new DomainError(
        err.kind,
        err.code,
        `${err.message.replace(/\.$/, '')} in ${whereLooked(opts)}. ${POINT_AT_IT}`,
        err.details,
      );
    throw err;
  } finally {
    await store.close();
  }
}

/**
 * withContext for a command that acts for one account: an unknown account is a clear
 * "Account … was not found", not a foreign-key failure (or an empty answer).
 */
export async function withAccount<T>(
  opts: CommonOptions & { account: string },
  fn: (ctx: DomainContext) => Promise<T>,
  open: Pick<OpenOptions, 'cacheMiB' | 'walCheckpointMiB'> = {},
): Promise<T> {
  return withContext(
    opts,
    async (ctx) => {
      await requireAccount(ctx, opts.account);
      return fn(ctx);
    },
    open,
  );
}

/** Parses a decimal-dollar option. */
export function dollarsOption(value: string): number {
  if (!/^\d+(\.\d{1,2})?$/.test(value.trim()))
    throw new InvalidArgumentError(`"${value}" is not an amount in dollars (e.g. 3300 or 3300.00).`);
  return Number(value);
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
