import os from 'node:os';
import { type Command, InvalidArgumentError } from 'commander';
import { type OpenOptions, openStore } from '../db/open.ts';
import { requireAccount } from '../domain/accounts.ts';
import { createContext, type DomainContext } from '../domain/context.ts';
import { defaultDataDir } from '../paths.ts';

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

/** Opens the store for one command and closes it afterwards, whatever happens. */
export async function withContext<T>(
  opts: CommonOptions,
  fn: (ctx: DomainContext) => Promise<T>,
  open: Pick<OpenOptions, 'cacheMiB' | 'walCheckpointMiB'> = {},
): Promise<T> {
  const store = await openStore({
    dataDir: resolveDataDir(opts),
    databaseUrl: opts.databaseUrl ?? process.env.DATABASE_URL,
    ...open,
  });
  try {
    return await fn(createContext(store));
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
