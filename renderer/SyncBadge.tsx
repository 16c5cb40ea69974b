/**
 * The sync badge in the app header: what is true of HQ (online = HQ answered a request in the
 * last two minutes; otherwise offline since when, never reached, paused by HQ until when, or
 * the key refused), the changes waiting for HQ, and the records that need attention (a link
 * to that list). Every word comes from the one sync status (GET /sync/status, query key
 * syncKeys.status, shared with Settings → Sync), never from the browser's own network flag.
 * A gift saved in gift entry brings the status in its answer (showSavedGift); saving a contact
 * or "Sync now" refreshes it (they invalidate qk.sync). It polls for the scheduler's passes:
 * every 3 s while anything waits for HQ, every 15 s when all is sent (not while the window is
 * hidden), counted from the status's last news — so while saves bring it, it never polls.
 * At a station of an event hub the same words are said of the event hub ("Event hub not
 * reachable · 3 waiting"), and a station the hub removed says so.
 * While GiftDesk's own server is not answering (api/server-reach.ts) it says that instead:
 * the last status it read may no longer be true.
 */
import { useQuery } from '@tanstack/react-query';
import { useApi } from './api/provider.tsx';
import { useServerDown } from './api/server-reach.ts';
import { hrefFor } from './router.ts';
import { ConnectionText } from './screens/settings/ConnectionText.tsx';
import { clockTime, connectionWords, syncKeys } from './screens/settings/sync-keys.ts';

export function SyncBadge() {
  const api = useApi();
  const status = useQuery({
    queryKey: syncKeys.status,
    queryFn: () => api.sync.status(),
    refetchInterval: (q) =>
      q.state.data && q.state.data.configured && q.state.data.waiting > 0 ? 3_000 : 15_000,
    refetchIntervalInBackground: false,
  });
  const serverDown = useServerDown();
  const s = status.data;
  if (serverDown)
    return (
      <div
        className="sync-badge sync-badge-warn"
        data-testid="sync-badge"
        role="status"
        aria-label="GiftDesk’s server is not answering; nothing typed is lost, it will retry"
      >
        <span className="sync-badge-down">
          <span className="sync-dot sync-dot-off" aria-hidden="true" />
          <span data-testid="sync-badge-connection" data-state="server-down">
            Server not answering
          </span>
        </span>
      </div>
    );
  if (!s) return null;
  const href = hrefFor('settings', 'sync');
  if (!s.configured)
    return (
      <a className="sync-badge sync-badge-off" href={href} data-testid="sync-badge">
        Sync not set up
      </a>
    );
  const c = s.connection;
  const online = c.state === 'online';
  const hub = s.remoteKind === 'hub';
  const said = connectionWords(c, s.pausedUntil, s);
  const backingOff = s.failing.length > 0 && c.state !== 'paused';
  const tone =
    s.needsAttention > 0 || backingOff || c.state === 'refused' || s.revokedAt !== null
      ? 'warn'
      : !online
        ? 'muted'
        : s.waiting > 0
          ? 'busy'
          : 'ok';
  const waiting = s.waiting > 0 ? `${s.waiting} waiting` : hub ? 'sent to the event hub' : 'all sent';
  const spoken = [
    said.at ? `${said.text} ${clockTime(said.at)}` : said.text,
    waiting,
    backingOff ? 'backing off' : null,
  ].filter(Boolean);
  const remoteName = hub ? 'The event hub' : 'HQ';
  const title = c.lastAnsweredAt
    ? `${remoteName} last answered ${new Date(c.lastAnsweredAt).toLocaleString()}`
    : `${remoteName} has never answered`;
  return (
    <div
      className={`sync-badge sync-badge-${tone}`}
      data-testid="sync-badge"
      role="status"
      aria-label={`Sync: ${spoken.join(', ')}${s.needsAttention > 0 ? `, ${s.needsAttention} need attention` : ''}`}
    >
      <a href={href} title={title}>
        <span className={`sync-dot ${online ? 'sync-dot-on' : 'sync-dot-off'}`} aria-hidden="true" />
        <span data-testid="sync-badge-connection" data-state={c.state}>
          <ConnectionText said={said} />
        </span>
        {' · '}
        <span data-testid="sync-badge-waiting">{waiting}</span>
        {backingOff ? ' · backing off' : null}
      </a>
      {s.needsAttention > 0 ? (
        <a
          className="sync-badge-attention"
          href={href}
          data-testid="sync-badge-attention"
          onClick={() =>
            requestAnimationFrame(() => document.getElementById('sync-attention')?.scrollIntoView())
          }
        >
          {s.needsAttention} need{s.needsAttention === 1 ? 's' : ''} attention
        </a>
      ) : null}
    </div>
  );
}
