/**
 * Gifts over time: a hand-written SVG bar chart (one bar per hour or day, the amount
 * raised), titled and described for screen readers, with the same figures as a table.
 */
import { useId } from 'react';
import type { DonationStats } from '#shared/schemas/stats.ts';
import { count, money, whole } from '../../ui/format.ts';

const W = 720;
const H = 260;
const M = { top: 12, right: 12, bottom: 34, left: 72 };

/** A round axis maximum at or above `max` (1, 2, 2.5 or 5 × a power of ten), and its 4 steps. */
export function niceScale(max: number): { top: number; ticks: number[] } {
  if (!(max > 0)) return { top: 100, ticks: [0, 25, 50, 75, 100] };
  const raw = max / 4;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s * 4 >= max) ?? 10 * pow;
  return { top: step * 4, ticks: [0, 1, 2, 3, 4].map((i) => i * step) };
}

const shortMoney = (d: number) =>
  d >= 10_000
    ? `$${Math.round(d / 1000)}k`
    : d >= 1000
      ? `$${(d / 1000).toFixed(1).replace(/\.0$/, '')}k`
      : `$${Math.round(d)}`;

export function pointLabel(start: string, unit: 'hour' | 'day', long = false): string {
  const d = new Date(start);
  if (unit === 'hour')
    return d.toLocaleTimeString(
      undefined,
      long ? { hour: 'numeric', minute: '2-digit' } : { hour: 'numeric' },
    );
  return d.toLocaleDateString(
    undefined,
    long
      ? { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }
      : { month: 'short', day: 'numeric', timeZone: 'UTC' },
  );
}

export function GiftsChart({ stats }: { stats: DonationStats }) {
  const id = useId();
  const pts = stats.overTime.points;
  const unit = stats.overTime.unit;
  if (pts.length === 0) return <p className="muted">No gifts in this period yet.</p>;
  const { top, ticks } = niceScale(Math.max(...pts.map((p) => p.total)));
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  const slot = iw / pts.length;
  const bw = Math.max(1, slot * 0.72);
  const y = (v: number) => M.top + ih - (v / top) * ih;
  const every = Math.max(1, Math.ceil(pts.length / 12));
  const peak = pts.reduce((a, p) => (p.total > a.total ? p : a), pts[0]!);
  const desc =
    stats.count === 0
      ? 'No gifts in this period.'
      : `${count(stats.count, 'gift')}, ${money(stats.total)} in all, from ${pointLabel(pts[0]!.start, unit, true)} to ${pointLabel(pts[pts.length - 1]!.start, unit, true)}. The most raised in one ${unit}: ${money(peak.total)} (${pointLabel(peak.start, unit, true)}).`;

  return (
    <div className="chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        className="chart-svg"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-t`}>{`Amount raised per ${unit}`}</title>
        <desc id={`${id}-d`}>{desc}</desc>
        {ticks.map((t) => (
          <g key={t}>
            <line
              x1={M.left}
              x2={W - M.right}
              y1={y(t)}
              y2={y(t)}
              className={t === 0 ? 'chart-axis' : 'chart-grid'}
            />
            <text x={M.left - 8} y={y(t)} className="chart-tick" textAnchor="end" dominantBaseline="middle">
              {shortMoney(t)}
            </text>
          </g>
        ))}
        {pts.map((p, i) => {
          const x = M.left + i * slot + (slot - bw) / 2;
          const h = y(0) - y(p.total);
          return (
            <g key={p.start}>
              {p.total > 0 ? (
                <rect x={x} y={y(p.total)} width={bw} height={Math.max(h, 1)} rx={2} className="chart-bar">
                  <title>{`${pointLabel(p.start, unit, true)}: ${money(p.total)}, ${count(p.count, 'gift')}`}</title>
                </rect>
              ) : null}
              {i % every === 0 ? (
                <text
                  x={M.left + i * slot + slot / 2}
                  y={H - M.bottom + 18}
                  className="chart-tick"
                  textAnchor="middle"
                >
                  {pointLabel(p.start, unit)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <details className="chart-table">
        <summary>Show these figures as a table</summary>
        <table className="table">
          <caption className="visually-hidden">{`Amount raised and gifts per ${unit}`}</caption>
          <thead>
            <tr>
              <th scope="col">{unit === 'hour' ? 'Hour' : 'Day'}</th>
              <th scope="col" className="num">
                Gifts
              </th>
              <th scope="col" className="num">
                Raised
              </th>
            </tr>
          </thead>
          <tbody>
            {pts.map((p) => (
              <tr key={p.start}>
                <th scope="row">{pointLabel(p.start, unit, true)}</th>
                <td className="num">{whole(p.count)}</td>
                <td className="num">{money(p.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
