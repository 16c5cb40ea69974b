/**
 * Screens are addressed by the hash (#/gifts, #/contacts/cnt_…), so the app works the same
 * from a file-less static server, in Electron and in a browser, and Back works.
 */
import { useSyncExternalStore } from 'react';

export const SCREENS = [
  { id: 'gifts', label: 'Gift entry', key: '1' },
  { id: 'contacts', label: 'Contacts', key: '2' },
  { id: 'review', label: 'Review', key: '3' },
  { id: 'dashboard', label: 'Dashboard', key: '4' },
  { id: 'settings', label: 'Settings', key: '5' },
] as const;
export type ScreenId = (typeof SCREENS)[number]['id'];

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

export function navigate(screen: ScreenId, ...rest: string[]): void {
  window.location.hash = hrefFor(screen, ...rest);
}

const subscribe = (cb: () => void) => {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
};

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseRoute(hash);
}
