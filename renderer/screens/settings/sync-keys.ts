import type { SyncStatus } from '#shared/schemas/sync.ts';

/** Query keys of the sync screens and badge (under qk.sync, so a saved gift refreshes them). */
export const syncKeys = {
  settings: ['sync', 'settings'] as const,
  status: ['sync', 'status'] as const,
};

/** "3 minutes ago" style, from an ISO time. */
export function ago(iso: string, now = Date.now()): string {
  const s = Math.round((now - Date.parse(iso)) / 1000);
  if (s < 45) return 'just now';
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  if (s < 3600) return rtf.format(-Math.round(s / 60), 'minute');
  if (s < 86_400) return rtf.format(-Math.round(s / 3600), 'hour');
  return rtf.format(-Math.round(s / 86_400), 'day');
}

/** "in 12 s" / "at 14:05" / "at 24 Nov, 14:05" from an ISO time in the future. */
export function until(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((Date.parse(iso) - now) / 1000));
  if (s < 120) return `in ${s} s`;
  return `at ${clockTime(iso, now)}`;
}

/** "14:05" today, "24 Nov, 14:05" on another day. */
export function clockTime(iso: string, now = Date.now()): string {
  const d = new Date(iso);
  const time = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return d.toDateString() === new Date(now).toDateString()
    ? time
    : `${d.toLocaleDateString([], { day: 'numeric', month: 'short' })}, ${time}`;
}

type Connection = SyncStatus['connection'];

/** Where the changes go, as the status says: HQ, or an event hub (and whether it removed this station). */
export type RemoteSaid = Pick<SyncStatus, 'remoteKind' | 'revokedAt'>;

/** At a station of an event hub: the same facts, said of the event hub. */
function hubWords(c: Connection, pausedUntil: string | null, revokedAt: string | null) {
  if (revokedAt) return { text: 'This station was removed from the event', at: null };
  switch (c.state) {
    case 'online':
      return { text: 'Event hub connected', at: null };
    case 'quiet':
      return { text: 'Event hub last answered', at: c.lastAnsweredAt };
    case 'offline':
    case 'never':
      return { text: 'Event hub not reachable', at: null };
    case 'paused':
      return { text: 'Paused by the event hub until', at: pausedUntil };
    case 'refused':
      return { text: 'The event hub refused this station', at: null };
  }
}

/**
 * What is true of HQ, in words, with the time it rests on (null when none): the badge's first
 * part and the panel's "HQ" line. From the status's `connection` only; at a station of an
 * event hub (`remote.remoteKind` 'hub'), said of the event hub.
 */
export function connectionWords(
  c: Connection,
  pausedUntil: string | null,
  remote?: RemoteSaid,
): { text: string; at: string | null } {
  if (remote?.remoteKind === 'hub') return hubWords(c, pausedUntil, remote.revokedAt);
  switch (c.state) {
    case 'online':
      return { text: 'Online', at: null };
    case 'quiet':
      return { text: 'HQ last answered', at: c.lastAnsweredAt };
    case 'offline':
      return { text: 'Offline — HQ not reached since', at: c.lastAnsweredAt };
    case 'never':
      return { text: 'Never reached HQ', at: null };
    case 'paused':
      return { text: 'Paused by HQ until', at: pausedUntil };
    case 'refused':
      return { text: 'HQ refused the key', at: null };
  }
}
