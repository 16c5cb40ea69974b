/**
 * Settings → Event: one event, many stations. In no event, two choices: host it here (this
 * laptop becomes the hub) or join one as a station. Hosting: the address, fingerprint, a
 * pairing code and its QR code, the stations, and the close-out. A station: its hub and its
 * state, and the changes of its that another station's later change replaced.
 */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/provider.tsx';
import { Loaded } from '../../ui/index.ts';
import { SectionHeader } from '../settings/SectionHeader.tsx';
import { CloseOutPanel } from './CloseOutPanel.tsx';
import { EVENT_REFRESH_MS, eventKeys } from './event-words.ts';
import { HostForm } from './HostForm.tsx';
import { JoinForm } from './JoinForm.tsx';
import { PairingPanel } from './PairingPanel.tsx';
import { StationsTable } from './StationsTable.tsx';
import { StationView } from './StationView.tsx';
import './event.css';

export function EventSection() {
  const api = useApi();
  const status = useQuery({
    queryKey: eventKeys.status,
    queryFn: () => api.event.status(),
    refetchInterval: (q) => (q.state.data?.role === 'station' ? EVENT_REFRESH_MS : false),
  });
  const s = status.data;
  return (
    <section aria-labelledby="settings-event" className="settings-section event-section">
      <SectionHeader id="settings-event" title="Event">
        One event, many gift tables: one laptop hosts the event (the hub), the others join it as stations.
        They share donors and gifts over the venue’s network, with no internet.
      </SectionHeader>
      <Loaded query={status} noun="event">
        {s?.role === 'hub' ? (
          <HubView />
        ) : s?.role === 'station' ? (
          <StationView s={s} />
        ) : (
          <div className="event-choices">
            <HostForm />
            <JoinForm />
          </div>
        )}
      </Loaded>
    </section>
  );
}

/** The hub's own view: how stations join, the stations, the night's close-out. */
function HubView() {
  const api = useApi();
  const info = useQuery({ queryKey: eventKeys.info, queryFn: () => api.hub.info() });
  return (
    <Loaded query={info} noun="hub">
      {info.data && !info.data.hosting ? (
        <HostForm again url={info.data.url} bindHost={info.data.bindHost} />
      ) : null}
      {info.data?.hosting ? <PairingPanel info={info.data} /> : null}
      <StationsTable />
      <CloseOutPanel />
    </Loaded>
  );
}
