/**
 * The board's split by station, in an event: the gifts and total entered at each, this
 * laptop first ("the hub" at the hub, "this station" at a station), each with a bar against
 * the largest. A station whose name this laptop does not know is shown by its id's short form.
 */
import type { DonationStats } from '#shared/schemas/stats.ts';
import { money, whole } from '../../ui/format.ts';
import { EmptyState } from '../../ui/index.ts';
import { stationLabel } from '../event/event-words.ts';

export function StationTable({ stats, role }: { stats: DonationStats; role: 'hub' | 'station' }) {
  if (stats.byStation.length === 0)
    return (
      <EmptyState title="No gifts yet tonight">
        Each station’s gifts appear here as they reach this laptop.
      </EmptyState>
    );
  const max = Math.max(...stats.byStation.map((s) => s.total), 0.01);
  return (
    <table className="table campaign-table" data-testid="board-stations">
      <thead>
        <tr>
          <th scope="col">Station</th>
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
        {stats.byStation.map((s) => (
          <tr key={`${s.where}:${s.stationId ?? ''}`} data-testid="board-station" data-where={s.where}>
            <th scope="row">{stationLabel(s, role)}</th>
            <td className="num">{whole(s.count)}</td>
            <td className="num">{money(s.total)}</td>
            <td className="share-col" aria-hidden="true">
              <span className="share-bar" style={{ width: `${Math.max(2, (s.total / max) * 100)}%` }} />
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">The event</th>
          <td className="num">{whole(stats.count)}</td>
          <td className="num">{money(stats.total)}</td>
          <td />
        </tr>
      </tfoot>
    </table>
  );
}
