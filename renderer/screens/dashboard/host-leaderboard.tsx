/**
 * The Dashboard's host leaderboard: what each host (the "raised by" of gift entry) raised in
 * the period shown, largest total first, in type large enough for the event room, with its
 * own "big screen" button and the same figures as CSV. Read from /reports/raised-by, on the
 * gifts' dates; refreshed with the Dashboard's other figures.
 */
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { failedWrite } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { money, whole } from '../../ui/format.ts';
import { Button, EmptyState } from '../../ui/index.ts';
import { saveFile } from '../settings/download.ts';
import { localDate, type Period } from './dashboard-periods.ts';
import { REFRESH_MS } from './use-dashboard-data.ts';

/** The period as the report's date range (gift dates, this machine's calendar days). */
export function hostPeriodQuery(p: Period, now = new Date()): { startDate: string; endDate: string } {
  const days = p === 'today' ? 0 : p === '7d' ? 6 : 29;
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - days);
  return { startDate: localDate(from), endDate: localDate(now) };
}

export function HostLeaderboard({ period, note }: { period: Period; note: string }) {
  const api = useApi();
  const ref = useRef<HTMLElement>(null);
  const [csvError, setCsvError] = useState<string | null>(null);
  const q = hostPeriodQuery(period);
  const report = useQuery({
    queryKey: qk.raisedBy(q),
    queryFn: () => api.reports.raisedBy(q),
    refetchInterval: REFRESH_MS,
  });
  const download = async () => {
    setCsvError(null);
    try {
      saveFile(await api.reports.raisedByCsv(q), `raised-by-${q.startDate}-${q.endDate}.csv`);
    } catch (err) {
      setCsvError(failedWrite('The CSV could not be made', err));
    }
  };
  const hosts = report.data?.hosts ?? [];
  const max = Math.max(...hosts.map((h) => h.total), 0.01);
  return (
    <section className="panel host-board" aria-labelledby="host-board-title" ref={ref}>
      <h2 id="host-board-title" className="panel-title">
        Raised by host <span className="muted dash-period-note">({note})</span>
      </h2>
      <div className="host-board-actions">
        <Button
          tone="quiet"
          onClick={() => {
            if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
            else void ref.current?.requestFullscreen?.().catch(() => undefined);
          }}
        >
          Hosts on a big screen
        </Button>
        <Button tone="quiet" disabled={hosts.length === 0} onClick={() => void download()}>
          Download CSV
        </Button>
      </div>
      {csvError ? (
        <p className="notice notice-error" role="alert">
          {csvError}
        </p>
      ) : null}
      {!report.data ? (
        <p className="muted">{report.isError ? report.error.message : 'Loading…'}</p>
      ) : hosts.length === 0 ? (
        <EmptyState title="No gifts raised by a host in this period">
          In gift entry, “Raised by” names the host whose guest gave; their totals appear here.
        </EmptyState>
      ) : (
        <table className="table host-table" data-testid="host-board">
          <thead>
            <tr>
              <th scope="col">Host</th>
              <th scope="col" className="num">
                Gifts
              </th>
              <th scope="col" className="num">
                Donors
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
            {hosts.map((h) => (
              <tr key={h.contactId}>
                <th scope="row">{`${h.firstName} ${h.lastName}`.trim() || h.organization}</th>
                <td className="num">{whole(h.count)}</td>
                <td className="num">{whole(h.donors)}</td>
                <td className="num">{money(h.total)}</td>
                <td className="share-col" aria-hidden="true">
                  <span className="share-bar" style={{ width: `${Math.max(2, (h.total / max) * 100)}%` }} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
