/**
 * This laptop as one of the event's stations: the hub's address and fingerprint, this
 * station's name, whether the hub answers (or that it removed this station), what waits to
 * reach it, and the notices — a donor's field changed here that a later change at another
 * station replaced (never dropped silently); a station the hub removed says that what is typed
 * stays here, and pairs again (JoinForm with `again`); and, folded away, moving to a
 * replacement hub when the hub laptop is lost (JoinForm with `replacing`).
 */
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { EventStatus, HubNotice } from '#shared/schemas/hub.ts';
import { useApi } from '../../api/provider.tsx';
import { hrefFor } from '../../router.ts';
import { count, dateTime } from '../../ui/format.ts';
import { EmptyState, Loaded } from '../../ui/index.ts';
import { ago } from '../settings/sync-keys.ts';
import { removedWords } from './EventAlerts.tsx';
import { EVENT_REFRESH_MS, eventKeys } from './event-words.ts';
import { JoinForm } from './JoinForm.tsx';

type Status = z.infer<typeof EventStatus>;
type Notice = z.infer<typeof HubNotice>;

/** The hub's state from here, in words, and its tone. */
function connection(s: Status): { text: string; tone: 'ok' | 'warn' | 'error' } {
  if (s.revokedAt)
    return { text: `This station was removed from the event at ${dateTime(s.revokedAt)}`, tone: 'error' };
  if (s.reachable) return { text: 'Connected to the event hub', tone: 'ok' };
  if (s.reachable === null && !s.lastContactAt)
    return { text: 'Not in touch with the event hub yet', tone: 'warn' };
  return {
    text: `Event hub not reachable${s.lastContactAt ? ` since ${ago(s.lastContactAt)}` : ''} · ${s.waiting} waiting`,
    tone: 'warn',
  };
}

export function StationView({ s }: { s: Status }) {
  const c = connection(s);
  const removed = s.revokedAt ? removedWords(s.revokedAt) : null;
  return (
    <>
      <section className="panel" aria-labelledby="event-station-title">
        <h3 id="event-station-title" className="panel-title">
          This laptop is a station of the event
        </h3>
        <p className={`notice notice-${c.tone}`} role="status" data-testid="station-connection">
          {c.text}
        </p>
        <dl className="event-facts">
          <div>
            <dt>Station name</dt>
            <dd data-testid="station-name">{s.station?.name ?? '—'}</dd>
          </div>
          <div>
            <dt>Hub address</dt>
            <dd data-testid="station-hub-url">{s.hubUrl ?? '—'}</dd>
          </div>
          <div>
            <dt>Hub certificate</dt>
            <dd className="event-mono">{s.fingerprint ?? '—'}</dd>
          </div>
          <div>
            <dt>Last contact</dt>
            <dd>{s.lastContactAt ? ago(s.lastContactAt) : 'never'}</dd>
          </div>
          <div>
            <dt>Waiting to reach the hub</dt>
            <dd data-testid="station-waiting">{count(s.waiting, 'change')}</dd>
          </div>
        </dl>
        {removed ? (
          <p className="notice notice-error" data-testid="station-removed">
            {removed.what} {removed.how}
          </p>
        ) : (
          <p className="muted">
            Keep entering gifts whatever the hub’s state: nothing is lost, and what waits goes as soon as the
            hub answers. The <a href={hrefFor('dashboard')}>Dashboard</a> shows the whole event.
          </p>
        )}
      </section>
      {removed ? (
        <JoinForm again={{ hubUrl: s.hubUrl, fingerprint: s.fingerprint, name: s.station?.name ?? null }} />
      ) : null}
      <Notices />
      <details className="event-replace">
        <summary>The hub laptop is lost? Move this station to a replacement hub</summary>
        <JoinForm replacing={{ hubUrl: s.hubUrl, waiting: s.waiting }} />
      </details>
    </>
  );
}

function Notices() {
  const api = useApi();
  const notices = useQuery({
    queryKey: eventKeys.notices,
    queryFn: () => api.event.notices(),
    refetchInterval: EVENT_REFRESH_MS * 2,
  });
  const list = notices.data?.notices ?? [];
  return (
    <section className="panel" aria-labelledby="event-notices-title">
      <h3 id="event-notices-title" className="panel-title">
        Changes replaced at another station
      </h3>
      <Loaded
        query={notices}
        noun="notices"
        isEmpty={list.length === 0}
        empty={
          <EmptyState title="None">
            When a donor’s field changed here is changed again at another station later, the later change wins
            and it is listed here, with both values.
          </EmptyState>
        }
      >
        <ul className="event-notices">
          {list.map((n) => (
            <NoticeLine key={n.id} n={n} />
          ))}
        </ul>
      </Loaded>
    </section>
  );
}

function NoticeLine({ n }: { n: Notice }) {
  return (
    <li data-testid="event-notice">
      Your change to <a href={hrefFor('contacts', n.contactId)}>{n.contactName}</a>’s {n.field} was replaced
      by a later change at another station: yours <q>{n.mine ?? '(empty)'}</q>, now{' '}
      <q>{n.theirs ?? '(empty)'}</q> <span className="muted">({ago(n.createdAt)})</span>
    </li>
  );
}
