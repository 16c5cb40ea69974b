/**
 * What the event says wherever the person is, not only in Settings → Event:
 *
 * - at a station the hub removed, gift entry says at once that gifts typed now stay on this
 *   laptop until it pairs again, and how (RemovedStationBanner);
 * - at a hub whose server does not serve the event now (GiftDesk was started again), the header
 *   says the stations cannot reach it (HubNotServedBadge).
 *
 * Both read GET /event (the same query as Settings → Event), refreshed every few seconds.
 */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/provider.tsx';
import { hrefFor } from '../../router.ts';
import { clockTime, EVENT_REFRESH_MS, eventKeys } from './event-words.ts';

function useEventStatus() {
  const api = useApi();
  return useQuery({
    queryKey: eventKeys.status,
    queryFn: () => api.event.status(),
    refetchInterval: (q) => (q.state.data && q.state.data.role !== 'none' ? EVENT_REFRESH_MS : false),
  });
}

/** The words every place uses for a removed station: what happens to new gifts, and what to do. */
export function removedWords(revokedAt: string): { head: string; what: string; how: string } {
  return {
    head: `This station was removed from the event at ${clockTime(revokedAt)}.`,
    what: 'Gifts typed now stay on this laptop: the hub does not get them until this station pairs again. Nothing typed here is lost.',
    how: 'To pair again, ask the coordinator for a new pairing code, then go to Settings → Event → “Pair this station again” and type it.',
  };
}

export function RemovedStationBanner() {
  const s = useEventStatus().data;
  if (s?.role !== 'station' || !s.revokedAt) return null;
  const w = removedWords(s.revokedAt);
  return (
    <div className="notice notice-error event-removed" role="alert" data-testid="station-removed-banner">
      <p>
        <strong>{w.head}</strong> {w.what}
      </p>
      <p>
        {w.how} <a href={hrefFor('settings', 'event')}>Open Settings → Event</a>
      </p>
    </div>
  );
}

export function HubNotServedBadge() {
  const s = useEventStatus().data;
  if (s?.role !== 'hub' || s.serving !== false) return null;
  return (
    <a
      className="event-not-served"
      href={hrefFor('settings', 'event')}
      data-testid="hub-not-served"
      title="This laptop hosts the event but does not serve it now: the stations cannot reach it. Serve it again in Settings → Event."
    >
      Event not served: stations cannot reach this hub
    </a>
  );
}
