/**
 * The Dashboard's figures, as queries that refresh on their own every few seconds (a saved
 * gift refreshes them at once): today's gifts, the batches, the batch shown and the period's
 * statistics; and today's date, which changes at midnight. In an event (this laptop hosts it
 * or is one of its stations) the figures are the whole event's, gifts arrive from the other
 * stations without a save here, so they refresh every 5 s instead of 10; the same statistics
 * carry the split by station, so the board costs no request more per refresh.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { batchKey } from '../../router.ts';
import { eventKeys } from '../event/event-words.ts';
import { localDate, periodQuery, type Period } from './dashboard-periods.ts';

/** How often the figures refresh on their own (a saved gift refreshes them at once). */
export const REFRESH_MS = 10_000;
/** In an event: the other stations' gifts are on the board within this. */
export const EVENT_BOARD_MS = 5_000;
/** How often the Dashboard asks again whether this laptop is in an event. */
const EVENT_CHECK_MS = 60_000;

/** Today's date, changing at midnight (so an evening that runs past it rolls over). */
function useToday(): string {
  const [today, setToday] = useState(() => localDate(new Date()));
  useEffect(() => {
    const t = setInterval(() => setToday(localDate(new Date())), 30_000);
    return () => clearInterval(t);
  }, []);
  return today;
}

export type DashboardData = ReturnType<typeof useDashboardData>;

/**
 * The queries behind the Dashboard for `period`, the batch shown (its id, null when there is
 * none) and chooseBatch (a batch picked on the Dashboard).
 */
export function useDashboardData(period: Period) {
  const api = useApi();
  const today = useToday();
  const [batchChoice, setBatchChoice] = useState<string | null>(null);
  // Whether this laptop is in an event (a server without events answers no: not in one).
  const event = useQuery({
    queryKey: eventKeys.status,
    queryFn: () => api.event.status(),
    refetchInterval: EVENT_CHECK_MS,
    retry: false,
  });
  const role = event.data?.role ?? 'none';
  const refreshMs = role === 'none' ? REFRESH_MS : EVENT_BOARD_MS;

  const todayStats = useQuery({
    queryKey: [...qk.stats, 'today', today],
    queryFn: () => api.stats.donations(periodQuery('today')),
    refetchInterval: refreshMs,
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
    refetchInterval: refreshMs,
    staleTime: 0,
  });
  const periodStats = useQuery({
    queryKey: [...qk.stats, period, today],
    queryFn: () => api.stats.donations(periodQuery(period)),
    refetchInterval: refreshMs,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
  return {
    todayStats,
    batches,
    batchList,
    batchId,
    chooseBatch: setBatchChoice,
    batch,
    periodStats,
    /** none, hub or station: what this laptop is in the account's event. */
    role,
    refreshMs,
  };
}
