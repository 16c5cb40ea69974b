/**
 * The desktop window's credentials: a fresh API key per launch, handed to the renderer
 * through the preload bridge and revoked at quit, for the organisation this install serves
 * (the first account; one is made on first start). `serve --ui` opens one per browser window
 * the same way, for its one-time link.
 *
 * These keys are the app's own sessions: the server does not hold them to the per-key script
 * rate limit (a scanner's pace is not a script's). Which keys they are is known only to this
 * process, in memory: the mark dies with it, and a key made through the API is never one.
 */
import { createAccount, createApiKey, listAccounts, revokeApiKey } from '../domain/accounts.ts';
import type { DomainContext } from '../domain/context.ts';

export interface DesktopSession {
  apiBase: string;
  accountId: string;
  keyId: string;
  secret: string;
}

/** Per database (every context over the same store sees the same sessions). */
const appSessions = new WeakMap<DomainContext['store'], Set<string>>();

/** Whether `keyId` is a session this process opened for its own window (not a script's key). */
export function isAppSessionKey(ctx: DomainContext, keyId: string): boolean {
  return appSessions.get(ctx.store)?.has(keyId) ?? false;
}

/** The key is revoked or about to be: it is no longer the app's session. */
export function forgetAppSession(ctx: DomainContext, keyId: string): void {
  appSessions.get(ctx.store)?.delete(keyId);
}

export async function openDesktopSession(ctx: DomainContext, apiBase: string, label = 'desktop app (this launch)'): Promise<DesktopSession> {
  const accounts = await listAccounts(ctx);
  const accountId = accounts[0]?.id ?? (await createAccount(ctx, 'My Organisation')).id;
  const key = await createApiKey(ctx, accountId, label);
  const mine = appSessions.get(ctx.store) ?? new Set<string>();
  mine.add(key.keyId);
  appSessions.set(ctx.store, mine);
  return { apiBase, accountId, keyId: key.keyId, secret: key.secret };
}

export async function closeDesktopSession(ctx: DomainContext, s: DesktopSession): Promise<void> {
  forgetAppSession(ctx, s.keyId);
  await revokeApiKey(ctx, s.keyId, s.accountId);
}
