/**
 * The board's split by station, in an event: the gifts and total entered at each, this
 * laptop first ("the hub" at the hub, "this station" at a station), each with a bar against
 * the largest. A station whose name this laptop does not know is shown by its id's short form.
 */
import type { DonationStats } from '#shared/schemas/stats.ts';
import { EmptyState } from '../../ui/index.ts';
import { stationLabel } from '../event/event-words.ts';
import { ShareTable } from './share-table.tsx';

export function StationTable({ stats, role }: { stats: DonationStats; role: 'hub' | 'station' }) {
  if (stats.byStation.length === 0)
    return (
      <EmptyState title="No gifts yet tonight">
        Each station’s gifts appear here as they reach this laptop.
      </EmptyState>
    );
  return (
    <ShareTable
      heading="Station"
      testId="board-stations"
      rows={stats.byStation.map((s) => ({
        key: `${s.where}:${s.stationId ?? ''}`,
        label: stationLabel(s, role),
        count: s.count,
        total: s.total,
        attrs: { 'data-testid': 'board-station', 'data-where': s.where },
      }))}
      footLabel="The event"
      count={stats.count}
      total={stats.total}
    />
  );
}
