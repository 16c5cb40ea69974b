/**
 * The renderer's entry: get the API session (preload bridge, one-time link or this tab's
 * storage) before anything renders, then mount the app; without one, the sign-in page. A link pasted into the address bar
 * of an open tab (only the `#token=…` part changes, so the page is not loaded again) is
 * traded at once and the app mounts again with it: no reload needed.
 */
import { StrictMode, useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { AppSession } from '#shared/schemas/session.ts';
import { App } from './App.tsx';
import { ApiProvider } from './api/provider.tsx';
import {
  forgetSession,
  keepSession,
  obtainSession,
  passwordTokenFromHash,
  tokenFromHash,
  type SessionResult,
} from './session/session.ts';
import { SessionSwitchContext } from './session/session-switch.ts';
import { SetPasswordForm, SignInForm } from './session/SignIn.tsx';
import { ToastProvider } from './ui/index.ts';
import './styles.css';
import './ui/kit.css';
import './screens/gift-entry/gift-entry.css';

type NoSessionResult = Exclude<SessionResult, { kind: 'ready' }> | { kind: 'ended' };

/**
 * No session yet: the way in. A person signs in with their email and password (a shared
 * server's staff); otherwise the link printed where GiftDesk runs opens it.
 */
function NoSession({ result, onSignedIn }: { result: NoSessionResult; onSignedIn: (s: AppSession) => void }) {
  const [passwordSetFor, setPasswordSetFor] = useState<string | null>(null);
  if (result.kind === 'set-password' && passwordSetFor === null)
    return (
      <main className="no-session" id="main">
        <h1>Set your password</h1>
        <SetPasswordForm token={result.token} onDone={setPasswordSetFor} />
      </main>
    );
  const text =
    passwordSetFor !== null
      ? 'Your password is set. Sign in with it.'
      : result.kind === 'link-refused' || result.kind === 'unreachable'
        ? result.message
        : result.kind === 'ended'
          ? 'This window’s session has ended (it was ended, not used for 12 hours, or its person was disabled). Sign in again, or paste the newest link printed where GiftDesk is running into this tab’s address bar.'
          : 'Open GiftDesk with the link printed where it is running (npm start prints it; each link works once), or sign in with your email and password.';
  return (
    <main className="no-session" id="main">
      <h1>GiftDesk</h1>
      <p>{text}</p>
      <SignInForm onSignedIn={onSignedIn} email={passwordSetFor ?? ''} />
    </main>
  );
}

function Root({ session: first }: { session: AppSession }) {
  const [session, setSession] = useState(first);
  const [ended, setEnded] = useState(false);
  const onUnauthorized = useCallback(() => {
    forgetSession();
    setEnded(true);
  }, []);
  // Another session for this window (the event's account after joining one): kept for the
  // tab, and the app starts afresh on it (a new API client and query cache); toasts stay.
  const switchSession = useCallback((next: AppSession) => {
    keepSession(next);
    setSession(next);
  }, []);
  if (ended)
    return (
      <NoSession
        result={{ kind: 'ended' }}
        onSignedIn={(next) => {
          keepSession(next);
          setSession(next);
          setEnded(false);
        }}
      />
    );
  return (
    <ToastProvider>
      <SessionSwitchContext.Provider value={switchSession}>
        <ApiProvider key={session.keyId} session={session} onUnauthorized={onUnauthorized}>
          <App />
        </ApiProvider>
      </SessionSwitchContext.Provider>
    </ToastProvider>
  );
}

const root = createRoot(document.getElementById('root')!);
const signedIn = (session: AppSession) => {
  keepSession(session);
  root.render(
    <StrictMode>
      <Root key={session.keyId} session={session} />
    </StrictMode>,
  );
};
const start = () =>
  obtainSession().then(
    (result) => {
      root.render(
        <StrictMode>
          {result.kind === 'ready' ? (
            <Root key={result.session.keyId} session={result.session} />
          ) : (
            <NoSession result={result} onSignedIn={signedIn} />
          )}
        </StrictMode>,
      );
    },
    () =>
      root.render(
        <NoSession
          result={{
            kind: 'unreachable',
            message: 'GiftDesk could not start this window. Reload the page to try again.',
          }}
          onSignedIn={signedIn}
        />,
      ),
  );
void start();
window.addEventListener('hashchange', () => {
  if (tokenFromHash(window.location.hash) || passwordTokenFromHash(window.location.hash)) void start();
});
