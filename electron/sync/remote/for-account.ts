/**
 * The remote of a local account, ready to use outside the engine's own loop (a CLI pull or
 * link): its settings with the secret opened, and a client whose pacer keeps to the
 * configured rate. One process, one pacer per remote: a pull from the CLI while the app
 * pushes is two processes, each within the rate (the remote's 429 and headers settle it).
 */
import { requireAccount } from '../../domain/accounts/accounts.ts';
import type { DomainContext } from '../../domain/context.ts';
import { DomainError } from '../../domain/errors.ts';
import { recordingAnswers } from '../net/reachability.ts';
import { createRemoteClient, type RemoteClient } from '../net/http-client.ts';
import { createPacer } from '../net/pacer.ts';
import { remoteFetch } from '../push/default-client.ts';
import { configuredAccounts, loadRemoteConfig, type RemoteConfig } from './settings.ts';
import { defaultKeySource } from './secret-box.ts';

const notConfigured = (what: string) =>
  new DomainError(
    'bad_request',
    'sync_not_configured',
    `${what}: run giftdesk sync configure --account ID --url URL --key-id K --secret S --remote-account R first`,
    [{ field: 'accountId', issue: 'has no HQ configured' }],
  );

/** The account named, or the one account that syncs when none is named. */
export async function resolveSyncAccount(ctx: DomainContext, account: string | undefined): Promise<string> {
  if (account !== undefined) {
    await requireAccount(ctx, account);
    return account;
  }
  const accounts = await configuredAccounts(ctx.store.db);
  if (accounts.length === 1) return accounts[0]!;
  if (accounts.length === 0) throw notConfigured('No account syncs to HQ yet');
  throw new DomainError(
    'bad_request',
    'account_required',
    `${accounts.length} accounts sync to HQ (${accounts.join(', ')}): name one with --account`,
    [{ field: 'accountId', issue: 'is required when several accounts sync' }],
  );
}

export async function openRemote(
  ctx: DomainContext,
  dataDir: string,
  account: string | undefined,
): Promise<{ config: RemoteConfig; remote: RemoteClient; close(): void }> {
  const accountId = await resolveSyncAccount(ctx, account);
  const config = await loadRemoteConfig(ctx.store.db, defaultKeySource(dataDir), accountId);
  if (!config) throw notConfigured(`Account ${accountId} does not sync to HQ`);
  const pacer = createPacer({ ratePerSecond: config.ratePerSecond });
  const send = remoteFetch(config);
  // Pull's and linking's answers tell whether HQ answers too (reachability.ts).
  const remote = recordingAnswers(
    ctx.store,
    accountId,
    createRemoteClient({
      baseUrl: config.baseUrl,
      keyId: config.keyId,
      secret: config.secret,
      pacer,
      ...(send ? { fetch: send } : {}),
    }),
    Date.now,
    config.kind,
  );
  return { config, remote, close: () => pacer.close() };
}
