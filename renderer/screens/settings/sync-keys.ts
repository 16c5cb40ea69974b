/** Query keys of the sync screens and badge (under qk.sync, so a saved gift refreshes them). */
export const syncKeys = {
  settings: ['sync', 'settings'] as const,
  status: ['sync', 'status'] as const,
  attention: ['sync', 'attention'] as const,
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

/** "in 12 s" / "at 14:05" from an ISO time in the future. */
export function until(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((Date.parse(iso) - now) / 1000));
  if (s < 120) return `in ${s} s`;
  return `at ${new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
}
