/**
 * Giving by year as bars (SVG, no library, no network): a number alone is dull. The chart
 * is an image with a text alternative; the figures are also written on the bars.
 */
import { money } from './format.ts';

export function GivingChart({
  years,
}: {
  years: ReadonlyArray<{ year: number; total: number; count: number }>;
}) {
  // Every year from the first to the last, so a year without gifts shows as a gap.
  const first = years[0]!.year;
  const last = years[years.length - 1]!.year;
  const all = [];
  for (let y = Math.max(first, last - 11); y <= last; y++)
    all.push(years.find((x) => x.year === y) ?? { year: y, total: 0, count: 0 });
  const max = Math.max(...all.map((y) => y.total), 1);
  const barW = 44;
  const gap = 14;
  const h = 120;
  const width = all.length * (barW + gap) + gap;
  const summary = all
    .map((y) => `${y.year}: ${money(y.total)} in ${y.count} gift${y.count === 1 ? '' : 's'}`)
    .join('; ');
  return (
    <figure className="giving-chart">
      <figcaption>Given by year</figcaption>
      <svg
        role="img"
        aria-label={`Given by year. ${summary}`}
        viewBox={`0 0 ${width} ${h + 40}`}
        width={width}
        height={h + 40}
      >
        <line x1={0} x2={width} y1={h + 18} y2={h + 18} className="chart-axis" />
        {all.map((y, i) => {
          const bh = y.total === 0 ? 0 : Math.max(2, Math.round((y.total / max) * h));
          const x = gap + i * (barW + gap);
          return (
            <g key={y.year}>
              <rect x={x} y={h + 18 - bh} width={barW} height={bh} rx={3} className="chart-bar" />
              <text x={x + barW / 2} y={h + 34} textAnchor="middle" className="chart-label">
                {y.year}
              </text>
              <text x={x + barW / 2} y={h + 12 - bh} textAnchor="middle" className="chart-value">
                {y.total === 0 ? '' : compact(y.total)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** 1234.5 → "$1.2k", 950 → "$950": short enough to sit on a bar. */
function compact(dollars: number): string {
  if (dollars >= 1_000_000) return `$${(dollars / 1_000_000).toFixed(1)}M`;
  if (dollars >= 10_000) return `$${Math.round(dollars / 1000)}k`;
  if (dollars >= 1000) return `$${(dollars / 1000).toFixed(1)}k`;
  return `$${Math.round(dollars)}`;
}
