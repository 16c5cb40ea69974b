/**
 * The renderer's entry: get the API session (preload bridge, one-time link or this tab's
 * storage) before anything renders, then mount the app.
 */
import { StrictMode, useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { AppSession } from '#shared/schemas/session.ts';
import { App } from './App.tsx';
import { ApiProvider } from './api/provider.tsx';
import { forgetSession, obtainSession, type SessionResult } from './session/session.ts';
import { ToastProvider } from './ui/index.ts';
import './styles.css';

function NoSession({ result }: { result: Exclude<SessionResult, { kind: 'ready' }> | { kind: 'ended' } }) {
  const text =
    result.kind === 'link-refused' || result.kind === 'unreachable'
      ? result.message
      : result.kind === 'ended'
        ? 'This window’s session has ended (GiftDesk was restarted). Open the newest link printed where GiftDesk is running.'
        : 'Open GiftDesk with the link printed where it is running (npm start prints it; each link works once).';
  return (
    <main className="no-session" id="main">
      <h1>GiftDesk</h1>
      <p>{text}</p>
    </main>
  );
}

function Root({ session }: { session: AppSession }) {
  const [ended, setEnded] = useState(false);
  const onUnauthorized = useCallback(() => {
    forgetSession();
    setEnded(true);
  }, []);
  if (ended) return <NoSession result={{ kind: 'ended' }} />;
  return (
    <ApiProvider session={session} onUnauthorized={onUnauthorized}>
      <ToastProvider>
        <App />
      </ToastProvider>
    </ApiProvider>
  );
}

const root = createRoot(document.getElementById('root')!);
obtainSession().then(
  (result) => {
    root.render(
      <StrictMode>
        {result.kind === 'ready' ? <Root session={result.session} /> : <NoSession result={result} />}
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
      />,
    ),
);
