/**
 * Screens are addressed by the hash (#/gifts, #/contacts/cnt_…), so the app works the same
 * from a file-less static server, in Electron and in a browser, and Back works.
 */
import type { Role } from '#shared/schemas/roles.ts';
import { useSyncExternalStore } from 'react';

/** The screens; `roles`: who is shown it (everyone when left out; renderer/session/role.ts). */
export const SCREENS = [
  { id: 'gifts', label: 'Gift entry', key: '1' },
  { id: 'contacts', label: 'Contacts', key: '2' },
  { id: 'review', label: 'Review', key: '3', roles: ['coordinator', 'administrator'] },
  { id: 'dashboard', label: 'Dashboard', key: '4', roles: ['coordinator', 'treasurer', 'administrator'] },
  { id: 'letters', label: 'Letters', key: '6', roles: ['coordinator', 'treasurer', 'administrator'] },
  { id: 'settings', label: 'Settings', key: '5', roles: ['coordinator', 'treasurer', 'administrator'] },
] as const satisfies ReadonlyArray<{ id: string; label: string; key: string; roles?: readonly Role[] }>;
export type ScreenId = (typeof SCREENS)[number]['id'];

/** What every screen is given by the shell (renderer/App.tsx). */
export interface ScreenProps {
  route: Route;
}

/** Where the batch being typed into is remembered, per account (gift entry sets it, the Dashboard reads it). */
export const batchKey = (accountId: string) => `giftdesk.batch.${accountId}`;

export interface Route {
  screen: ScreenId;
  /** The path after the screen: "#/contacts/cnt_1/edit" → ["cnt_1", "edit"]. */
  rest: string[];
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const screen = SCREENS.find((s) => s.id === parts[0])?.id ?? 'gifts';
  return { screen, rest: screen === parts[0] ? parts.slice(1) : [] };
}

export function hrefFor(screen: ScreenId, ...rest: string[]): string {
  return `#/${[screen, ...rest].map(encodeURIComponent).join('/')}`;
}

/**
 * Goes to a screen. The route's readers hear of it at once, not only at the 'hashchange' event
 * (a task later): inside flushSync (the shell's Alt+N) the new screen is on screen, and focused,
 * before the keystroke's handling ends, so the next key lands in it.
 */
export function navigate(screen: ScreenId, ...rest: string[]): void {
  window.location.hash = hrefFor(screen, ...rest);
  for (const cb of [...listeners]) cb();
}

const listeners = new Set<() => void>();
const subscribe = (cb: () => void) => {
  listeners.add(cb);
  window.addEventListener('hashchange', cb);
  return () => {
    listeners.delete(cb);
    window.removeEventListener('hashchange', cb);
  };
};

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseRoute(hash);
}
