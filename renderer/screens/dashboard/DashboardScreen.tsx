/**
 * Dashboard: the evening's figures in type large enough for the event room (gifts entered
 * today, and the current batch against what it expects: big-figures.tsx), refreshed every
 * few seconds and at once after a gift is saved (use-dashboard-data.ts); for the period
 * chosen, totals by campaign and gifts over time as a chart with a table beside it for
 * screen readers and for anyone who prefers numbers. In an event the figures are the whole
 * event's, with tonight's gifts by station beside them (station-table.tsx).
 */
import { useRef, useState, type ReactNode, type RefObject } from 'react';
import type { DonationStats } from '#shared/schemas/stats.ts';
import type { ScreenProps } from '../../router.ts';
import { Button, EmptyState, Screen } from '../../ui/index.ts';
import { BigFigures } from './big-figures.tsx';
import { GiftsChart } from './dashboard-chart.tsx';
import { HostLeaderboard } from './host-leaderboard.tsx';
import type { Period } from './dashboard-periods.ts';
import { ShareTable } from './share-table.tsx';
import { StationTable } from './station-table.tsx';
import { useDashboardData, type DashboardData } from './use-dashboard-data.ts';
import './dashboard.css';

const PERIODS: Array<{ id: Period; label: string }> = [
  { id: 'today', label: 'Today, by hour' },
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
];

export function DashboardScreen(_props: ScreenProps) {
  const [period, setPeriod] = useState<Period>('today');
  const bigRef = useRef<HTMLElement>(null);
  const data = useDashboardData(period);
  const { periodStats, role } = data;
  return (
    <Screen title="Dashboard" actions={<BigScreenButton target={bigRef} />}>
      <BigFigures ref={bigRef} data={data} />

      {role !== 'none' ? (
        <div className="dash-stations">
          <PeriodPanel
            titleId="by-station-title"
            title="The event by station"
            note="entered today"
            stats={data.todayStats}
            show={(stats) => <StationTable stats={stats} role={role} />}
          />
        </div>
      ) : null}

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
        <PeriodPanel
          titleId="by-campaign-title"
          title="Totals by campaign"
          note={PERIODS.find((p) => p.id === period)!.label.toLowerCase()}
          stats={periodStats}
          show={(stats) => <CampaignTable stats={stats} />}
        />
        <PeriodPanel
          titleId="over-time-title"
          title="Gifts over time"
          note={period === 'today' ? 'entered today, by hour' : 'by gift date, by day'}
          stats={periodStats}
          show={(stats) => <GiftsChart stats={stats} />}
        />
      </div>
      <HostLeaderboard period={period} note={period === 'today' ? 'gifts dated today' : 'by gift date'} />
    </Screen>
  );
}

/** Puts the big figures full screen (for a projector), or back. */
function BigScreenButton({ target }: { target: RefObject<HTMLElement | null> }) {
  return (
    <Button
      onClick={() => {
        const el = target.current;
        if (!el) return;
        if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
        else void el.requestFullscreen?.().catch(() => undefined);
      }}
    >
      Show on a big screen
    </Button>
  );
}

/** A panel of the period's figures, titled with what it counts; loading or why not, until they come. */
function PeriodPanel(props: {
  titleId: string;
  title: string;
  /** What the period is, in the panel's terms, after the title. */
  note: string;
  stats: DashboardData['periodStats'] | DashboardData['todayStats'];
  show: (stats: DonationStats) => ReactNode;
}) {
  const { stats } = props;
  return (
    <section className="panel" aria-labelledby={props.titleId}>
      <h2 id={props.titleId} className="panel-title">
        {props.title} <span className="muted dash-period-note">({props.note})</span>
      </h2>
      {stats.data ? (
        props.show(stats.data)
      ) : (
        <p className="muted">{stats.isError ? stats.error.message : 'Loading…'}</p>
      )}
    </section>
  );
}

/** The period's gifts and total by campaign, each with a bar against the largest. */
function CampaignTable({ stats }: { stats: DonationStats }) {
  if (stats.byCampaign.length === 0)
    return <EmptyState title="No gifts in this period">Gifts appear here as they are entered.</EmptyState>;
  return (
    <ShareTable
      heading="Campaign"
      rows={stats.byCampaign.map((c) => ({
        key: c.campaignId ?? 'none',
        label: c.campaignName ?? <span className="muted">No campaign</span>,
        count: c.count,
        total: c.total,
      }))}
      footLabel="All campaigns"
      count={stats.count}
      total={stats.total}
    />
  );
}
