/**
 * Closing the night, at the hub: per station the gifts the hub holds and their total by
 * payment method, and whether everything that station entered has arrived ("Table B says it
 * entered 41 gifts; the hub holds 40 — 1 still waiting"); the gifts typed at the hub itself
 * (the hub's own row); the event's totals. "Print deposit summary" prints the cash total and the checks
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
import { EVENT_REFRESH_MS, completeness, eventKeys } from './event-words.ts';

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
          : `Not complete yet: ${incomplete.map((s) => s.name).join(', ')} ${incomplete.length === 1 ? 'has' : 'have'} gifts that have not reached the hub.`}
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
