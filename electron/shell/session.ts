/**
 * The desktop window's credentials: a fresh API key per launch, handed to the renderer
 * through the preload bridge and revoked at quit, for the organisation this install serves
 * (the event's account at a station of an event hub, else the first account; one is made on
 * first start). `serve --ui` opens one per browser window
 * the same way, for its one-time link.
 *
 * These keys are the app's own sessions (api_keys.session_kind): the server does not hold them
 * to the per-key script rate limit (a scanner's pace is not a script's). The desktop window's
 * key works only in the process that made it (the window and its server start and stop
 * together); a browser window's outlives a restart of the server (domain/accounts/sessions.ts). A key
 * made through the API is never one.
 */
import {
  createAccount,
  createApiKey,
  listAccounts,
  revokeApiKey,
  type SessionKind,
} from '../domain/accounts/index.ts';
import type { DomainContext } from '../domain/index.ts';
import { stationAccounts } from '../sync/index.ts';

export interface DesktopSession {
  apiBase: string;
  accountId: string;
  keyId: string;
  secret: string;
}

/**
 * A desktop key is a session key of this process: it works only here, is revoked at quit, and
 * if the process dies without quitting (a crash, kill -9) it is revoked at the next start.
 * A browser key belongs to the database instead, until ended or idle (domain/accounts/sessions.ts).
 */
export async function openDesktopSession(
  ctx: DomainContext,
  apiBase: string,
  label = 'desktop app (this launch)',
  kind: SessionKind = 'desktop',
): Promise<DesktopSession> {
  const accounts = await listAccounts(ctx);
  // A station of an event works in the event's account (joined after the first one was made).
  const stations = new Set(await stationAccounts(ctx.store.db));
  const accountId =
    accounts.find((a) => stations.has(a.id))?.id ??
    accounts[0]?.id ??
    (await createAccount(ctx, 'My Organisation')).id;
  const key = await createApiKey(ctx, accountId, label, kind);
  return { apiBase, accountId, keyId: key.keyId, secret: key.secret };
}

export async function closeDesktopSession(ctx: DomainContext, s: DesktopSession): Promise<void> {
  await revokeApiKey(ctx, s.keyId, s.accountId);
}
