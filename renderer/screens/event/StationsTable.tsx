/**
 * The event's stations, at the hub: each one's name, when it last spoke to the hub, the gifts
 * the hub holds from it, what it says it still has waiting, and Revoke — after a confirmation
 * that says what follows (the station is refused at once; what it has not sent stays on it).
 * Refreshed every few seconds while shown.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type { HubStation } from '#shared/schemas/hub.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { whole } from '../../ui/format.ts';
import { Button, ConfirmDialog, EmptyState, Loaded, Table } from '../../ui/index.ts';
import { useAction } from '../settings/saving.ts';
import { ago, clockTime } from '../settings/sync-keys.ts';
import { EVENT_REFRESH_MS, eventKeys } from './event-words.ts';

type Station = z.infer<typeof HubStation>;

export function StationsTable() {
  const api = useApi();
  const stations = useQuery({
    queryKey: eventKeys.stations,
    queryFn: () => api.hub.stations(),
    refetchInterval: EVENT_REFRESH_MS,
    staleTime: 0,
  });
  const [revoking, setRevoking] = useState<Station | null>(null);
  const revoke = useAction({
    mutationFn: (s: Station) => api.hub.revoke(s.id),
    invalidate: [qk.hub],
    done: (_r, s) => `${s.name} was removed from the event: it is refused from now on.`,
    onSaved: () => setRevoking(null),
    onFailed: () => setRevoking(null),
  });
  const list = stations.data?.stations ?? [];
  return (
    <section className="panel" aria-labelledby="event-stations-title">
      <h3 id="event-stations-title" className="panel-title">
        Stations
      </h3>
      <Loaded
        query={stations}
        noun="stations"
        isEmpty={list.length === 0}
        empty={
          <EmptyState title="No station has joined yet">
            On each gift table’s laptop, in Settings, Event: “Join an event”, then scan the QR code or paste
            the join link above. Each station needs a new code.
          </EmptyState>
        }
      >
        <Table
          caption="The event’s stations"
          columns={[
            'Station',
            'Last contact',
            { label: 'Gifts received', num: true },
            { label: 'Still waiting', num: true },
          ]}
          actions="Actions"
          className="event-stations"
        >
          {list.map((s) => (
            <StationRow key={s.id} s={s} onRevoke={() => setRevoking(s)} />
          ))}
        </Table>
      </Loaded>
      <ConfirmDialog
        open={revoking !== null}
        title={`Remove ${revoking?.name ?? 'this station'} from the event?`}
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => setRevoking(null)}
      >
        <p>
          The hub refuses this station from now on, and the station says so. The gifts the hub holds from it
          stay.
          {revoking?.waiting ? (
            <>
              {' '}
              <strong>
                It says {whole(revoking.waiting)} {revoking.waiting === 1 ? 'change is' : 'changes are'} still
                waiting there
              </strong>
              : they stay on that laptop and will not reach the hub.
            </>
          ) : null}
        </p>
        <p>To bring it back, pair it again with a new code.</p>
      </ConfirmDialog>
    </section>
  );
}

function StationRow({ s, onRevoke }: { s: Station; onRevoke: () => void }) {
  return (
    <tr data-testid="hub-station" data-station={s.name}>
      <th scope="row">{s.name}</th>
      <td>
        {s.lastSeenAt ? (
          <time dateTime={s.lastSeenAt} title={new Date(s.lastSeenAt).toLocaleString()}>
            {ago(s.lastSeenAt)}
          </time>
        ) : (
          <span className="muted">never</span>
        )}
      </td>
      <td className="num">{whole(s.received)}</td>
      <td className="num">
        {s.waiting === null ? <span className="muted">not said</span> : whole(s.waiting)}
      </td>
      <td className="event-row-actions">
        {s.revokedAt ? (
          <span className="muted">Removed at {clockTime(s.revokedAt)}</span>
        ) : (
          <Button tone="danger" onClick={onRevoke} aria-label={`Revoke ${s.name}`}>
            Revoke
          </Button>
        )}
      </td>
    </tr>
  );
}
