/**
 * Settings → API keys, the app's own windows: each has a session of its own (a browser tab
 * opened from a printed link, the desktop window), not a key a person made. This window and
 * how many others are open are said once, apart from the keys, and the others' sessions can be
 * ended together after a confirmation.
 */
import { useState } from 'react';
import type { z } from 'zod';
import type { ApiKey } from '#shared/schemas/extensions.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, ConfirmDialog } from '../../ui/index.ts';
import { dateTime } from '../../ui/format.ts';
import { useAction } from './saving.ts';

type Key = z.infer<typeof ApiKey>;

const otherSessions = (n: number) =>
  n === 1 ? 'the other window’s session' : `the other ${n} windows’ sessions`;

/** The panel: `others` are the open sessions of every window but this one. */
export function AppWindows({ others }: { others: Key[] }) {
  const api = useApi();
  const [ending, setEnding] = useState(false);
  const endOthers = useAction({
    mutationFn: async (ks: Key[]) => {
      for (const k of ks) await api.apiKeys.revoke(k.keyId);
      return ks.length;
    },
    invalidate: [qk.apiKeys],
    done: (n) => `Ended ${otherSessions(n)}. A window still open asks for a fresh link.`,
    onSaved: () => setEnding(false),
    onFailed: () => setEnding(false),
  });
  return (
    <>
      <div className="panel" role="region" aria-labelledby="app-windows-title">
        <h3 id="app-windows-title" className="panel-title">
          Open app windows
        </h3>
        <p id="app-windows-summary">
          {others.length === 0
            ? 'This window only.'
            : `This window and ${others.length} other ${others.length === 1 ? 'window' : 'windows'} with a session open.`}{' '}
          <span className="muted">
            Each window has a session of its own, not an API key. A browser window’s outlives a restart of
            GiftDesk and ends after 12 hours unused; a browser tab that was closed keeps its session until
            then, unless you end it here.
          </span>
        </p>
        {others.length > 0 ? (
          <>
            <details className="settings-archived">
              <summary>The other windows ({others.length})</summary>
              <ul className="settings-plain-list">
                {others.map((k) => (
                  <li key={k.keyId}>
                    {k.session === 'desktop' ? 'Desktop app' : 'Browser window'}, opened{' '}
                    {dateTime(k.createdAt)}
                    {k.lastUsedAt ? `, last active ${dateTime(k.lastUsedAt)}` : ''}
                  </li>
                ))}
              </ul>
            </details>
            <Button className="btn-quiet-danger" tone="quiet" onClick={() => setEnding(true)}>
              End the other windows’ sessions
            </Button>
          </>
        ) : null}
      </div>
      <ConfirmDialog
        open={ending}
        title={`End ${otherSessions(others.length)}?`}
        confirmLabel="End sessions"
        busy={endOthers.isPending}
        onConfirm={() => endOthers.mutate(others)}
        onCancel={() => setEnding(false)}
      >
        <p>
          This window stays open. A window whose session ends shows GiftDesk no more until it is opened again
          from the newest link printed where GiftDesk runs.
        </p>
      </ConfirmDialog>
    </>
  );
}
