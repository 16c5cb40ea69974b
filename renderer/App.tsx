/**
 * The app shell: a header with the organisation, the main navigation (links, so Tab and
 * Enter reach every screen; Alt+1…6 jump straight there), whether a hosted event is served,
 * the sync badge, and the current screen.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, type ComponentType } from 'react';
import { flushSync } from 'react-dom';
import { useApi } from './api/provider.tsx';
import { qk } from './api/query-keys.ts';
import {
  hrefFor,
  navigate,
  parseRoute,
  SCREENS,
  useRoute,
  type ScreenId,
  type ScreenProps,
} from './router.ts';
import { ContactsScreen } from './screens/contacts/ContactsScreen.tsx';
import { DashboardScreen } from './screens/dashboard/DashboardScreen.tsx';
import { GiftEntryScreen } from './screens/gift-entry/GiftEntryScreen.tsx';
import { LettersScreen } from './screens/letters/LettersScreen.tsx';
import { ReviewScreen } from './screens/review/ReviewScreen.tsx';
import { HubNotServedBadge } from './screens/event/EventAlerts.tsx';
import { SettingsScreen } from './screens/settings/SettingsScreen.tsx';
import { roleSees } from './session/role.ts';
import { SyncBadge } from './SyncBadge.tsx';
import { Screen } from './ui/index.ts';

const SCREEN_COMPONENTS: Record<ScreenId, ComponentType<ScreenProps>> = {
  gifts: GiftEntryScreen,
  contacts: ContactsScreen,
  review: ReviewScreen,
  dashboard: DashboardScreen,
  letters: LettersScreen,
  settings: SettingsScreen,
};

/** A screen the session's role is not shown, reached by its address. */
function NotForRole({ route }: ScreenProps) {
  const label = SCREENS.find((s) => s.id === route.screen)?.label ?? route.screen;
  return (
    <Screen title={label}>
      <p>This screen is not open to your role. Gift entry and Contacts are.</p>
    </Screen>
  );
}

export function App() {
  const api = useApi();
  const route = useRoute();
  const account = useQuery({ queryKey: qk.account, queryFn: () => api.account() });
  const role = account.data?.role ?? null;
  /** The screens this session's role is shown (renderer/session/role.ts). */
  const screens = SCREENS.filter((s) => roleSees(role, 'roles' in s ? s.roles : undefined));
  const shown = useRef(screens);
  shown.current = screens;
  const mainRef = useRef<HTMLElement>(null);
  const firstScreen = useRef(true);

  // The focus into the screen: its data-autofocus element, or its heading (not on the first
  // screen at start, which keeps the page's own focus).
  const focusScreen = (first: boolean) => {
    const main = mainRef.current;
    if (!main) return;
    const auto = main.querySelector<HTMLElement>('[data-autofocus]');
    if (auto) auto.focus();
    else if (!first) main.querySelector<HTMLElement>('#screen-title')?.focus();
  };

  // Alt+1…6: straight to a screen, from anywhere.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const target = shown.current.find((s) => s.key === e.key);
      if (!target) return;
      e.preventDefault();
      const already = parseRoute(window.location.hash).screen === target.id;
      // The new screen renders and takes the focus inside this keystroke (flushSync and the
      // layout effect below): keys typed right after Alt+N land in its first field.
      flushSync(() => navigate(target.id));
      // Alt+N to the screen already shown: no new screen, the layout effect does not run again,
      // yet the focus goes to its first field all the same (from wherever it was, or nowhere).
      if (already) focusScreen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // After navigating, the focus goes into the new screen: its data-autofocus element or its
  // heading. In a layout effect, as soon as the screen is in the DOM (its own layout effects
  // have run), not a frame later, when keys typed meanwhile would have gone elsewhere.
  useLayoutEffect(() => {
    focusScreen(firstScreen.current);
    firstScreen.current = false;
  }, [route.screen]);

  const open = screens.some((s) => s.id === route.screen);
  const Current = open ? SCREEN_COMPONENTS[route.screen] : NotForRole;
  return (
    <div className="app">
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          mainRef.current?.focus();
        }}
      >
        Skip to the screen
      </a>
      <header className="app-header">
        <div className="brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span className="brand-text">
            <span className="brand-name">GiftDesk</span>
            {account.data ? (
              <span className="brand-org" title={account.data.name}>
                {account.data.name}
              </span>
            ) : null}
          </span>
        </div>
        <nav aria-label="Screens" className="nav">
          <ul>
            {screens.map((s) => (
              <li key={s.id}>
                <a
                  href={hrefFor(s.id)}
                  aria-current={route.screen === s.id ? 'page' : undefined}
                  aria-keyshortcuts={`Alt+${s.key}`}
                  title={`${s.label} (Alt+${s.key})`}
                >
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <HubNotServedBadge />
        <SyncBadge />
      </header>
      <main id="main" ref={mainRef} tabIndex={-1} className="app-main">
        <Current route={route} />
      </main>
    </div>
  );
}
