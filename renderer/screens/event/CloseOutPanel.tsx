/**
 * Closing the night, at the hub: per station the gifts the hub holds and their total by
 * payment method, and where it stands ("Table B says it entered 41 gifts; the hub holds 40 — 1
 * still waiting"; "revoked — not known after 21:05"; complete only from a report since the hub
 * last started serving); the batches each station counted, beside what the hub holds; the gifts
 * typed at the hub itself (the hub's own row); the event's totals. "Print deposit summary"
 * prints the cash total, the checks with their numbers and the stations' counts
 * (DepositSummary.tsx). Refreshed every few seconds while shown.
 */
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CloseOut, MethodTotals } from '#shared/schemas/hub.ts';
import { useApi } from '../../api/provider.tsx';
import { count, money } from '../../ui/format.ts';
import { Button, EmptyState, Loaded, Table } from '../../ui/index.ts';
import { METHOD_LABEL } from '../gift-entry/reference.ts';
import { DepositSummary } from './DepositSummary.tsx';
import { EVENT_REFRESH_MS, clockTime, completeness, eventKeys } from './event-words.ts';

type Methods = z.infer<typeof MethodTotals>;
type Close = z.infer<typeof CloseOut>;

/** "Cash 3 · $150.00, Check 2 · $500.00": a total by method, in words. */
export function methodLine(byMethod: Methods): string {
  const parts = Object.entries(byMethod)
    .filter(([, v]) => v.gifts > 0)
    .sort(([, a], [, b]) => b.total - a.total)
    .map(([m, v]) => `${methodLabel(m)} ${v.gifts} · ${money(v.total)}`);
  return parts.length > 0 ? parts.join(', ') : '—';
}

export function methodLabel(m: string): string {
  return Object.hasOwn(METHOD_LABEL, m) ? METHOD_LABEL[m as keyof typeof METHOD_LABEL] : m;
}

/** The close-out's row of the gifts typed at the hub itself (the hub's own id for it). */
const HUB_ROW = 'hub';

export function CloseOutPanel() {
  const api = useApi();
  const close = useQuery({
    queryKey: eventKeys.closeOut,
    queryFn: () => api.hub.closeOut(),
    refetchInterval: EVENT_REFRESH_MS,
    staleTime: 0,
  });
  const c = close.data;
  return (
    <section className="panel event-close" aria-labelledby="event-close-title">
      <div className="event-close-head">
        <h3 id="event-close-title" className="panel-title">
          Closing the night
        </h3>
        {c ? (
          <Button tone="primary" onClick={() => window.print()} disabled={c.gifts === 0}>
            Print deposit summary
          </Button>
        ) : null}
      </div>
      <Loaded
        query={close}
        noun="close-out"
        isEmpty={c !== undefined && c.gifts === 0 && c.stations.length === 0}
        empty={
          <EmptyState title="No gifts yet">
            The night’s figures appear here as the stations send their gifts.
          </EmptyState>
        }
      >
        {c ? <CloseOutTable c={c} /> : null}
      </Loaded>
      {c ? <DepositSummary c={c} /> : null}
    </section>
  );
}

function CloseOutTable({ c }: { c: Close }) {
  const incomplete = c.stations.filter((s) => !s.complete);
  return (
    <>
      <p
        className={`notice ${incomplete.length === 0 ? 'notice-ok' : 'notice-warn'}`}
        data-testid="close-out-state"
        role="status"
      >
        {incomplete.length === 0
          ? 'Every station’s gifts are at the hub.'
          : `Not complete yet: ${incomplete.map((s) => s.name).join(', ')} ${incomplete.length === 1 ? 'has' : 'have'} not shown that every gift reached the hub.`}
      </p>
      <Table
        caption="The night’s gifts by station"
        columns={[
          'Station',
          { label: 'Gifts', num: true },
          { label: 'Total', num: true },
          'By payment method',
          'Complete',
        ]}
        className="event-close-table"
      >
        {c.stations.map((s) => {
          const atHub = s.id === HUB_ROW;
          return (
            <tr key={s.id} data-testid="close-out-station" data-station={atHub ? 'the hub' : s.name}>
              <th scope="row">{atHub ? 'The hub (typed here)' : s.name}</th>
              <td className="num">{s.gifts}</td>
              <td className="num">{money(s.total)}</td>
              <td>{methodLine(s.byMethod)}</td>
              <td className={s.complete ? 'event-complete' : 'event-incomplete'}>
                {atHub ? 'Typed here.' : completeness(s)}
              </td>
            </tr>
          );
        })}
      </Table>
      <BatchCounts c={c} />
      <dl className="event-totals" data-testid="close-out-totals">
        <div>
          <dt>The event</dt>
          <dd>
            {count(c.gifts, 'gift')} · <strong data-testid="close-out-total">{money(c.total)}</strong>
          </dd>
        </div>
        <div>
          <dt>By payment method</dt>
          <dd>{methodLine(c.byMethod)}</dd>
        </div>
        <div>
          <dt>Cash</dt>
          <dd data-testid="close-out-cash">{money(c.cashTotal)}</dd>
        </div>
        <div>
          <dt>Checks</dt>
          <dd>{count(c.checks.length, 'check')}</dd>
        </div>
      </dl>
    </>
  );
}

/** The batches each station counted (its own bookkeeping, as it reported it), counted against entered. */
function BatchCounts({ c }: { c: Close }) {
  const rows = c.stations.flatMap((s) => s.batches.map((b) => ({ station: s.name, b })));
  if (rows.length === 0) return null;
  return (
    <Table
      caption="Batches counted at the stations"
      columns={[
        'Station',
        'Batch',
        { label: 'Entered', num: true },
        { label: 'Counted', num: true },
        { label: 'Difference', num: true },
        'Counted by',
      ]}
      className="event-close-table"
    >
      {rows.map(({ station, b }) => (
        <tr key={`${station}:${b.batchId}`} data-testid="close-out-batch">
          <th scope="row">{station}</th>
          <td>{b.batchName}</td>
          <td className="num">{money(b.enteredTotal)}</td>
          <td className="num">{money(b.countedTotal)}</td>
          <td className={`num ${b.difference === 0 ? '' : 'event-incomplete'}`}>
            {b.difference === 0 ? 'balanced' : money(b.difference)}
          </td>
          <td>
            {b.countedBy} at {clockTime(b.countedAt)}
          </td>
        </tr>
      ))}
    </Table>
  );
}
