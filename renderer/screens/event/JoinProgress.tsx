/**
 * Under "Join the event" while it waits: what the join is doing, in words, with a progress bar —
 * connecting to the hub and checking its certificate, then bringing the event's donors and gifts
 * (so many of what the hub holds), then finishing. Asked twice a second while the join's request
 * is open (GET /event/join/progress).
 */
import { useQuery } from '@tanstack/react-query';
import type { EventJoinProgress } from '#shared/schemas/hub.ts';
import { useApi } from '../../api/provider.tsx';
import { ProgressBar } from '../../ui/index.ts';
import { whole } from '../../ui/format.ts';

/** The sentence and the bar's figures for a join's step. */
export function joinWords(p: EventJoinProgress): { said: string; value: number | null; max: number } {
  const of = (n: number, all: number | null, noun: string) =>
    all === null ? `${whole(n)} ${noun}` : `${whole(Math.min(n, all))} of ${whole(all)} ${noun}`;
  if (p.phase === 'bringing') {
    const all = p.donorsAtHub !== null && p.giftsAtHub !== null ? p.donorsAtHub + p.giftsAtHub : null;
    return {
      said: `Bringing the event from the hub: ${of(p.donors, p.donorsAtHub, 'donors')}, ${of(p.gifts, p.giftsAtHub, 'gifts')}…`,
      value: all === null ? null : Math.min(p.donors + p.gifts, all),
      max: Math.max(all ?? 1, 1),
    };
  }
  if (p.phase === 'finishing') return { said: 'Finishing: adding up each donor’s gifts…', value: 1, max: 1 };
  if (p.phase === 'done') return { said: 'Ready for gifts.', value: 1, max: 1 };
  return { said: 'Connecting to the hub and checking its certificate…', value: null, max: 1 };
}

export function JoinProgress() {
  const api = useApi();
  const progress = useQuery({
    queryKey: ['event', 'join-progress'],
    queryFn: () => api.event.joinProgress(),
    refetchInterval: 500,
    staleTime: 0,
    gcTime: 0,
  });
  const p = progress.data;
  const w = p && p.phase !== 'failed' ? joinWords(p) : joinWords({ ...EMPTY, phase: 'connecting' });
  return (
    <div className="event-join-progress" data-testid="join-progress">
      <ProgressBar label="Joining the event" value={w.value} max={w.max} detail={w.said} />
    </div>
  );
}

const EMPTY: EventJoinProgress = {
  joining: true,
  phase: 'connecting',
  startedAt: null,
  donors: 0,
  gifts: 0,
  donorsAtHub: null,
  giftsAtHub: null,
};
