/**
 * The desktop window's credentials: a fresh API key per launch, handed to the renderer
 * through the preload bridge and revoked at quit, for the organisation this install serves
 * (the first account; one is made on first start).
 */
import { createAccount, createApiKey, listAccounts, revokeApiKey } from '../domain/accounts.ts';
import type { DomainContext } from '../domain/context.ts';

export interface DesktopSession {
  apiBase: string;
  accountId: string;
  keyId: string;
  secret: string;
}

export async function openDesktopSession(ctx: DomainContext, apiBase: string, label = 'desktop app (this launch)'): Promise<DesktopSession> {
  const accounts = await listAccounts(ctx);
  const accountId = accounts[0]?.id ?? (await createAccount(ctx, 'My Organisation')).id;
  const key = await createApiKey(ctx, accountId, label);
  return { apiBase, accountId, keyId: key.keyId, secret: key.secret };
}

export async function closeDesktopSession(ctx: DomainContext, s: DesktopSession): Promise<void> {
  await revokeApiKey(ctx, s.keyId, s.accountId);
}
