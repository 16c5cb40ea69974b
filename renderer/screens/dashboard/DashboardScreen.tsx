/**
 * Dashboard: the evening's figures in type large enough for the event room (gifts entered
 * today, and the current batch against what it expects), refreshed every few seconds and
 * at once after a gift is saved; totals by campaign; gifts over time as a chart with a
 * table beside it for screen readers and for anyone who prefers numbers.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { DonationStats } from '#shared/schemas/stats.ts';
import { batchKey, type ScreenProps } from '../../router.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { hrefFor } from '../../router.ts';
import { Button, EmptyState, Screen, Select } from '../../ui/index.ts';
import { GiftsChart } from './dashboard-chart.tsx';
import { localDate, periodQuery, type Period } from './dashboard-periods.ts';
import { count, money, whole } from '../../ui/format.ts';
import './dashboard.css';

/** How often the figures refresh on their own (a saved gift refreshes them at once). */
const REFRESH_MS = 10_000;

const PERIODS: Array<{ id: Period; label: string }> = [
  { id: 'today', label: 'Today, by hour' },
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
];

/** Today's date, changing at midnight (so an evening that runs past it rolls over). */
function useToday(): string {
  const [today, setToday] = useState(() => localDate(new Date()));
  useEffect(() => {
    const t = setInterval(() => setToday(localDate(new Date())), 30_000);
    return () => clearInterval(t);
  }, []);
  return today;
}

