/**
 * Where the renderer's API credentials come from. In the Electron window the preload bridge
 * (`window.giftdesk.session()`) hands them over. In a browser the address printed by
 * `npm start` carries a one-time token (`#token=…`): it is traded once for a session, kept
 * in sessionStorage (this tab only), and removed from the address bar and history. At a shared
 * server a person signs in instead (SignIn.tsx), or sets their password through their link
 * (`#set-password=…`).
 */
import { AppSession } from '#shared/schemas/session.ts';
import { readTab, writeTab } from '../tab-storage.ts';

declare global {
  interface Window {
    /** Present in the Electron window only (electron/preload.ts). */
    giftdesk?: { session(): Promise<{ apiBase: string; accountId: string; keyId: string; secret: string }> };
  }
}

const STORAGE_KEY = 'giftdesk.session';

export type SessionResult =
  | { kind: 'ready'; session: AppSession }
  | { kind: 'no-session' }
  | { kind: 'set-password'; token: string }
  | { kind: 'link-refused'; message: string }
  | { kind: 'unreachable'; message: string };

const stored = (): AppSession | null => readTab(STORAGE_KEY, AppSession);

/** Keeps the session for this tab (a reload opens it again; storage disabled: until then). */
export function keepSession(session: AppSession): void {
  writeTab(STORAGE_KEY, session);
}

export function forgetSession(): void {
  writeTab(STORAGE_KEY, null);
}

/** The token in `#token=…`, if the address has one. */
export function tokenFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const t = params.get('token');
  return t && t.length > 0 ? t : null;
}

/** The token of a set-password link (`#set-password=…`), if the address has one. */
export function passwordTokenFromHash(hash: string): string | null {
  const t = new URLSearchParams(hash.replace(/^#/, '')).get('set-password');
  return t && t.length > 0 ? t : null;
}

export async function obtainSession(): Promise<SessionResult> {
  if (window.giftdesk) {
    const s = await window.giftdesk.session();
    return { kind: 'ready', session: { accountId: s.accountId, keyId: s.keyId, secret: s.secret } };
  }
  const passwordToken = passwordTokenFromHash(window.location.hash);
  if (passwordToken) {
    // Off the address bar and out of history: the page holds it until the password is set.
    window.history.replaceState(null, '', `${window.location.pathname}#/gifts`);
    return { kind: 'set-password', token: passwordToken };
  }
  const token = tokenFromHash(window.location.hash);
  if (token) {
    // Off the address bar and out of history first: the token is spent whatever happens next.
    window.history.replaceState(null, '', `${window.location.pathname}#/gifts`);
    let res: Response;
    try {
      res = await fetch('/api/v1/browser-session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
        cache: 'no-store',
      });
    } catch {
      return {
        kind: 'unreachable',
        message: 'GiftDesk is not answering at this address. Is it still running?',
      };
    }
    const body: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      const message =
        typeof body === 'object' && body && 'message' in body && typeof body.message === 'string'
          ? body.message
          : 'This link does not open GiftDesk.';
      return stored() ? { kind: 'ready', session: stored()! } : { kind: 'link-refused', message };
    }
    const session = AppSession.parse(body);
    keepSession(session);
    return { kind: 'ready', session };
  }
  const s = stored();
  return s ? { kind: 'ready', session: s } : { kind: 'no-session' };
}
