/**
 * A laptop's first start asks what it is for: hosting an event (the hub), joining one as a
 * gift table (a station), or working alone. Shown in gift entry while the laptop is fresh — in
 * no event, no sync set up, no donor and no batch — until one is chosen; "Just this laptop" is
 * remembered on this computer. Hosting and joining open Settings → Event, where each is done.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/provider.tsx';
import { navigate } from '../../router.ts';
import { Button } from '../../ui/index.ts';
import { eventKeys } from '../event/event-words.ts';
import { syncKeys } from '../settings/sync-keys.ts';

const aloneKey = (accountId: string) => `giftdesk.firstRun.${accountId}`;

/** True while this laptop holds nothing and belongs to nothing (each answer known). */
function useFresh(batches: number | undefined): boolean {
  const api = useApi();
  const event = useQuery({ queryKey: eventKeys.status, queryFn: () => api.event.status() });
  const sync = useQuery({ queryKey: syncKeys.status, queryFn: () => api.sync.status() });
  const donors = useQuery({
    queryKey: ['contacts', 'first-run'],
    queryFn: () => api.contacts.list({ limit: 1 }),
    enabled: batches === 0,
  });
  return (
    batches === 0 &&
    event.data?.role === 'none' &&
    sync.data?.configured === false &&
    donors.data !== undefined &&
    donors.data.data.length === 0
  );
}

export function FirstRun({ batches }: { batches: number | undefined }) {
  const api = useApi();
  const fresh = useFresh(batches);
  const [alone, setAlone] = useState(() => localStorage.getItem(aloneKey(api.accountId)) === 'alone');
  if (!fresh || alone) return null;
  return (
    <section className="panel first-run" aria-labelledby="first-run-title" data-testid="first-run">
      <h2 id="first-run-title" className="panel-title">
        What is this laptop for?
      </h2>
      <p className="muted">
        Nothing is on it yet. At an event with several gift tables, one laptop hosts the event and the others
        join it; each table’s gifts reach the hub at once, with no internet.
      </p>
      <div className="first-run-choices">
        <Button tone="primary" onClick={() => navigate('settings', 'event')}>
          Host an event
        </Button>
        <Button onClick={() => navigate('settings', 'event')}>Join an event as a gift table</Button>
        <Button
          tone="quiet"
          onClick={() => {
            localStorage.setItem(aloneKey(api.accountId), 'alone');
            setAlone(true);
          }}
        >
          Just this laptop
        </Button>
      </div>
    </section>
  );
}