export function DashboardScreen(_props: ScreenProps) {
  const api = useApi();
  const today = useToday();
  const [period, setPeriod] = useState<Period>('today');
  const [batchChoice, setBatchChoice] = useState<string | null>(null);
  const bigRef = useRef<HTMLElement>(null);

  const todayStats = useQuery({
    queryKey: [...qk.stats, 'today', today],
    queryFn: () => api.stats.donations(periodQuery('today')),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
  const batches = useQuery({
    queryKey: [...qk.batches, 'list', 'dashboard'],
    queryFn: () => api.batches.list({ limit: 100 }),
    refetchInterval: REFRESH_MS * 3,
  });
  const batchList = batches.data?.data ?? [];
  // The batch shown: the one chosen here, else the one open in Gift entry, else the newest open one.
  const entering = localStorage.getItem(batchKey(api.accountId));
  const batchId =
    batchChoice ??
    batchList.find((b) => b.id === entering)?.id ??
    batchList.find((b) => b.closedAt === null)?.id ??
    batchList[0]?.id ??
    null;
  const batch = useQuery({
    queryKey: qk.batch(batchId ?? ''),
    queryFn: () => api.batches.get(batchId!),
    enabled: batchId !== null,
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
  const periodStats = useQuery({
    queryKey: [...qk.stats, period, today],
    queryFn: () => api.stats.donations(periodQuery(period)),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

  const updatedAt = todayStats.dataUpdatedAt ? new Date(todayStats.dataUpdatedAt).toLocaleTimeString() : null;
  const b = batch.data;
  const countOff = b && b.expectedCount !== null && b.expectedCount !== b.count;
  const totalOff = b && b.expectedTotal !== null && b.expectedTotal !== b.total;

  return (
    <Screen
      title="Dashboard"
      actions={
        <Button
          onClick={() => {
            const el = bigRef.current;
            if (!el) return;
            if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
            else void el.requestFullscreen?.().catch(() => undefined);
          }}
        >
          Show on a big screen
        </Button>
      }
    >
      <section ref={bigRef} className="big-figures" aria-label="Tonight’s figures">
        <div className="big-figure" aria-live="polite" aria-atomic="true">
          <h2 className="big-label">Entered today</h2>
          {todayStats.data ? (
            <>
              <p className="big-amount" data-testid="today-total">
                {money(todayStats.data.total)}
              </p>
              <p className="big-sub" data-testid="today-count">
                {count(todayStats.data.count, 'gift')}
              </p>
            </>
          ) : (
            <p className="big-sub">
              {todayStats.isError ? `Not available: ${todayStats.error.message}` : 'Loading…'}
            </p>
          )}
        </div>
        <div className="big-figure">
          <div className="big-label-row">
            <h2 className="big-label" id="batch-label">
              {b ? `Batch: ${b.name}` : 'This batch'}
            </h2>
            {batchList.length > 1 ? (
              <Select
                label="Batch shown"
                hideLabel
                value={batchId ?? ''}
                onChange={(e) => setBatchChoice(e.target.value)}
                options={batchList.map((x) => ({
                  value: x.id,
                  label: `${x.name}${x.closedAt ? ' (closed)' : ''}`,
                }))}
                fieldClassName="batch-pick"
              />
            ) : null}
          </div>
          {batchId === null ? (
            batches.isPending ? (
              <p className="big-sub">Loading…</p>
            ) : (
              <p className="big-sub">
                No batch yet. <a href={hrefFor('gifts')}>Start one in Gift entry</a>.
              </p>
            )
          ) : b ? (
            <div aria-live="polite" aria-atomic="true">
              <p className="big-amount" data-testid="batch-total">
                {money(b.total)}
              </p>
              <p className="big-sub" data-testid="batch-count">
                {count(b.count, 'gift')}
                {b.expectedCount !== null ? ` of ${whole(b.expectedCount)} expected` : ''}
                {b.expectedTotal !== null ? ` · ${money(b.expectedTotal)} expected` : ''}
              </p>
              {countOff || totalOff ? (
                <p className="batch-off">
                  Does not match yet:{' '}
                  {[
                    countOff
                      ? `${Math.abs(b.expectedCount! - b.count)} ${b.expectedCount! > b.count ? 'more' : 'fewer'} gift${Math.abs(b.expectedCount! - b.count) === 1 ? '' : 's'} expected`
                      : null,
                    totalOff
                      ? `${money(Math.abs(b.expectedTotal! - b.total))} ${b.expectedTotal! > b.total ? 'short' : 'over'}`
                      : null,
                  ]
                    .filter(Boolean)
                    .join(', ')}
                </p>
              ) : b.expectedCount !== null || b.expectedTotal !== null ? (
                <p className="batch-ok">Matches what was expected.</p>
              ) : null}
            </div>
          ) : (
            <p className="big-sub">{batch.isError ? `Not available: ${batch.error.message}` : 'Loading…'}</p>
          )}
        </div>
        <p className="big-updated muted">
          {updatedAt ? `Updated ${updatedAt} · refreshes every ${REFRESH_MS / 1000} s` : ''}
        </p>
      </section>

      <div className="dash-period" role="group" aria-label="Period">
        {PERIODS.map((p) => (
          <Button
            key={p.id}
            tone={period === p.id ? 'primary' : 'secondary'}
            aria-pressed={period === p.id}
            onClick={() => setPeriod(p.id)}
          >
            {p.label}
          </Button>
        ))}
      </div>

      <div className="dash-grid">
        <section className="panel" aria-labelledby="by-campaign-title">
          <h2 id="by-campaign-title" className="panel-title">
            Totals by campaign{' '}
            <span className="muted dash-period-note">
              ({PERIODS.find((p) => p.id === period)!.label.toLowerCase()})
            </span>
          </h2>
          {periodStats.data ? (
            <CampaignTable stats={periodStats.data} />
          ) : (
            <p className="muted">{periodStats.isError ? periodStats.error.message : 'Loading…'}</p>
          )}
        </section>
        <section className="panel" aria-labelledby="over-time-title">
          <h2 id="over-time-title" className="panel-title">
            Gifts over time{' '}
            <span className="muted dash-period-note">
              ({period === 'today' ? 'entered today, by hour' : 'by gift date, by day'})
            </span>
          </h2>
          {periodStats.data ? (
            <GiftsChart stats={periodStats.data} />
          ) : (
            <p className="muted">{periodStats.isError ? periodStats.error.message : 'Loading…'}</p>
          )}
        </section>
      </div>
    </Screen>
  );
}

function CampaignTable({ stats }: { stats: DonationStats }) {
  if (stats.byCampaign.length === 0)
    return <EmptyState title="No gifts in this period">Gifts appear here as they are entered.</EmptyState>;
  const max = Math.max(...stats.byCampaign.map((c) => c.total), 0.01);
  return (
    <table className="table campaign-table">
      <thead>
        <tr>
          <th scope="col">Campaign</th>
          <th scope="col" className="num">
            Gifts
          </th>
          <th scope="col" className="num">
            Total
          </th>
          <th scope="col" className="share-col">
            <span className="visually-hidden">Share of the largest</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {stats.byCampaign.map((c) => (
          <tr key={c.campaignId ?? 'none'}>
            <th scope="row">{c.campaignName ?? <span className="muted">No campaign</span>}</th>
            <td className="num">{whole(c.count)}</td>
            <td className="num">{money(c.total)}</td>
            <td className="share-col" aria-hidden="true">
              <span className="share-bar" style={{ width: `${Math.max(2, (c.total / max) * 100)}%` }} />
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">All campaigns</th>
          <td className="num">{whole(stats.count)}</td>
          <td className="num">{money(stats.total)}</td>
          <td />
        </tr>
      </tfoot>
    </table>
  );
}
