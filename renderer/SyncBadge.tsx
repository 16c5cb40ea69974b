/**
 * The sync badge in the app header: online/offline, changes waiting for HQ, records that
 * need attention (a link to that list), and HQ's pause or a back-off. It is refreshed at once
 * when the app saves a gift or contact or runs "Sync now" (they invalidate qk.sync), and polls
 * for the scheduler's passes: every 3 s while anything waits for HQ, every 15 s when all is sent
 * (TanStack Query's refetchInterval; not while the window is hidden).
 */
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useApi } from './api/provider.tsx';
import { hrefFor } from './router.ts';
import { syncKeys } from './screens/settings/sync-keys.ts';

const subscribeOnline = (cb: () => void) => {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => {
    window.removeEventListener('online', cb);
    window.removeEventListener('offline', cb);
  };
};

export function SyncBadge() {
  const api = useApi();
  const online = useSyncExternalStore(subscribeOnline, () => navigator.onLine);
  const status = useQuery({ queryKey: syncKeys.status, queryFn: () => api.sync.status(), refetchInterval: (q) => (q.state.data && q.state.data.configured && q.state.data.pending + q.state.data.inFlight > 0 ? 3_000 : 15_000), refetchIntervalInBackground: false });
  const s = status.data;
  if (!s) return null;
  const href = hrefFor('settings', 'sync');
  if (!s.configured)
    return (
      <a className="sync-badge sync-badge-off" href={href} data-testid="sync-badge">
        Sync not set up
      </a>
    );
  const paused = s.pausedUntil !== null;
  const backingOff = s.failing.length > 0;
  const waiting = s.pending + s.inFlight;
  const tone = s.needsAttention > 0 || backingOff ? 'warn' : !online || paused ? 'muted' : waiting > 0 ? 'busy' : 'ok';
  const parts = [
    online ? 'Online' : 'Offline',
    waiting > 0 ? `${waiting} waiting` : 'all sent',
    paused ? 'paused by HQ' : backingOff ? 'backing off' : null,
  ].filter(Boolean);
  const title = s.lastSuccessAt ? `Last sent to HQ ${new Date(s.lastSuccessAt).toLocaleString()}` : 'Nothing sent to HQ yet';
  return (
    <div className={`sync-badge sync-badge-${tone}`} data-testid="sync-badge" role="status" aria-label={`Sync: ${parts.join(', ')}${s.needsAttention > 0 ? `, ${s.needsAttention} need attention` : ''}`}>
      <a href={href} title={title}>
        <span className={`sync-dot ${online ? 'sync-dot-on' : 'sync-dot-off'}`} aria-hidden="true" />
        {parts.join(' · ')}
      </a>
      {s.needsAttention > 0 ? (
        <a className="sync-badge-attention" href={href} onClick={() => requestAnimationFrame(() => document.getElementById('sync-attention')?.scrollIntoView())}>
          {s.needsAttention} need{s.needsAttention === 1 ? 's' : ''} attention
        </a>
      ) : null}
    </div>
  );
}
